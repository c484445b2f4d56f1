import { addDays, tokyoToday } from '@intranet/schema/calendar/tokyo';
/** Days before 保証期限 from which a computer's row says 保証期限間近 (the list filter offers the same span first). */
export const WARRANTY_SOON_DAYS = 30;

/** The spans the list's 保証期限 filter offers: 「保証期限が N 日以内」 (from today; an expired warranty is not within). */
export const WARRANTY_FILTER_DAYS = [WARRANTY_SOON_DAYS, 60, 90, 180, 365] as const;

/** Today as the company counts it (Asia/Tokyo, as the server's filter does), YYYY-MM-DD. */
export { tokyoToday };

/** A computer's row flag: 'expired' once 保証期限 has passed, 'soon' within WARRANTY_SOON_DAYS of it, else null (none without a date). */
export function warrantyState(until: string | null | undefined, today = tokyoToday()): 'expired' | 'soon' | null {
  if (!until) return null;
  if (until < today) return 'expired';
  return until <= addDays(today, WARRANTY_SOON_DAYS) ? 'soon' : null;
}
