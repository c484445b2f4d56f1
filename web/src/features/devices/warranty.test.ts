import { describe, expect, it } from 'vitest';
import { tokyoToday, warrantyState, WARRANTY_SOON_DAYS } from './warranty';

describe('warrantyState (the computers list row flag)', () => {
  const today = '2026-11-27';
  it('is expired after the date, soon from today to WARRANTY_SOON_DAYS ahead, and nothing beyond or without a date', () => {
    expect(WARRANTY_SOON_DAYS).toBe(30);
    expect(
      ['2026-11-26', '2026-11-27', '2026-12-27', '2026-12-28', null, undefined, ''].map((d) => warrantyState(d, today)),
    ).toEqual(['expired', 'soon', 'soon', null, null, null, null]);
  });

  it('counts today in Asia/Tokyo: 20:00 UTC is already the next day there', () => {
    expect(tokyoToday(new Date('2026-11-26T20:00:00Z'))).toBe('2026-11-27');
    expect(tokyoToday(new Date('2026-11-26T14:59:00Z'))).toBe('2026-11-26');
  });
});
