import type { EventEnvelope } from '../../../../schema/events/index.js';
import type { LivePubSub } from './pubsub.js';
import { notePublished } from './position.js';

/** Aggregate types that never reach browsers (platform internals such as the end-to-end probe). */
const INTERNAL = new Set(['probe']);

/**
 * Committed events → GraphQL subscriptions, routed by aggregate type (topic `event`, id = aggregateType).
 * Fed by the relay (embedded) or by this instance's own Kafka consumer group, so every graph
 * instance delivers every event to its own WebSocket clients. What one subscriber may see is
 * decided per subscription (its resolver's `filter` with the subscriber's context).
 */
export function fanOut(pubsub: LivePubSub) {
  return (batch: EventEnvelope[]) => {
    for (const e of batch) {
      if (INTERNAL.has(e.aggregateType)) continue;
      notePublished(pubsub, e);
      pubsub.publish('event', e.aggregateType, e);
    }
  };
}
