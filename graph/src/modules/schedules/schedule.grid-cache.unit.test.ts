import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '@intranet/schema/events';
import { ScheduleGridCache } from './schedule.grid-cache.js';

const WEEK = { from: '2031-03-03', to: '2031-03-09' };
const NEXT = { from: '2031-03-10', to: '2031-03-16' };

const event = (type: string, payload: Record<string, unknown>): EventEnvelope =>
  ({
    id: 'x',
    type,
    aggregateType: type.split('.')[0]!,
    aggregateId: '1',
    occurredAt: '',
    actorId: null,
    payload,
    version: 1,
  }) as EventEnvelope;
const entry = (startDate: string, endDate = startDate) => ({ startDate, endDate });

describe('ScheduleGridCache', () => {
  it('keeps answers within the byte budget, dropping the least recently used', () => {
    const c = new ScheduleGridCache<string>(100);
    c.put(c.begin(), 'a', WEEK, 'A', 25);
    c.put(c.begin(), 'b', WEEK, 'B', 25);
    c.put(c.begin(), 'c', WEEK, 'C', 25);
    expect(c.get('a')).toBe('A'); // a is now the most recently used
    c.put(c.begin(), 'd', WEEK, 'D', 25);
    c.put(c.begin(), 'e', WEEK, 'E', 25);
    expect(c.get('b')).toBeUndefined();
    expect(['a', 'c', 'd', 'e'].map((k) => c.get(k))).toEqual(['A', 'C', 'D', 'E']);
    expect(c.stats()).toMatchObject({ entries: 4, bytes: 100, evictions: 1 });
  });

  it('bounds the number of answers too, and keeps none larger than a quarter of the budget', () => {
    const c = new ScheduleGridCache<string>(1000, 2);
    for (const k of ['a', 'b', 'c']) c.put(c.begin(), k, WEEK, k, 1);
    expect(c.stats().entries).toBe(2);
    expect(c.put(c.begin(), 'big', WEEK, 'x', 251)).toBe(false);
    expect(new ScheduleGridCache<string>(0).put(0, 'a', WEEK, 'a', 1)).toBe(false);
  });

  it('a schedule change drops the answers whose dates overlap the entry before or after it, and only those', () => {
    const c = new ScheduleGridCache<string>(1000);
    c.put(c.begin(), 'this', WEEK, 'w', 1);
    c.put(c.begin(), 'next', NEXT, 'n', 1);
    c.invalidate([event('schedule.created', { schedule: entry('2031-03-20') })]);
    expect(c.stats().entries).toBe(2);
    c.invalidate([
      event('schedule.updated', { schedule: entry('2031-03-20'), previous: entry('2031-03-08', '2031-03-11') }),
    ]);
    expect(c.stats().entries).toBe(0);
    c.put(c.begin(), 'this', WEEK, 'w', 1);
    c.put(c.begin(), 'next', NEXT, 'n', 1);
    c.invalidate([event('schedule.responded', { schedule: entry('2031-03-09') })]);
    expect([c.get('this'), c.get('next')]).toEqual([undefined, 'n']);
    c.invalidate([event('schedule.deleted', { schedule: entry('2031-03-16') })]);
    expect(c.get('next')).toBeUndefined();
  });

  it('employee and department changes drop everything; session events and other aggregates nothing', () => {
    const c = new ScheduleGridCache<string>(1000);
    const fill = () => ['a', 'b'].forEach((k, i) => c.put(c.begin(), k, i ? NEXT : WEEK, k, 1));
    for (const type of ['employee.created', 'employee.updated', 'department.created', 'department.updated']) {
      fill();
      c.invalidate([event(type, {})]);
      expect(c.stats().entries).toBe(0);
    }
    fill();
    c.invalidate([
      event('employee.session_ended', {}),
      event('employee.sessions_revoked', {}),
      event('device.computer.updated', {}),
    ]);
    expect(c.stats().entries).toBe(2);
  });

  it('refuses an answer computed across an invalidation (it may have read the data before the change)', () => {
    const c = new ScheduleGridCache<string>(1000);
    const ticket = c.begin();
    c.invalidate([event('schedule.created', { schedule: entry('2040-01-01') })]); // even another week
    expect(c.put(ticket, 'a', WEEK, 'stale', 1)).toBe(false);
    expect(c.get('a')).toBeUndefined();
    expect(c.stats().raced).toBe(1);
    expect(c.put(c.begin(), 'a', WEEK, 'fresh', 1)).toBe(true);
  });

  it('serves and keeps nothing while the live feed cannot vouch for it, and starts empty once it can', () => {
    let fresh = true;
    const c = new ScheduleGridCache<string>(1000);
    c.trustWhile(() => fresh);
    c.put(c.begin(), 'a', WEEK, 'A', 10);
    expect(c.get('a')).toBe('A');
    fresh = false;
    expect(c.get('a')).toBeUndefined();
    expect(c.put(c.begin(), 'b', WEEK, 'B', 10)).toBe(false);
    expect(c.stats().bypassed).toBe(2);
    fresh = true;
    // What was kept before the lag may have missed a change made during it.
    expect(c.get('a')).toBeUndefined();
    expect(c.put(c.begin(), 'a', WEEK, 'A2', 10)).toBe(true);
    expect(c.get('a')).toBe('A2');
  });
});
