/**
 * The company's calendar: dates are Asia/Tokyo calendar dates (YYYY-MM-DD), UTC+9 all year (Japan
 * keeps no daylight saving time). The one definition that the server, the web app, the benchmarks
 * and the tests import.
 */
const OFFSET_MS = 9 * 3_600_000;
const DAY_MS = 86_400_000;

/** Today in Tokyo, YYYY-MM-DD. */
export const tokyoToday = (now: Date = new Date()): string =>
  new Date(now.getTime() + OFFSET_MS).toISOString().slice(0, 10);

/** A calendar date plus (or minus) whole days: a date is a date, no time zone involved. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Milliseconds from `now` to the next `HH:MM` on Tokyo's clock (a daily job's next run). */
export function msUntilTokyoTime(hhmm: string, now: Date = new Date()): number {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  const today = new Date(`${tokyoToday(now)}T00:00:00Z`).getTime() - OFFSET_MS;
  let at = today + (h * 60 + m) * 60_000;
  if (at <= now.getTime()) at += DAY_MS;
  return at - now.getTime();
}

/** Whole seconds until the next midnight in Tokyo (at least 1): when a once-a-day allowance renews. */
export function secondsToTokyoMidnight(now: Date = new Date()): number {
  return Math.max(1, Math.ceil((DAY_MS - ((now.getTime() + OFFSET_MS) % DAY_MS)) / 1000));
}
