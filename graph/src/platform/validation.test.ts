import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { AppError } from './errors.js';
import { parseInput, v } from './validation.js';

const fieldErrorsOf = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return (err as AppError).extensions.fieldErrors as { field: string; message: string }[];
  }
  throw new Error('expected a refusal');
};

describe('parseInput', () => {
  it('keeps zod English out of field errors: a rule without its own message gets Japanese', () => {
    const schema = z.object({ code: z.string(), count: z.number().int().max(3), tags: z.array(z.string()) });
    const errors = fieldErrorsOf(() => parseInput(schema, { count: 'x', tags: 'a' }));
    expect(errors.map((e) => e.field).sort()).toEqual(['code', 'count', 'tags']);
    expect(errors.find((e) => e.field === 'code')!.message).toBe('入力してください。');
    for (const e of errors) expect(e.message).not.toMatch(/expected|received|Invalid/i);
    expect(fieldErrorsOf(() => parseInput(schema, { code: 'a', count: 9, tags: [] }))[0]!.message).toMatch(
      /[ぁ-んァ-ン一-龥]/,
    );
  });

  it('a text field of the wrong type is told so, not asked for', () => {
    const schema = z.object({ name: v.text('氏名', 100), note: v.optionalText('備考', 10), email: v.email() });
    const byField = (data: unknown) =>
      Object.fromEntries(fieldErrorsOf(() => parseInput(schema, data)).map((e) => [e.field, e.message]));
    expect(byField({ name: 123, note: 4, email: 5 })).toEqual({
      name: '氏名は文字列で入力してください。',
      note: '備考は文字列で入力してください。',
      email: 'メールアドレスは文字列で入力してください。',
    });
    expect(byField({})).toEqual({ name: '氏名を入力してください。' });
  });

  it('a rule with its own message keeps it', () => {
    const schema = z.object({
      name: z.string({ error: '氏名を入力してください。' }).min(1, '氏名を入力してください。'),
    });
    expect(fieldErrorsOf(() => parseInput(schema, {}))).toEqual([
      { field: 'name', message: '氏名を入力してください。' },
    ]);
  });
});
