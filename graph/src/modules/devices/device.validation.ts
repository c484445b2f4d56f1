import { z } from 'zod';
import { v } from '../../platform/validation.js';
import { DEVICE_STATUS_LABEL, type DeviceStatus } from './device.enums.js';

/** An optional reference by id (employee, location, department, Office account). */
export const ref = (label: string) => v.optionalId(label, `${label}の指定が正しくありません。`);

/** An optional calendar date, YYYY-MM-DD (YYYY/MM/DD accepted, as the smartphone screen shows it). */
export const date = (label: string) =>
  z
    .string({ error: `${label}は YYYY-MM-DD の形式で入力してください。` })
    .trim()
    .nullish()
    .transform((s, ctx) => {
      if (!s) return null;
      const m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(s);
      const iso = m ? `${m[1]}-${m[2].padStart(2, '0')}-${m[3].padStart(2, '0')}` : '';
      const d = new Date(`${iso}T00:00:00Z`);
      if (
        !m ||
        Number.isNaN(d.getTime()) ||
        d.toISOString().slice(0, 10) !== iso ||
        d.getUTCFullYear() < 1990 ||
        d.getUTCFullYear() > 2100
      ) {
        ctx.addIssue({ code: 'custom', message: `${label}は正しい日付（YYYY-MM-DD）で入力してください。` });
        return z.NEVER;
      }
      return iso;
    });

export const status = (statuses: readonly DeviceStatus[]) =>
  z.enum(statuses as [DeviceStatus, ...DeviceStatus[]], {
    error: `状態は ${statuses.map((s) => DEVICE_STATUS_LABEL[s]).join('・')} から選んでください。`,
  });

export const text = v.text;
export const optionalText = v.optionalText;

/** Optional text where leaving the field out (undefined) means "keep what is stored"; '' or null clears it. */
export const keptText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label}は${max}文字以内で入力してください。`)
    .nullish()
    .transform((s) => (s === undefined ? undefined : s || null));
export const version = v.version;
