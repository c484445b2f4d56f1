import { z } from 'zod';
import { badInput } from './errors.js';

/**
 * Validates service input with a zod schema whose messages are Japanese; any problem becomes one
 * BAD_USER_INPUT error listing every field at fault, before anything is written.
 */
export function parseInput<S extends z.ZodTypeAny>(
  schema: S,
  data: unknown,
  message = '入力内容に誤りがあります。',
): z.infer<S> {
  const r = schema.safeParse(data, { error: japaneseFallback });
  if (r.success) return r.data;
  throw badInput(
    message,
    r.error.issues.map((i) => ({ field: i.path.join('.') || '_', message: i.message })),
  );
}

const zodJa = z.locales.ja().localeError;

/**
 * The message of a rule that has none of its own (every user-facing rule should: this is the net
 * that keeps zod's English out of the UI and the API). A missing value asks for it; anything else
 * gets zod's Japanese text.
 */
const japaneseFallback: z.core.$ZodErrorMap = (issue) => {
  if (issue.code === 'invalid_type' && (issue.input === undefined || issue.input === null)) return '入力してください。';
  return zodJa(issue);
};

/** How deeply a request's values may nest (JSON bodies, GraphQL variables): far beyond any real input. */
export const MAX_INPUT_DEPTH = 64;

/** C0 control characters other than tab and line breaks, and DEL: text no screen, export or import carries faithfully. */
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARACTER = /[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * What makes a request's values unusable before any service reads them: a NUL character in a
 * string (PostgreSQL text cannot hold one), another control character but tab and line breaks (an
 * export would drop it and a re-import would then rewrite the stored value: one rule for every text
 * field of every record kind, on every channel), or nesting deeper than MAX_INPUT_DEPTH. Walked
 * with a stack of its own, so no input can overflow the call stack.
 */
export function inputProblem(root: unknown): 'nul' | 'control' | 'depth' | null {
  const stack: [unknown, number][] = [[root, 0]];
  let control = false;
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return 'nul';
      control ||= CONTROL_CHARACTER.test(v);
    } else if (v && typeof v === 'object') {
      if (depth >= MAX_INPUT_DEPTH) return 'depth';
      for (const [k, child] of Object.entries(v)) {
        if (k.includes('\u0000')) return 'nul';
        control ||= CONTROL_CHARACTER.test(k);
        stack.push([child, depth + 1]);
      }
    }
  }
  return control ? 'control' : null;
}

/**
 * A calendar date written YYYY-MM-DD between `minYear` and `maxYear` (PostgreSQL has no year 0,
 * and JavaScript dates accept years PostgreSQL refuses).
 */
export function isCalendarDate(s: string, minYear = 1900, maxYear = 2999): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m || Number(m[1]) < minYear || Number(m[1]) > maxYear) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/**
 * A search term as sent is at most 100 characters (code points, as OpenAPI's maxLength counts them),
 * checked before it is trimmed or reduced to digits, so what the API documents is what it enforces.
 */
export function checkSearchText(value: string | null | undefined, field: string, label: string): void {
  if (value && value.length > 100 && [...value].length > 100)
    throw badInput(`${label}の検索語は100文字以内で入力してください。`, [{ field, message: '100文字以内' }]);
}

/** PostgreSQL's `integer`: the largest id, and the largest page offset, a request may name (beyond it SQL would fail, not answer). */
export const MAX_INT = 2_147_483_647;

/** A positive integer that fits an `integer` column: what every record id is. */
export const isDbId = (n: unknown): n is number =>
  typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= MAX_INT;

/** A record id from a path or an argument: a positive integer, else BAD_USER_INPUT naming the record (never a 500 from SQL). */
export function checkId(id: number, noun: string): void {
  if (!isDbId(id)) throw badInput(`${noun}IDが正しくありません。`, [{ field: 'id', message: '正の整数' }]);
}

