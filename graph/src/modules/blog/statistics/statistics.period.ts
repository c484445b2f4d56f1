import { addDays, tokyoToday } from '@intranet/schema/calendar/tokyo';
import { badInput } from '../../../platform/errors.js';

/** A statistics period: Tokyo calendar dates, both ends included. */
export interface StatisticsPeriod {
  mode: 'MONTH' | 'RANGE';
  start: string;
  end: string;
}

/** What a caller may give: a month (`year` and `month`), or `startDate` and `endDate`; nothing is this month. */
export interface PeriodInput {
  year?: unknown;
  month?: unknown;
  startDate?: unknown;
  endDate?: unknown;
}

/** The longest period one report covers. */
export const MAX_PERIOD_YEARS = 5;

export const PERIOD_MESSAGES = {
  missingEnd: '開始日と終了日を入力してください',
  badDate: '日付はYYYY-MM-DDの形式で、存在する日付を入力してください',
  reversed: '終了日は開始日以降の日付にしてください',
  tooLong: `期間は${MAX_PERIOD_YEARS}年以内で指定してください`,
  badMonth: '年と月を正しく指定してください（月は1〜12）',
  both: '年月と期間（開始日・終了日）はどちらか一方だけを指定してください',
} as const;

/** Present in the request: an empty value counts as given (and is then refused), so `?start_date=` never means "this month". */
const given = (v: unknown) => v !== undefined && v !== null;
const blank = (v: unknown) => !given(v) || v === '';

function checkDate(v: unknown, field: string): string {
  const s = String(v);
  const ok = /^\d{4}-\d{2}-\d{2}$/.test(s) && new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s;
  if (!ok) throw badInput(PERIOD_MESSAGES.badDate, [{ field, message: 'YYYY-MM-DD' }]);
  return s;
}

function wholeNumber(v: unknown, field: string, min: number, max: number): number {
  const n = typeof v === 'number' ? v : /^\d+$/.test(String(v)) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < min || n > max)
    throw badInput(PERIOD_MESSAGES.badMonth, [{ field, message: `${min}〜${max}` }]);
  return n;
}

const lastDayOf = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
const pad = (n: number) => String(n).padStart(2, '0');

export function monthPeriod(year: number, month: number): StatisticsPeriod {
  return {
    mode: 'MONTH',
    start: `${year}-${pad(month)}-01`,
    end: `${year}-${pad(month)}-${pad(lastDayOf(year, month))}`,
  };
}

/**
 * The period a request asks for. A missing end, a reversed range, a range over five years, a
 * non-existent date or month, or both forms at once are BAD_USER_INPUT with the Japanese message.
 */
export function parsePeriod(input: PeriodInput, today = tokyoToday()): StatisticsPeriod {
  const range = given(input.startDate) || given(input.endDate);
  const month = given(input.year) || given(input.month);
  if (range && month) throw badInput(PERIOD_MESSAGES.both, [{ field: 'year', message: PERIOD_MESSAGES.both }]);
  if (range) {
    if (blank(input.startDate) || blank(input.endDate)) {
      const field = blank(input.startDate) ? 'startDate' : 'endDate';
      throw badInput(PERIOD_MESSAGES.missingEnd, [{ field, message: PERIOD_MESSAGES.missingEnd }]);
    }
    const start = checkDate(input.startDate, 'startDate');
    const end = checkDate(input.endDate, 'endDate');
    if (end < start)
      throw badInput(PERIOD_MESSAGES.reversed, [{ field: 'endDate', message: PERIOD_MESSAGES.reversed }]);
    const limit = `${Number(start.slice(0, 4)) + MAX_PERIOD_YEARS}${start.slice(4)}`;
    if (end >= limit) throw badInput(PERIOD_MESSAGES.tooLong, [{ field: 'endDate', message: PERIOD_MESSAGES.tooLong }]);
    return { mode: 'RANGE', start, end };
  }
  if (month) {
    if (!given(input.year) || !given(input.month))
      throw badInput(PERIOD_MESSAGES.badMonth, [{ field: given(input.year) ? 'month' : 'year', message: '年と月' }]);
    return monthPeriod(wholeNumber(input.year, 'year', 2000, 2100), wholeNumber(input.month, 'month', 1, 12));
  }
  return monthPeriod(Number(today.slice(0, 4)), Number(today.slice(5, 7)));
}

/** Days from `start` to `end`, both included. */
export const daysIn = (p: Pick<StatisticsPeriod, 'start' | 'end'>) =>
  Math.round((Date.parse(p.end) - Date.parse(p.start)) / 86_400_000) + 1;

/** The period just before, to compare with: the month before, or a range as long ending the day before. */
export function previousPeriod(p: StatisticsPeriod): StatisticsPeriod {
  if (p.mode === 'MONTH') {
    const y = Number(p.start.slice(0, 4));
    const m = Number(p.start.slice(5, 7));
    return m === 1 ? monthPeriod(y - 1, 12) : monthPeriod(y, m - 1);
  }
  const end = addDays(p.start, -1);
  return { mode: 'RANGE', start: addDays(end, -(daysIn(p) - 1)), end };
}

/** The charts' step: days up to two months, months beyond. */
export const seriesStep = (p: StatisticsPeriod): 'DAY' | 'MONTH' => (daysIn(p) <= 62 ? 'DAY' : 'MONTH');
