import { setMaxListeners } from 'node:events';
import { createPubSub } from '@graphql-yoga/subscription';
import type { EventEnvelope } from '@intranet/schema/events';

/**
 * Typed pubsub behind GraphQL subscriptions. It is fed only by the outbox relay (committed
 * events), never directly by services, so a subscriber never sees a change that rolled back.
 */
export type LivePubSub = ReturnType<typeof createLivePubSub>;

export const createLivePubSub = () => {
  // One listener per open subscription (per hub for schedules): thousands are normal, not a leak.
  const eventTarget = new EventTarget();
  setMaxListeners(0, eventTarget);
  return createPubSub<{
    /** Every committed domain event, keyed by aggregate type ('employee', 'schedule', …). */
    event: [aggregateType: string, envelope: EventEnvelope];
  }>({ eventTarget });
};

export type { EventEnvelope };
