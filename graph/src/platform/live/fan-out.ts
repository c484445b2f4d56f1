import type { EventEnvelope } from '@intranet/schema/events';
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
export function fanOut(pubsub: LivePubSub, remember = RECENT_IDS) {
  const recent = new RecentIds(remember);
  return (batch: EventEnvelope[]) => {
    for (const e of batch) {
      if (INTERNAL.has(e.aggregateType)) continue;
      // At-least-once upstream: a relay killed between producing and committing its claim sends the
      // batch again (the same ids), and the live feed reads both. Subscribers get each event once.
      if (!recent.add(e.id)) continue;
      notePublished(pubsub, e);
      pubsub.publish('event', e.aggregateType, e);
    }
  };
}

/** How many event ids an instance remembers: far more than a redelivery can lag behind at the rates here. */
const RECENT_IDS = 100_000;

/** The last `size` ids seen, in insertion order (a ring over a set). */
class RecentIds {
  private readonly ids = new Set<string>();
  private readonly ring: string[] = [];
  private next = 0;
  constructor(private readonly size: number) {}

  /** False when `id` was seen already. */
  add(id: string): boolean {
    if (this.ids.has(id)) return false;
    if (this.ring.length < this.size) this.ring.push(id);
    else {
      this.ids.delete(this.ring[this.next]!);
      this.ring[this.next] = id;
      this.next = (this.next + 1) % this.size;
    }
    this.ids.add(id);
    return true;
  }
}
