import type { MikroORM } from '@mikro-orm/postgresql';
import type { Registry } from 'prom-client';
import type { Config } from '../../graph/src/config/config.js';
import type { EventConsumer } from '../../graph/src/platform/events/index.js';
import { ProbeConsumer } from '../../graph/src/platform/events/probe.js';
import { createGoogleSync, type GoogleSync } from './google-sync/index.js';
import { createImportConsumer, ImportConsumer, startImportScheduler } from './import/index.js';

export interface ConsumerOptions {
  /** The process's metrics registry (so consumers' own metrics reach /metrics). */
  registry?: Registry;
}

// One Google sync per process: the push consumer and the pull scheduler share its client and quotas.
let googleSync: GoogleSync | undefined;
const google = (o: ConsumerOptions) => (googleSync ??= createGoogleSync({ registry: o.registry }));

/**
 * Every consumer the pool can run, by name (the name is also its idempotency key and Kafka consumer
 * group suffix). The google-sync, statistics and import consumers register here as they land.
 */
export const consumerFactories: Record<string, (o: ConsumerOptions) => EventConsumer> = {
  probe: () => new ProbeConsumer('probe'),
  'google-sync': (o) => google(o).consumer,
  import: () => createImportConsumer(),
};

export function consumerNames(): string[] {
  return Object.keys(consumerFactories);
}

/** The consumers named in `only` (all when empty); unknown names are an error listing the known ones. */
export function selectConsumers(only: string[] = [], o: ConsumerOptions = {}): EventConsumer[] {
  const names = only.length ? only : consumerNames();
  const unknown = names.filter((n) => !consumerFactories[n]);
  if (unknown.length) throw new Error(`unknown consumer(s) ${unknown.join(', ')}; known: ${consumerNames().join(', ')}`);
  return names.map((n) => consumerFactories[n]!(o));
}

/**
 * Timers that selected consumers need beside their events: google-sync's pull scheduler (timer
 * pulls per connected user and the "sync the month shown" requests), when Google is configured, and
 * the import worker's look for pending jobs.
 */
export function startBackgroundJobs(consumers: EventConsumer[], orm: MikroORM, config: Config): { stop(): Promise<void> } {
  const stops: (() => Promise<void>)[] = [];
  if (config.GOOGLE_CLIENT_ID && googleSync && consumers.includes(googleSync.consumer)) {
    const scheduler = googleSync.startScheduler(orm);
    stops.push(() => scheduler.stop());
  }
  for (const c of consumers) {
    if (c instanceof ImportConsumer) {
      const scheduler = startImportScheduler(c, orm);
      stops.push(() => scheduler.stop());
    }
  }
  return { stop: async () => void (await Promise.all(stops.map((s) => s()))) };
}
