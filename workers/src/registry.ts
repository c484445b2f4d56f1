import type { MikroORM } from '@mikro-orm/postgresql';
import type { Registry } from 'prom-client';
import { type Config, createLogger, fileStorageFor } from '@intranet/graph';
import { type EventConsumer, ProbeConsumer } from '@intranet/graph/events';
import { createGoogleSync, type GoogleSync } from './google-sync/index.js';
import { createImportConsumer, ImportConsumer, startImportScheduler } from './import/index.js';
import { startBlogScheduler } from './blog-schedule/index.js';
import { StatisticsConsumer } from './statistics/statistics.consumer.js';

export interface ConsumerOptions {
  /** The process's metrics registry (so consumers' own metrics reach /metrics). */
  registry?: Registry;
}

// One Google sync per process: the push consumer and the pull scheduler share its client and quotas.
let googleSync: GoogleSync | undefined;
const google = (o: ConsumerOptions) => (googleSync ??= createGoogleSync({ registry: o.registry }));

/**
 * Every consumer the pool can run, by name (the name is also its idempotency key and Kafka consumer
 * group suffix). Register a new consumer here.
 *  - google-sync: pushes schedule changes to the connected Google Calendars (and, beside it, the
 *    pull scheduler of those calendars);
 *  - import: runs the Excel import jobs of computers;
 *  - statistics: keeps the blog statistics' rollups from likes, first views and comments;
 *  - probe: the event backbone's self-test, one row in event_probe_effect per `platform.probe`
 *    event (benchmarks and fault tests drive the whole path with it). Nothing in the product emits
 *    probes, so production pools leave it out unless asked for by name (see `defaultConsumerNames`).
 */
export const consumerFactories: Record<string, (o: ConsumerOptions) => EventConsumer> = {
  probe: () => new ProbeConsumer('probe'),
  'google-sync': (o) => google(o).consumer,
  import: () => createImportConsumer(),
  statistics: () => new StatisticsConsumer(),
};

/** Consumers that run under NODE_ENV=production only when named (`--only probe`). */
const NOT_BY_DEFAULT_IN_PRODUCTION = new Set(['probe']);

export function consumerNames(): string[] {
  return Object.keys(consumerFactories);
}

/** The consumers a pool (or `npm start`, embedded) runs when none are named. */
export function defaultConsumerNames(opts: { production?: boolean } = {}): string[] {
  return consumerNames().filter((n) => !(opts.production && NOT_BY_DEFAULT_IN_PRODUCTION.has(n)));
}

/**
 * The consumers named in `only` (the defaults when empty); an unknown name is an error listing the known ones.
 */
export function selectConsumers(
  only: string[] = [],
  o: ConsumerOptions = {},
  defaults: { production?: boolean } = {},
): EventConsumer[] {
  const names = only.length ? [...new Set(only)] : defaultConsumerNames(defaults);
  const unknown = names.filter((n) => !consumerFactories[n]);
  if (unknown.length)
    throw new Error(`unknown consumer(s) ${unknown.join(', ')}; known: ${consumerNames().join(', ')}`);
  return names.map((n) => consumerFactories[n]!(o));
}

/**
 * Timers that selected consumers need beside their events: google-sync's pull scheduler (timer
 * pulls per connected user and the "sync the month shown" requests), when Google is configured, and
 * the import worker's look for pending jobs. And, in every process that runs consumers (each pool
 * process, or `npm start` without Kafka), the blog scheduler: the events of posts whose publish or
 * pin window starts or ends with the day, fired once across processes, and the sweep of body pictures
 * no post shows (blog-schedule/).
 */
export function startBackgroundJobs(
  consumers: EventConsumer[],
  orm: MikroORM,
  config: Config,
): { stop(): Promise<void> } {
  const stops: (() => Promise<void>)[] = [];
  if (consumers.length) {
    // The same store the graph instances write to (the sweep deletes pictures no post shows).
    const blog = startBlogScheduler(orm, createLogger(config.LOG_LEVEL), fileStorageFor(config));
    stops.push(() => blog.stop());
  }
  if (config.GOOGLE_CLIENT_ID && googleSync && consumers.includes(googleSync.consumer)) {
    googleSync.shareQuota(orm);
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
