import { describe, expect, it } from 'vitest';
import { InvalidEventError, contractFor, parseEvent } from './validate.js';

const good = {
  id: 'dc6a0648-10c4-4cdf-8c50-4e2014c33843',
  type: 'platform.probe',
  aggregateType: 'probe',
  aggregateId: 'agg-0-0',
  occurredAt: '2026-11-22T18:30:46.484Z',
  actorId: null,
  payload: { seq: 3 },
  version: 1,
};

describe('parseEvent', () => {
  it('accepts an envelope as producers write it and drops unknown fields', () => {
    expect(parseEvent({ ...good, extra: 1 })).toEqual(good);
  });

  it('accepts valid envelopes the fast check leaves to zod (other time formats)', () => {
    expect(parseEvent({ ...good, occurredAt: '2026-11-22T18:30:46Z' }).occurredAt).toBe('2026-11-22T18:30:46Z');
  });

  it('checks every time, also right after a valid one (the last canonical time is remembered)', () => {
    for (let i = 0; i < 3; i++) expect(parseEvent(good).occurredAt).toBe(good.occurredAt);
    expect(() => parseEvent({ ...good, occurredAt: '2026-02-30T10:00:00.000Z' })).toThrow(/occurredAt/);
    expect(parseEvent(good).occurredAt).toBe(good.occurredAt);
    expect(() => parseEvent({ ...good, occurredAt: '2026-11-22T18:30:46.484+' })).toThrow(/occurredAt/);
  });

  it.each([
    ['id', { id: 'not-a-uuid' }, /id/],
    ['time', { occurredAt: '2026-02-30T10:00:00.000Z' }, /occurredAt/],
    ['actor', { actorId: 1.5 }, /actorId/],
    ['version', { version: 0 }, /version/],
    ['payload', { payload: { seq: -1 } }, /payload/],
    ['payload array', { payload: [] }, /payload/],
    ['aggregate type', { aggregateType: 'employee' }, /aggregateType/],
  ])('refuses a bad %s with the reason', (_, patch, reason) => {
    expect(() => parseEvent({ ...good, ...patch })).toThrow(InvalidEventError);
    expect(() => parseEvent({ ...good, ...patch })).toThrow(reason);
  });
});

describe('contractFor', () => {
  it('finds a contract by type and the version it was written with, or the latest without a version', () => {
    expect(contractFor('platform.probe', 1)?.type).toBe('platform.probe');
    expect(contractFor('platform.probe')?.version).toBe(1);
    expect(contractFor('platform.probe', 2)).toBeUndefined();
    expect(contractFor('platform.nothing', 1)).toBeUndefined();
    expect(() => parseEvent({ ...good, version: 2 })).toThrow(/unknown event platform.probe v2/);
  });
});
