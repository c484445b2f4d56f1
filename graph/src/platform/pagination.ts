import { ArgsType, Field, Int } from 'type-graphql';
import { badInput } from './errors.js';
import { MAX_INT } from './validation.js';

export const MAX_PAGE_SIZE = 200;

@ArgsType()
export class PageArgs {
  @Field(() => Int, { defaultValue: 0 })
  offset: number = 0;

  @Field(() => Int, { defaultValue: 50, description: `1〜${MAX_PAGE_SIZE}` })
  limit: number = 50;
}

export function checkPage(offset: unknown, limit: unknown): { offset: number; limit: number } {
  const o = offset === undefined || offset === null || offset === '' ? 0 : Number(offset);
  const l = limit === undefined || limit === null || limit === '' ? 50 : Number(limit);
  const errors = [];
  if (!Number.isInteger(o) || o < 0 || o > MAX_INT)
    errors.push({ field: 'offset', message: `offset は 0〜${MAX_INT} の整数で指定してください。` });
  if (!Number.isInteger(l) || l < 1 || l > MAX_PAGE_SIZE)
    errors.push({ field: 'limit', message: `limit は 1〜${MAX_PAGE_SIZE} の整数で指定してください。` });
  if (errors.length) throw badInput('ページ指定が正しくありません。', errors);
  return { offset: o, limit: l };
}

/** A cursor-paged list's `limit`: absent → `fallback`; otherwise an integer 1..`max`, or BAD_USER_INPUT naming it. */
export function checkLimit(limit: unknown, fallback: number, max: number): number {
  if (limit === undefined || limit === null || limit === '') return fallback;
  const l = Number(limit);
  if (typeof limit === 'boolean' || !Number.isInteger(l) || l < 1 || l > max) {
    throw badInput('ページ指定が正しくありません。', [
      { field: 'limit', message: `limit は 1〜${max} の整数で指定してください。` },
    ]);
  }
  return l;
}
