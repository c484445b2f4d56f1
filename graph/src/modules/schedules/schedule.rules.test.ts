import { describe, expect, it } from 'vitest';
import { parseInput } from '../../platform/validation.js';
import { mondayOf, normalizeTime, oneHourLater, scheduleInputSchema, weekLabel } from './schedule.rules.js';

const base = { title: '定例', date: '2026-11-23', startTime: '10:00', endTime: '11:00' };
const fields = (input: unknown) => {
  try {
    parseInput(scheduleInputSchema, input);
    return [];
  } catch (e) {
    return ((e as { extensions: { fieldErrors: { field: string }[] } }).extensions.fieldErrors ?? []).map(
      (f) => f.field,
    );
  }
};

describe('schedule rules', () => {
  it('accepts only 15-minute steps', () => {
    expect(normalizeTime('9:15')).toBe('09:15:00');
    expect(normalizeTime('23:45:00')).toBe('23:45:00');
    for (const bad of ['09:10', '24:00', '09:15:30', 'noon']) expect(normalizeTime(bad)).toBeNull();
    expect(fields({ ...base, startTime: '10:05' })).toEqual(['startTime']);
  });

  it('moves the end one hour after the start, wrapping at 24', () => {
    expect(oneHourLater('09:15:00')).toBe('10:15:00');
    expect(oneHourLater('23:30:00')).toBe('00:30:00');
  });

  it('sends all-day entries without times, and requires times otherwise', () => {
    const d = parseInput(scheduleInputSchema, { ...base, isAllDay: true });
    expect([d.startTime, d.endTime]).toEqual([null, null]);
    expect(fields({ title: 'x', date: '2026-11-23' }).sort()).toEqual(['endTime', 'startTime']);
  });

  it('refuses an end before the start on the same day, and accepts it across midnight', () => {
    expect(fields({ ...base, startTime: '23:30', endTime: '00:30' })).toEqual(['endTime']);
    expect(fields({ ...base, startTime: '23:30', endTime: '00:30', endDate: '2026-11-24' })).toEqual([]);
    expect(fields({ ...base, endDate: '2026-11-22' })).toEqual(['endDate']);
    expect(fields({ ...base, date: '2026-02-30' })).toEqual(['date']);
  });

  it('trims extra-guest rows, drops blanks and duplicates, checks addresses', () => {
    const d = parseInput(scheduleInputSchema, {
      ...base,
      externalGuests: [' a@example.com ', '', '   ', 'A@example.com'],
    });
    expect(d.externalGuests).toEqual(['a@example.com']);
    expect(fields({ ...base, externalGuests: ['not-an-address'] })).toEqual(['externalGuests.0']);
  });

  it('keeps a meet link only for remote entries and checks it', () => {
    expect(
      parseInput(scheduleInputSchema, { ...base, type: 'TASK', meetLink: 'https://meet.example/x' }).meetLink,
    ).toBeNull();
    expect(
      parseInput(scheduleInputSchema, { ...base, type: 'REMOTE', meetLink: 'https://meet.example/x' }).meetLink,
    ).toBe('https://meet.example/x');
    expect(fields({ ...base, type: 'REMOTE', meetLink: 'javascript:alert(1)' })).toEqual(['meetLink']);
  });

  it('defaults: type task, Google sync on; a private entry cannot have guests', () => {
    const d = parseInput(scheduleInputSchema, base);
    expect([d.type, d.syncGoogle, d.isPrivate]).toEqual(['TASK', true, false]);
    expect(fields({ ...base, isPrivate: true, guestIds: [2] })).toEqual(['isPrivate']);
  });

  it('weeks start on Monday and are labelled MM月DD日 〜 MM月DD日', () => {
    expect(mondayOf('2026-11-22')).toBe('2026-11-16'); // a Sunday
    expect(mondayOf('2026-11-23')).toBe('2026-11-23');
    expect(weekLabel('2026-11-23', '2026-11-29')).toBe('11月23日 〜 11月29日');
  });
});
