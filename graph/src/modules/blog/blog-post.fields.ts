import { z } from 'zod';
import { badInput } from '../../platform/errors.js';
import type { BodyField } from '../../platform/rest.js';
import { isCalendarDate, v } from '../../platform/validation.js';

/** A date as the forms and `/api` send it: YYYY-MM-DD (YYYY/MM/DD, and a time after it, accepted; the time is dropped). */
const date = (label: string) =>
  z
    .string({ error: `${label}は YYYY-MM-DD の形式で入力してください。` })
    .trim()
    .transform((s) =>
      s
        .replace(/^(\d{4})\/(\d{2})\/(\d{2})/, '$1-$2-$3')
        .replace(/^(\d{4}-\d{2}-\d{2})[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/, '$1'),
    )
    .refine((s) => s === '' || isCalendarDate(s), `${label}は YYYY-MM-DD の形式で入力してください。`)
    .nullish()
    .transform((s) => (s ? s : null));

/** A yes/no field: GraphQL's booleans, and `/api`'s 1/0, "1"/"0", "true"/"false" as the old client sent them. */
const flag = (label: string, byDefault: boolean) =>
  z
    .union(
      [z.boolean(), z.literal(0), z.literal(1), z.literal('0'), z.literal('1'), z.literal('true'), z.literal('false')],
      {
        error: `${label}は true か false で指定してください。`,
      },
    )
    .nullish()
    .transform((b) => (b === null || b === undefined ? byDefault : b === true || b === 1 || b === '1' || b === 'true'));

const OPTIONS_MESSAGE = "options は 'comment' と 'like' のカンマ区切りで指定してください。";
const options = z.array(z.enum(['comment', 'like'], { error: OPTIONS_MESSAGE }), { error: OPTIONS_MESSAGE });

/** One flag of the spec's `options`, a comma list (or a list) that may hold 'comment' and 'like'; absent: the flag's default. */
const optionFlag = (pick: 'comment' | 'like') => (value: unknown) => {
  if (value === undefined || value === null) return undefined;
  const list =
    typeof value === 'string'
      ? value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : value;
  const r = options.safeParse(list);
  if (!r.success) throw badInput(OPTIONS_MESSAGE, [{ field: 'options', message: "'comment', 'like'" }]);
  return r.data.includes(pick);
};

/** The spec's `blog_tags`: comma-separated tag ids (or a list of them). */
function tagList(value: unknown): unknown {
  if (value === undefined || value === null || value === '') return [];
  if (typeof value === 'string') return value.split(',').map((s) => (/^\s*\d+\s*$/.test(s) ? Number(s) : s.trim()));
  return value;
}

/**
 * A blog post, field by field: its rule (GraphQL and `/api` alike, Japanese messages), its `/api`
 * name and how `/api` reads it, its GraphQL description. The service's input schema and the REST
 * body table are read off this table; `content` and the attachment have checks of their own
 * (lib/rich-text, lib/files).
 */
export const POST_FIELDS = {
  title: { rule: v.text('タイトル', 200), body: 'title', description: 'タイトル（200文字以内）' },
  categoryId: {
    rule: v.optionalId('カテゴリ'),
    body: {
      from: 'category_id',
      read: (x: unknown) => (x === '' ? null : typeof x === 'string' && /^\d+$/.test(x) ? Number(x) : x),
    },
    description: 'カテゴリID（下書き以外は必須。投稿できるカテゴリだけ）',
  },
  tagIds: {
    rule: v
      .ids('タグはタグIDの一覧で指定してください。')
      .max(20, 'タグは20個までです。')
      .nullish()
      .transform((ids) => [...new Set(ids ?? [])]),
    body: { from: 'blog_tags', read: tagList },
    description: 'タグID（20個まで）',
  },
  allowComments: {
    rule: flag('コメントの許可', true),
    body: { from: 'options', read: optionFlag('comment') },
    description: '閲覧者のコメントを許可する (options の comment)',
  },
  allowLikes: {
    rule: flag('いいねの許可', true),
    body: { from: 'options', read: optionFlag('like') },
    description: '閲覧者のいいねを許可する (options の like)',
  },
  publishStart: {
    rule: date('公開開始日'),
    body: 'publish_start_date',
    description: '公開開始日 YYYY-MM-DD（東京の暦日。省略すると今日）',
  },
  publishEnd: {
    rule: date('公開終了日'),
    body: {
      from: 'publish_end_date',
      read: (x: unknown, b: Record<string, unknown>) =>
        b.hasPublishEnd === false || b.hasPublishEnd === 0 || b.hasPublishEnd === '0' || b.hasPublishEnd === 'false'
          ? null
          : x,
    },
    description: '公開終了日 YYYY-MM-DD（この日まで公開。なしなら無期限）',
  },
  isPin: { rule: flag('ピン留め', false), body: 'is_pin', description: '速報としてピン留めする' },
  pinStart: {
    rule: date('ピン留め開始日'),
    body: 'pin_start_dt',
    description: 'ピン留め開始日 YYYY-MM-DD（ピン留めで省略すると今日）',
  },
  pinEnd: {
    rule: date('ピン留め終了日'),
    body: 'pin_end_dt',
    description: 'ピン留め終了日 YYYY-MM-DD（この日まで。省略すると開始日の7日後）',
  },
  isDraft: {
    rule: flag('下書き', false),
    body: 'is_draft',
    description: '下書きとして保存する（作成者だけが見える。カテゴリは未選択でもよい）',
  },
  requireConfirmation: {
    rule: flag('確認依頼', false),
    body: 'require_confirmation',
    description: '必読: 閲覧者に「確認しました」を求める（速報＝ピン留めの投稿だけ。オンにすると閲覧者に通知が届く）',
  },
} as const satisfies Record<string, { rule: z.ZodType; body: BodyField; description: string }>;

/**
 * The post's fields with their cross-field rules; `content` is checked by lib/rich-text after this,
 * and the publish window once the start's default (today) is known (the service).
 */
export const postSchema = z
  .object({
    title: POST_FIELDS.title.rule,
    categoryId: POST_FIELDS.categoryId.rule,
    tagIds: POST_FIELDS.tagIds.rule,
    allowComments: POST_FIELDS.allowComments.rule,
    allowLikes: POST_FIELDS.allowLikes.rule,
    publishStart: POST_FIELDS.publishStart.rule,
    publishEnd: POST_FIELDS.publishEnd.rule,
    isPin: POST_FIELDS.isPin.rule,
    pinStart: POST_FIELDS.pinStart.rule,
    pinEnd: POST_FIELDS.pinEnd.rule,
    isDraft: POST_FIELDS.isDraft.rule,
    requireConfirmation: POST_FIELDS.requireConfirmation.rule,
  })
  .superRefine((d, ctx) => {
    if (!d.isDraft && d.categoryId === null)
      ctx.addIssue({ code: 'custom', path: ['categoryId'], message: 'カテゴリを選択してください。' });
    if (d.requireConfirmation && !d.isPin) {
      ctx.addIssue({
        code: 'custom',
        path: ['requireConfirmation'],
        message: '確認依頼（必読）は速報（ピン留め）の投稿だけに設定できます。',
      });
    }
    if (d.isPin && d.pinStart && d.pinEnd && d.pinEnd < d.pinStart)
      ctx.addIssue({ code: 'custom', path: ['pinEnd'], message: 'ピン留め終了日は開始日以降の日付にしてください。' });
  });
export type PostData = z.infer<typeof postSchema>;
