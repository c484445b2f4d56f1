import type { MessageKey, Translate } from '../../app/i18n';
import type { GuestResponse, ScheduleType } from '../../gql/graphql';
import { dayOfMonth, hhmm, monthNumber, weekdayIndex, yearNumber } from './dates';

const pad = (n: number) => String(n).padStart(2, '0');

const WEEKDAY_KEYS = [
  'schedules.weekday.mon',
  'schedules.weekday.tue',
  'schedules.weekday.wed',
  'schedules.weekday.thu',
  'schedules.weekday.fri',
  'schedules.weekday.sat',
  'schedules.weekday.sun',
] as const satisfies readonly MessageKey[];

const MONTH_KEYS = [
  'schedules.month.1',
  'schedules.month.2',
  'schedules.month.3',
  'schedules.month.4',
  'schedules.month.5',
  'schedules.month.6',
  'schedules.month.7',
  'schedules.month.8',
  'schedules.month.9',
  'schedules.month.10',
  'schedules.month.11',
  'schedules.month.12',
] as const satisfies readonly MessageKey[];

export const weekdayName = (t: Translate, i: number) => t(WEEKDAY_KEYS[i]);
export const monthName = (t: Translate, m: number) => t(MONTH_KEYS[m - 1]);

function parts(t: Translate, date: string) {
  return {
    year: yearNumber(date),
    month: monthNumber(date),
    mm: pad(monthNumber(date)),
    day: dayOfMonth(date),
    dd: pad(dayOfMonth(date)),
    monthName: monthName(t, monthNumber(date)),
    weekday: weekdayName(t, weekdayIndex(date)),
  };
}

/** "2025年1月" / "January 2025" */
export const formatMonthTitle = (t: Translate, month: string) => t('schedules.fmt.month', parts(t, `${month}-01`));
/** "2025年1月15日（水）" */
export const formatFullDate = (t: Translate, date: string) => t('schedules.fmt.fullDate', parts(t, date));
/** "1月15日（水）" */
export const formatDayWithWeekday = (t: Translate, date: string) => t('schedules.fmt.day', parts(t, date));
/** "01月13日 〜 01月19日" */
export const formatWeekLabel = (t: Translate, from: string, to: string) =>
  t('schedules.fmt.week', {
    from: t('schedules.fmt.weekEnd', parts(t, from)),
    to: t('schedules.fmt.weekEnd', parts(t, to)),
  });

/** "09:30–10:30", "終日", or a range over days. */
export function formatTimeRange(
  t: Translate,
  e: { date: string; endDate: string; isAllDay: boolean; startTime?: string | null; endTime?: string | null },
  day?: string,
): string {
  if (e.isAllDay) return t('schedules.allDay');
  const multi = e.date !== e.endDate;
  if (!multi || !day) return t('schedules.fmt.timeRange', { start: hhmm(e.startTime), end: hhmm(e.endTime) });
  // A timed entry that crosses midnight: on its first day it runs on, on its last it started earlier.
  if (day === e.date) return t('schedules.fmt.timeFrom', { start: hhmm(e.startTime) });
  if (day === e.endDate) return t('schedules.fmt.timeUntil', { end: hhmm(e.endTime) });
  return t('schedules.allDay');
}

export const typeLabel = (t: Translate, type: ScheduleType | null | undefined) =>
  type === 'REMOTE'
    ? t('schedules.type.remote')
    : type === 'APPOINTMENT'
      ? t('schedules.type.appointment')
      : t('schedules.type.task');

export const responseLabel = (t: Translate, r: GuestResponse | null | undefined) =>
  r === 'ACCEPTED'
    ? t('schedules.response.accepted')
    : r === 'DECLINED'
      ? t('schedules.response.declined')
      : t('schedules.response.pending');
