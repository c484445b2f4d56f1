import { addDays } from '@intranet/schema/calendar/tokyo';
/**
 * Calendar arithmetic on plain 'YYYY-MM-DD' strings (the company's calendar; no time zones) and
 * 'HH:mm' slot times. The week starts on Monday; slots are 15 minutes; the default length is 1 h.
 */

export const SLOT_MINUTES = 15;
export const DEFAULT_LENGTH_MINUTES = 60;

const pad = (n: number) => String(n).padStart(2, '0');

export function toIsoDate(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Today in the browser's calendar. */
export function today(now = new Date()): string {
  return toIsoDate(now);
}

function parse(date: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d));
}

export { addDays };

/** Whole days from a to b. */
export function daysBetween(a: string, b: string): number {
  return Math.round((parse(b).getTime() - parse(a).getTime()) / 86_400_000);
}

/** 0 = Monday … 6 = Sunday. */
export function weekdayIndex(date: string): number {
  return (parse(date).getUTCDay() + 6) % 7;
}

export function mondayOf(date: string): string {
  return addDays(date, -weekdayIndex(date));
}

export function weekDays(monday: string): string[] {
  return Array.from({ length: 7 }, (_, i) => addDays(monday, i));
}

/** 'YYYY-MM' of a date. */
export function monthOf(date: string): string {
  return date.slice(0, 7);
}

export function firstOfMonth(month: string): string {
  return `${month}-01`;
}

export function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number);
  const d = new Date(Date.UTC(y, m - 1 + n, 1));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`;
}

/** The same day of another month, clamped to that month's length. */
export function shiftMonthKeepDay(date: string, n: number): string {
  const month = addMonths(monthOf(date), n);
  const lastDay = daysBetween(firstOfMonth(month), firstOfMonth(addMonths(month, 1)));
  return `${month}-${pad(Math.min(Number(date.slice(8, 10)), lastDay))}`;
}

/** The six Monday-first weeks a month calendar shows (42 days). */
export function monthMatrix(month: string): string[][] {
  const start = mondayOf(firstOfMonth(month));
  return Array.from({ length: 6 }, (_, w) => Array.from({ length: 7 }, (_, d) => addDays(start, w * 7 + d)));
}

export const dayOfMonth = (date: string) => Number(date.slice(8, 10));
export const monthNumber = (date: string) => Number(date.slice(5, 7));
export const yearNumber = (date: string) => Number(date.slice(0, 4));

/** 'HH:mm' (from 'HH:mm' or 'HH:mm:ss'). */
export function hhmm(time: string | null | undefined): string {
  return time ? time.slice(0, 5) : '';
}

export function toMinutes(time: string): number {
  const [h, m] = time.split(':').map(Number);
  return h * 60 + m;
}

export function fromMinutes(min: number): string {
  const m = ((min % 1440) + 1440) % 1440;
  return `${pad(Math.floor(m / 60))}:${pad(m % 60)}`;
}

/** 00:00, 00:15, … 23:45. */
export const TIME_SLOTS: readonly string[] = Array.from({ length: (24 * 60) / SLOT_MINUTES }, (_, i) =>
  fromMinutes(i * SLOT_MINUTES),
);

/**
 * The end a new start suggests: one hour later, wrapping at 24. `wraps` tells that the end falls
 * on the next day (23:30 → 00:30).
 */
export function oneHourLater(start: string): { time: string; wraps: boolean } {
  const end = toMinutes(start) + DEFAULT_LENGTH_MINUTES;
  return { time: fromMinutes(end), wraps: end >= 1440 };
}

/** The current time rounded up to the next 15-minute slot ('HH:mm', wrapping to 00:00 at midnight). */
export function nextSlot(now = new Date()): string {
  const min = now.getHours() * 60 + now.getMinutes() + (now.getSeconds() > 0 || now.getMilliseconds() > 0 ? 1 : 0);
  return fromMinutes(Math.ceil(min / SLOT_MINUTES) * SLOT_MINUTES);
}

/** Does an entry spanning [from, to] touch the day? */
export function covers(entry: { date: string; endDate: string }, day: string): boolean {
  return entry.date <= day && entry.endDate >= day;
}

export function overlapsRange(entry: { date: string; endDate: string }, from: string, to: string): boolean {
  return entry.date <= to && entry.endDate >= from;
}
