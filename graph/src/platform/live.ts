import type { EventEnvelope } from '../../../schema/events/index.js';
import type { LivePubSub } from './pubsub.js';

/** Committed events → GraphQL subscriptions, routed by aggregate type (topic `event`, id = aggregateType). */
export function fanOut(pubsub: LivePubSub) {
  return (batch: EventEnvelope[]) => {
    for (const e of batch) pubsub.publish('event', e.aggregateType, e);
  };
}