/** An id in a path (its digits are checked by the router: rest.ts), as a number, or BAD_USER_INPUT naming the record. */
export function pathId(v: unknown, noun: string): number {
  const id = Number(v);
  checkId(id, noun);
  return id;
}

/** An id given as a query parameter (a filter): absent or '' → undefined; anything but a positive integer → BAD_USER_INPUT naming it. */
export function queryId(v: unknown, field: string): number | undefined {
  if (v === undefined || v === '') return undefined;
  const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : NaN;
  if (!isDbId(n)) throw badInput(`${field} が正しくありません。`, [{ field, message: '正の整数' }]);
  return n;
}

/** An optional id in a JSON body (null, '' or absent: none): a positive integer or its digits, else BAD_USER_INPUT naming the field. */
export function bodyId(v: unknown, field: string): number | null {
  if (v === null || v === undefined || v === '') return null;
  const id = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  if (!isDbId(id)) throw badInput(`${field} が正しくありません。`, [{ field, message: '正の整数' }]);
  return id;
}

/** An optional list of ids in a JSON body (null or absent: none given): an array of positive integers (at most 1,000), else BAD_USER_INPUT naming the field. */
export function bodyIds(v: unknown, field: string): number[] | null {
  if (v === null || v === undefined) return null;
  if (!Array.isArray(v) || v.length > 1000 || !v.every(isDbId))
    throw badInput(`${field} が正しくありません。`, [{ field, message: '正の整数の配列' }]);
  return v;
}

const TRUE = new Set(['true', '1', 'on']);
const FALSE = new Set(['false', '0', 'off']);

/** A yes/no query parameter: absent or '' → undefined; true/1/on or false/0/off; anything else → BAD_USER_INPUT naming it. */
export function queryBool(v: unknown, field: string): boolean | undefined {
  if (v === undefined || v === '') return undefined;
  if (typeof v === 'string' && TRUE.has(v.toLowerCase())) return true;
  if (typeof v === 'string' && FALSE.has(v.toLowerCase())) return false;
  throw badInput(`${field} は true か false で指定してください。`, [{ field, message: 'true / false（1 / 0）' }]);
}

/** Common field rules with Japanese messages. */
/** A type error's message: asking for the value when it is missing, naming the expected kind when it is of the wrong type. */
export const missingOr =
  (missing: string, wrongType: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined || issue.input === null ? missing : wrongType;

export const v = {
  text: (label: string, max: number) =>
    z
      .string({ error: missingOr(`${label}を入力してください。`, `${label}は文字列で入力してください。`) })
      .trim()
      .min(1, `${label}を入力してください。`)
      .max(max, `${label}は${max}文字以内で入力してください。`),
  optionalText: (label: string, max: number) =>
    z
      .string({ error: `${label}は文字列で入力してください。` })
      .trim()
      .max(max, `${label}は${max}文字以内で入力してください。`)
      .nullish()
      .transform((s) => (s ? s : null)),
  email: () =>
    z
      .string({ error: 'メールアドレスは文字列で入力してください。' })
      .trim()
      .max(254, 'メールアドレスは254文字以内で入力してください。')
      .refine((s) => s === '' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s), 'メールアドレスの形式が正しくありません。')
      .nullish()
      .transform((s) => (s ? s.toLowerCase() : null)),
  id: (label: string) =>
    z
      .number({ error: `${label}を選択してください。` })
      .int()
      .positive(`${label}が正しくありません。`)
      .max(MAX_INT, `${label}が正しくありません。`),
  optionalId: (label: string, error = `${label}が正しくありません。`) =>
    z
      .number({ error })
      .int(error)
      .positive(error)
      .max(MAX_INT, error)
      .nullish()
      .transform((n) => n ?? null),
  /** A list of record ids (members, guests). */
  ids: (error: string) => z.array(z.number({ error }).int(error).positive(error).max(MAX_INT, error), { error }),
  version: () => z.number({ error: '更新にはバージョン（version）が必要です。' }).int().min(1),
};
