import { describe, expect, it } from 'vitest';
import { addDays, msUntilTokyoTime, secondsToTokyoMidnight, tokyoToday } from './tokyo.js';

describe('the Tokyo calendar', () => {
  it("today is Tokyo's date: 15:00 UTC is already tomorrow there", () => {
    expect(tokyoToday(new Date('2026-12-06T14:59:59Z'))).toBe('2026-12-06');
    expect(tokyoToday(new Date('2026-12-06T15:00:00Z'))).toBe('2026-12-07');
  });
  it('adds days across months, years and a leap day', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
  });
  it('plans the next HH:MM on Tokyo time', () => {
    expect(msUntilTokyoTime('02:00', new Date('2026-12-05T16:30:00Z'))).toBe(30 * 60_000); // 01:30 in Tokyo
    expect(msUntilTokyoTime('02:00', new Date('2026-12-05T17:01:00Z'))).toBe(86_400_000 - 60_000);
    expect(msUntilTokyoTime('23:30', new Date('2026-12-06T14:00:00Z'))).toBe(30 * 60_000);
  });
  it('counts the seconds to Tokyo midnight', () => {
    expect(secondsToTokyoMidnight(new Date('2026-12-06T14:59:00Z'))).toBe(60);
    expect(secondsToTokyoMidnight(new Date('2026-12-06T15:00:00Z'))).toBe(86_400);
  });
});
