import { addDays } from '@intranet/schema/calendar/tokyo';
import { z } from 'zod';
import { isCalendarDate, v } from '../../platform/validation.js';
import { ScheduleType } from './schedule.enums.js';

/** Time slots are 15 minutes; the default length is one hour; the week starts on Monday. */
export const SLOT_MINUTES = 15;

/** A schedule date: YYYY-MM-DD in the years 1900–2999. */
export const isValidDate = (s: string): boolean => isCalendarDate(s);

/** 'H:mm', 'HH:mm' or 'HH:mm:ss' on a 15-minute step → 'HH:mm:ss'; anything else → null. */
export function normalizeTime(t: string): string | null {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(t.trim());
  if (!m) return null;
  const [h, min, sec] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  if (h > 23 || min > 59 || sec !== 0 || min % SLOT_MINUTES !== 0) return null;
  return `${String(h).padStart(2, '0')}:${String(min).padStart(2, '0')}:00`;
}

/** One hour after `t`, wrapping at 24 (23:30 → 00:30): the end a new start time suggests. */
export function oneHourLater(t: string): string {
  const [h, m] = t.split(':').map(Number);
  return `${String((h + 1) % 24).padStart(2, '0')}:${String(m).padStart(2, '0')}:00`;
}

export { addDays };

/** Monday of the week of `date`. */
export function mondayOf(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  return addDays(date, -((d.getUTCDay() + 6) % 7));
}

/** "MM月DD日 〜 MM月DD日" */
export function weekLabel(start: string, end: string): string {
  const f = (s: string) => `${s.slice(5, 7)}月${s.slice(8, 10)}日`;
  return `${f(start)} 〜 ${f(end)}`;
}

const dateField = (label: string) =>
  z
    .string({ error: `${label}を入力してください。` })
    .refine(isValidDate, `${label}は YYYY-MM-DD の形式で入力してください。`);
const timeField = (label: string) =>
  z
    .string()
    .nullish()
    .transform((t, ctx) => {
      if (t === null || t === undefined || t === '') return null;
      const n = normalizeTime(t);
      if (!n) ctx.addIssue({ code: 'custom', message: `${label}は15分単位（例 09:15）で入力してください。` });
      return n;
    });
const email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'ゲストのメールアドレスの形式が正しくありません。');

export const scheduleInputSchema = z
  .object({
    title: v.text('タイトル', 200),
    date: dateField('日付'),
    endDate: dateField('終了日').nullish(),
    isAllDay: z.boolean().default(false),
    startTime: timeField('開始時刻'),
    endTime: timeField('終了時刻'),
    type: z.enum(ScheduleType, { error: '種類を選択してください。' }).default(ScheduleType.TASK),
    meetLink: z.string().trim().max(500, 'ミーティングURLは500文字以内で入力してください。').nullish(),
    description: v.optionalText('説明', 5000),
    syncGoogle: z.boolean().default(true),
    isPrivate: z.boolean().default(false),
    guestIds: v.ids('ゲストは社員IDの一覧で指定してください。').max(200, 'ゲストは200人までです。').default([]),
    // Extra guests: trimmed, blank rows dropped, de-duplicated.
    externalGuests: z
      .array(z.string())
      .default([])
      .transform((rows) => [...new Set(rows.map((r) => r.trim().toLowerCase()).filter(Boolean))])
      .pipe(z.array(email).max(50, '外部ゲストは50人までです。')),
  })
  .transform((s, ctx) => {
    const endDate = s.endDate ?? s.date;
    if (endDate < s.date)
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: '終了日は開始日以降にしてください。' });
    let { startTime, endTime } = s;
    if (s.isAllDay) {
      startTime = null; // all-day entries carry no times
      endTime = null;
    } else {
      if (!startTime) ctx.addIssue({ code: 'custom', path: ['startTime'], message: '開始時刻を選択してください。' });
      if (!endTime) ctx.addIssue({ code: 'custom', path: ['endTime'], message: '終了時刻を選択してください。' });
      if (startTime && endTime && endDate === s.date && endTime <= startTime) {
        ctx.addIssue({
          code: 'custom',
          path: ['endTime'],
          message: '終了時刻は開始時刻より後にしてください（日をまたぐ場合は終了日を翌日にしてください）。',
        });
      }
    }
    let meetLink = s.meetLink || null;
    if (s.type !== ScheduleType.REMOTE)
      meetLink = null; // the meet link belongs to remote entries only
    else if (meetLink && !/^https?:\/\/\S+$/.test(meetLink)) {
      ctx.addIssue({
        code: 'custom',
        path: ['meetLink'],
        message: 'ミーティングURLは http(s):// で始まるURLにしてください。',
      });
    }
    if (s.isPrivate && (s.guestIds.length || s.externalGuests.length)) {
      ctx.addIssue({ code: 'custom', path: ['isPrivate'], message: '非公開の予定にはゲストを招待できません。' });
    }
    return { ...s, endDate, startTime, endTime, meetLink, guestIds: [...new Set(s.guestIds)] };
  });

export type ScheduleInputData = z.infer<typeof scheduleInputSchema>;
