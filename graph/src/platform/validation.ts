import { z } from 'zod';
import { badInput } from './errors.js';

/**
 * Validates service input with a zod schema whose messages are Japanese; any problem becomes one
 * BAD_USER_INPUT error listing every field at fault, before anything is written.
 */
export function parseInput<S extends z.ZodTypeAny>(schema: S, data: unknown, message = '入力内容に誤りがあります。'): z.infer<S> {
  const r = schema.safeParse(data);
  if (r.success) return r.data;
  throw badInput(
    message,
    r.error.issues.map((i) => ({ field: i.path.join('.') || '_', message: i.message })),
  );
}

/** A record id from a path or an argument: a positive integer, else BAD_USER_INPUT naming the record (never a 500 from SQL). */
export function checkId(id: number, noun: string): void {
  if (!Number.isInteger(id) || id < 1) throw badInput(`${noun}IDが正しくありません。`, [{ field: 'id', message: '正の整数' }]);
}

/** Common field rules with Japanese messages. */
export const v = {
  text: (label: string, max: number) =>
    z
      .string({ error: `${label}を入力してください。` })
      .trim()
      .min(1, `${label}を入力してください。`)
      .max(max, `${label}は${max}文字以内で入力してください。`),
  optionalText: (label: string, max: number) =>
    z
      .string()
      .trim()
      .max(max, `${label}は${max}文字以内で入力してください。`)
      .nullish()
      .transform((s) => (s ? s : null)),
  email: () =>
    z
      .string()
      .trim()
      .max(254, 'メールアドレスは254文字以内で入力してください。')
      .refine((s) => s === '' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s), 'メールアドレスの形式が正しくありません。')
      .nullish()
      .transform((s) => (s ? s.toLowerCase() : null)),
  id: (label: string) => z.number({ error: `${label}を選択してください。` }).int().positive(`${label}が正しくありません。`),
  optionalId: (label: string) => z.number().int().positive(`${label}が正しくありません。`).nullish().transform((n) => n ?? null),
  version: () => z.number({ error: '更新にはバージョン（version）が必要です。' }).int().min(1),
};
