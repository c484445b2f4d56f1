import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '@intranet/schema/events';
import { fanOut } from './fan-out.js';
import type { LivePubSub } from './pubsub.js';

const event = (id = randomUUID(), aggregateType = 'schedule'): EventEnvelope =>
  ({
    id,
    type: 'schedule.updated',
    aggregateType,
    aggregateId: '1',
    version: 1,
    occurredAt: new Date().toISOString(),
    actorId: null,
    payload: {},
  }) as unknown as EventEnvelope;

describe('fanOut', () => {
  it('publishes each event once, though the feed brings it again (a relay killed before committing its claim sends its batch twice)', () => {
    const published: string[] = [];
    const pubsub = {
      publish: (_t: string, _id: string, e: EventEnvelope) => published.push(e.id),
    } as unknown as LivePubSub;
    const deliver = fanOut(pubsub, 3);
    const [a, b, c, d] = [event(), event(), event(), event()];
    deliver([a, b, a]);
    deliver([b, c]);
    expect(published).toEqual([a.id, b.id, c.id]);
    // Only the last ids are remembered (here 3): one that old is published again, as the bound says.
    deliver([d, a]);
    expect(published).toEqual([a.id, b.id, c.id, d.id, a.id]);
    // Platform internals never reach browsers.
    deliver([event(undefined, 'probe')]);
    expect(published).toHaveLength(5);
  });
});
