import type { EventConsumer } from '../../graph/src/platform/events/index.js';
import { ProbeConsumer } from '../../graph/src/platform/events/probe.js';
import { createGoogleSync } from './google-sync/index.js';

/**
 * Every consumer the pool can run, by name (the name is also its idempotency key and Kafka consumer
 * group suffix). The google-sync, statistics and import consumers register here as they land.
 */
export const consumerFactories: Record<string, () => EventConsumer> = {
  probe: () => new ProbeConsumer('probe'),
  'google-sync': () => createGoogleSync().consumer, // pushes; its pull scheduler: createGoogleSync().startScheduler(orm)
};

export function consumerNames(): string[] {
  return Object.keys(consumerFactories);
}

/** The consumers named in `only` (all when empty); unknown names are an error listing the known ones. */
export function selectConsumers(only: string[] = []): EventConsumer[] {
  const names = only.length ? only : consumerNames();
  const unknown = names.filter((n) => !consumerFactories[n]);
  if (unknown.length) throw new Error(`unknown consumer(s) ${unknown.join(', ')}; known: ${consumerNames().join(', ')}`);
  return names.map((n) => consumerFactories[n]!());
}
