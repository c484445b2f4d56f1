import { describe, expect, test } from 'vitest';
import {
  addDays,
  addMonths,
  covers,
  daysBetween,
  fromMinutes,
  hhmm,
  mondayOf,
  monthMatrix,
  nextSlot,
  oneHourLater,
  overlapsRange,
  shiftMonthKeepDay,
  TIME_SLOTS,
  today,
  toMinutes,
  weekDays,
  weekdayIndex,
} from './dates';

describe('calendar dates (YYYY-MM-DD, no time zones)', () => {
  test('addDays crosses month, year and leap-day boundaries', () => {
    expect(addDays('2026-01-31', 1)).toBe('2026-02-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  test('daysBetween counts whole days, negative backwards', () => {
    expect(daysBetween('2026-03-28', '2026-04-02')).toBe(5);
    expect(daysBetween('2026-04-02', '2026-03-28')).toBe(-5);
    expect(daysBetween('2026-05-05', '2026-05-05')).toBe(0);
  });

  test('weeks start on Monday', () => {
    expect(weekdayIndex('2026-11-23')).toBe(0); // a Monday
    expect(weekdayIndex('2026-11-29')).toBe(6); // a Sunday
    expect(mondayOf('2026-11-29')).toBe('2026-11-23');
    expect(weekDays('2026-11-23')).toEqual([
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
      '2026-11-29',
    ]);
  });

  test('months: shifting keeps the day, clamped to the shorter month', () => {
    expect(addMonths('2026-12', 1)).toBe('2027-01');
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(shiftMonthKeepDay('2026-01-31', 1)).toBe('2026-02-28');
    expect(shiftMonthKeepDay('2028-01-31', 1)).toBe('2028-02-29');
    expect(shiftMonthKeepDay('2026-03-15', -1)).toBe('2026-02-15');
  });

  test('a month calendar is six Monday-first weeks that contain the 1st', () => {
    const m = monthMatrix('2026-11');
    expect(m).toHaveLength(6);
    expect(m.every((w) => w.length === 7)).toBe(true);
    expect(m[0][0]).toBe('2026-10-26');
    expect(m.flat()).toContain('2026-11-01');
    expect(m.flat()).toContain('2026-11-30');
  });

  test("today is the browser's calendar date", () => {
    expect(today(new Date(2026, 10, 27, 23, 59))).toBe('2026-11-27');
  });

  test('an entry covers the days from its date to its end date', () => {
    const e = { date: '2026-11-27', endDate: '2026-11-29' };
    expect(covers(e, '2026-11-26')).toBe(false);
    expect(covers(e, '2026-11-27')).toBe(true);
    expect(covers(e, '2026-11-29')).toBe(true);
    expect(overlapsRange(e, '2026-11-29', '2026-12-05')).toBe(true);
    expect(overlapsRange(e, '2026-11-30', '2026-12-05')).toBe(false);
  });
});

describe('slot times (HH:mm)', () => {
  test('hhmm cuts seconds and turns nothing into an empty string', () => {
    expect(hhmm('09:30:00')).toBe('09:30');
    expect(hhmm(null)).toBe('');
  });

  test('minutes round-trip and wrap at 24 h', () => {
    expect(toMinutes('13:45')).toBe(825);
    expect(fromMinutes(825)).toBe('13:45');
    expect(fromMinutes(1440 + 30)).toBe('00:30');
    expect(fromMinutes(-15)).toBe('23:45');
  });

  test('96 slots of 15 minutes', () => {
    expect(TIME_SLOTS).toHaveLength(96);
    expect(TIME_SLOTS[0]).toBe('00:00');
    expect(TIME_SLOTS[95]).toBe('23:45');
  });

  test('one hour later wraps past midnight and says so', () => {
    expect(oneHourLater('09:00')).toEqual({ time: '10:00', wraps: false });
    expect(oneHourLater('22:59')).toEqual({ time: '23:59', wraps: false });
    expect(oneHourLater('23:30')).toEqual({ time: '00:30', wraps: true });
  });

  test('the next slot rounds up, an exact slot stays, midnight wraps', () => {
    expect(nextSlot(new Date(2026, 0, 1, 9, 0, 0, 0))).toBe('09:00');
    expect(nextSlot(new Date(2026, 0, 1, 9, 0, 1, 0))).toBe('09:15');
    expect(nextSlot(new Date(2026, 0, 1, 9, 14, 0, 0))).toBe('09:15');
    expect(nextSlot(new Date(2026, 0, 1, 23, 50, 0, 0))).toBe('00:00');
  });
});
