import { describe, expect, it } from 'vitest';
import { envelopeSchema } from '@intranet/schema/events/envelope';
import { parseEvent } from '@intranet/schema/events/validate';
import { newEventId } from './event-id.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const msOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

describe('newEventId (UUIDv7)', () => {
  it('is a version 7, variant 10 uuid carrying the time in milliseconds', () => {
    const now = Date.now() + 10_000; // ahead of any id this process made before
    const id = newEventId(now);
    expect(id).toMatch(V7);
    expect(msOf(id)).toBe(now);
    expect(envelopeSchema.shape.id.safeParse(id).success).toBe(true);
    const env = {
      id,
      type: 'platform.probe',
      aggregateType: 'probe',
      aggregateId: 'a',
      occurredAt: new Date(now).toISOString(),
      actorId: null,
      payload: { seq: 0 },
      version: 1,
    };
    expect(parseEvent(env).id).toBe(id);
  });

  it('increases strictly within a millisecond, across milliseconds and when the clock steps back', () => {
    const t = Date.now() + 20_000;
    const ids = [
      ...Array.from({ length: 5000 }, () => newEventId(t)),
      ...Array.from({ length: 100 }, () => newEventId(t + 1)),
      ...Array.from({ length: 100 }, () => newEventId(t - 5)), // clock stepped back: keeps t + 1
      newEventId(t + 2),
    ];
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(msOf(ids[5100]!)).toBe(t + 1);
    expect(msOf(ids[ids.length - 1]!)).toBe(t + 2);
    for (const id of ids) expect(id).toMatch(V7);
  });

  it('differs in its random bits from one id to the next', () => {
    const t = Date.now() + 30_000;
    const tails = new Set(Array.from({ length: 1000 }, () => newEventId(t).slice(-8)));
    expect(tails.size).toBeGreaterThan(990);
  });
});
