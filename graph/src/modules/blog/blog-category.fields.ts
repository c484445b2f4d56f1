import { z } from 'zod';
import type { BodyField } from '../../platform/rest.js';
import { badInput } from '../../platform/errors.js';
import { v } from '../../platform/validation.js';
import { BlogCategoryPermission, PERMISSION_LABEL } from './blog.enums.js';

/** A list that `/api` may send as a list or as JSON text of one (the old client sent both). */
export function listOrJson(field: string, what: string) {
  return (value: unknown): unknown => {
    if (typeof value !== 'string') return value ?? [];
    if (value.trim() === '') return [];
    try {
      return JSON.parse(value);
    } catch {
      throw badInput(`${what}の形式が正しくありません。`, [
        { field, message: `${what}の配列（またはその JSON 文字列）` },
      ]);
    }
  };
}

const permissionOf = (p: unknown) =>
  (Object.keys(PERMISSION_LABEL) as BlogCategoryPermission[]).find((k) => k === p || PERMISSION_LABEL[k] === p) ?? p;

const PERMISSIONS_MESSAGE = '権限は「書き込み」か「閲覧」から選択してください。';

/**
 * A blog category, field by field: its rule (the form, GraphQL and `/api` alike, Japanese
 * messages), its `/api` name(s) and how `/api` reads it, its GraphQL description. The service's
 * input schema and the REST body table are read off this table.
 */
export const CATEGORY_FIELDS = {
  name: {
    label: 'カテゴリ名',
    rule: v.text('カテゴリ名', 100),
    body: { from: ['category_name', 'name'] },
    description: 'カテゴリ名 (category_name)',
  },
  color: {
    label: '色',
    rule: z
      .string({ error: '色は #RRGGBB の形式で入力してください。' })
      .trim()
      .regex(/^#[0-9a-fA-F]{6}$/, '色は #RRGGBB の形式で入力してください。')
      .nullish()
      .transform((c) => (c ? c.toLowerCase() : '#000000')),
    body: 'color',
    description: '色 #rrggbb（既定 #000000）',
  },
  permissions: {
    label: '権限',
    rule: z
      .array(z.enum(BlogCategoryPermission, { error: PERMISSIONS_MESSAGE }), { error: PERMISSIONS_MESSAGE })
      .min(1, '権限を1つ以上選択してください。')
      .transform((ps) => [...new Set(ps)]),
    body: {
      from: 'permissions',
      read: (value: unknown) => {
        const list = listOrJson('permissions', '権限')(value);
        return Array.isArray(list) ? list.map(permissionOf) : list;
      },
    },
    description:
      '権限（書き込み / 閲覧）。書き込みがあればメンバーも投稿でき、閲覧だけなら投稿は管理者・システム管理者だけ。',
  },
  employeeIds: {
    label: '閲覧できる社員',
    rule: v
      .ids('閲覧できる社員は社員IDの一覧で指定してください。')
      .max(5000)
      .transform((ids) => [...new Set(ids)]),
    body: { from: 'employees', read: listOrJson('employees', '社員') },
    description: '閲覧できる社員の社員ID（個別に指定した人）',
  },
  departmentIds: {
    label: '閲覧できる部署',
    rule: v
      .ids('閲覧できる部署は部署IDの一覧で指定してください。')
      .max(500)
      .transform((ids) => [...new Set(ids)]),
    body: { from: 'departments', read: listOrJson('departments', '部署') },
    description: '閲覧できる部署の部署ID（その部署の今のメンバー全員が見られる）',
  },
} as const satisfies Record<string, { label: string; rule: z.ZodType; body: BodyField; description: string }>;

export type CategoryKey = keyof typeof CATEGORY_FIELDS;

export const categoryCreateSchema = z.object({
  name: CATEGORY_FIELDS.name.rule,
  color: CATEGORY_FIELDS.color.rule,
  permissions: CATEGORY_FIELDS.permissions.rule,
  employeeIds: CATEGORY_FIELDS.employeeIds.rule,
  departmentIds: CATEGORY_FIELDS.departmentIds.rule,
});
export const categoryUpdateSchema = categoryCreateSchema.extend({ version: v.version() });
export type CategoryData = z.infer<typeof categoryCreateSchema>;
