import { registerEnumType } from 'type-graphql';
import { z } from 'zod';
import { AppError, badInput, type FieldError } from '../../platform/errors.js';
import {
  htmlToDocument,
  parseDocument,
  renderHtml,
  RichTextError,
  toPlainText,
  type RichTextDocument,
} from '../../lib/rich-text/index.js';

/** Who sees a personal field (address, phone): everyone, the owner's department, or only the owner (and 管理者). */
export enum ProfileVisibility {
  EVERYONE = 'EVERYONE',
  DEPARTMENT = 'DEPARTMENT',
  PRIVATE = 'PRIVATE',
}
registerEnumType(ProfileVisibility, {
  name: 'ProfileVisibility',
  description: '住所・電話番号を見られる人: EVERYONE 全社、DEPARTMENT 部署内、PRIVATE 非公開（本人と管理者だけ）',
});
export const VISIBILITY_LABEL: Record<ProfileVisibility, string> = {
  EVERYONE: '全社',
  DEPARTMENT: '部署内',
  PRIVATE: '非公開',
};

/** The spec's list fields: at most 10 entries each, blanks dropped on save. */
export const LIST_FIELDS = ['skills', 'languages', 'workExperience', 'education'] as const;
export type ListField = (typeof LIST_FIELDS)[number];
export const LIST_LABEL: Record<ListField, string> = {
  skills: 'スキル',
  languages: '言語',
  workExperience: '職歴',
  education: '学歴',
};
export const MAX_LIST_ENTRIES = 10;
export const MAX_LIST_ENTRY = 200;
export const TEXT_LIMITS = { title: 100, address: 200, phone: 30, hobbies: 1000, talents: 1000 } as const;

/** A saved profile's own values (what its owner writes); the rest is read from the employee. */
export interface ProfileValues {
  title: string;
  address: string;
  addressVisibility: ProfileVisibility;
  phone: string;
  phoneVisibility: ProfileVisibility;
  skills: string[];
  languages: string[];
  workExperience: string[];
  education: string[];
  aboutMe: RichTextDocument;
  aboutMeHtml: string;
  hobbies: string;
  talents: string;
}

export const EMPTY_PROFILE: ProfileValues = {
  title: '',
  address: '',
  addressVisibility: ProfileVisibility.DEPARTMENT,
  phone: '',
  phoneVisibility: ProfileVisibility.EVERYONE,
  skills: [],
  languages: [],
  workExperience: [],
  education: [],
  aboutMe: { blocks: [] },
  aboutMeHtml: '',
  hobbies: '',
  talents: '',
};

const text = (label: string, max: number) =>
  z
    .string({ error: `${label}は文字列で入力してください。` })
    .nullish()
    .transform((s) => (s ?? '').normalize('NFC').trim())
    .refine((s) => [...s].length <= max, `${label}は${max}文字以内で入力してください。`);

/**
 * A list field: a list of strings, or (the spec's `/api`) the JSON text of one. Entries are trimmed
 * and blank ones dropped before the count is checked.
 */
const list = (label: string) =>
  z
    .union([z.array(z.unknown()), z.string()], { error: `${label}は文字列のリストで入力してください。` })
    .nullish()
    .transform((v, c) => {
      let raw: unknown = v ?? [];
      if (typeof raw === 'string') {
        try {
          raw = raw.trim() ? JSON.parse(raw) : [];
        } catch {
          c.addIssue({ code: 'custom', message: `${label}は JSON の文字列リストで入力してください。` });
          return z.NEVER;
        }
      }
      if (!Array.isArray(raw) || raw.some((e) => e !== null && typeof e !== 'string')) {
        c.addIssue({ code: 'custom', message: `${label}は文字列のリストで入力してください。` });
        return z.NEVER;
      }
      const entries = (raw as (string | null)[]).map((e) => (e ?? '').normalize('NFC').trim()).filter((e) => e !== '');
      if (entries.length > MAX_LIST_ENTRIES)
        c.addIssue({ code: 'custom', message: `${label}は${MAX_LIST_ENTRIES}件までです。` });
      else if (entries.some((e) => [...e].length > MAX_LIST_ENTRY))
        c.addIssue({ code: 'custom', message: `${label}の各項目は${MAX_LIST_ENTRY}文字以内で入力してください。` });
      return entries;
    });

/** A visibility by its name, in either case (`/api` tools write `department`). */
const visibility = (label: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.toUpperCase() : v),
    z
      .enum(ProfileVisibility, {
        error: `${label}の公開範囲は EVERYONE（全社）、DEPARTMENT（部署内）、PRIVATE（非公開）のどれかで指定してください。`,
      })
      .nullish(),
  );

/** The phone number: digits, +, -, (, ), spaces (full-width ones are made half-width first). */
const phone = text('電話番号', TEXT_LIMITS.phone)
  .transform((s) => s.normalize('NFKC'))
  .refine((s) => /^[0-9+\-() ]*$/.test(s), '電話番号は数字、+、-、括弧、空白で入力してください。');

const schema = z.object({
  title: text('役職・肩書き', TEXT_LIMITS.title).optional(),
  address: text('住所', TEXT_LIMITS.address).optional(),
  addressVisibility: visibility('住所'),
  phone: phone.optional(),
  phoneVisibility: visibility('電話番号'),
  skills: list(LIST_LABEL.skills).optional(),
  languages: list(LIST_LABEL.languages).optional(),
  workExperience: list(LIST_LABEL.workExperience).optional(),
  education: list(LIST_LABEL.education).optional(),
  hobbies: text('趣味', TEXT_LIMITS.hobbies).optional(),
  talents: text('特技', TEXT_LIMITS.talents).optional(),
});

/**
 * A profile's values after an owner's change: each field given replaces the stored one (null or ''
 * clears it), a field left out keeps it. `aboutMe` is an Editor.js document (GraphQL, the web app)
 * or HTML (`/api`'s about_me, sanitized with the blog's allow-list); pictures are not allowed in it.
 * Every problem is reported at once, in a 400 naming each field.
 */
export function changedValues(
  current: ProfileValues,
  input: Record<string, unknown>,
  aboutMeKind: 'document' | 'html',
): ProfileValues {
  const errors: FieldError[] = [];
  const r = schema.safeParse(input);
  if (!r.success) for (const i of r.error.issues) errors.push({ field: i.path.join('.') || '_', message: i.message });
  let aboutMe: { doc: RichTextDocument; html: string } | undefined;
  if (input.aboutMe !== undefined) {
    try {
      aboutMe = richText(input.aboutMe, aboutMeKind);
    } catch (e) {
      if (!(e instanceof RichTextError)) throw e;
      errors.push({ field: 'aboutMe', message: `自己紹介: ${e.message}` });
    }
  }
  if (errors.length || !r.success)
    throw badInput(errors[0]?.message ?? 'プロフィールの入力内容に誤りがあります。', errors);
  const given = Object.fromEntries(
    Object.entries(r.data).filter(([k, v]) => input[k] !== undefined && v !== undefined && v !== null),
  );
  return {
    ...current,
    ...given,
    ...(aboutMe ? { aboutMe: aboutMe.doc, aboutMeHtml: aboutMe.html } : {}),
  };
}

/** About me: no pictures (a profile's photos are its own fields), everything else the blog allows. */
const NO_IMAGES = { isAllowedImageUrl: () => false };

function richText(value: unknown, kind: 'document' | 'html'): { doc: RichTextDocument; html: string } {
  if (value === null || value === '') return { doc: { blocks: [] }, html: '' };
  const doc =
    kind === 'html' && typeof value === 'string' && !/^\s*\{/.test(value)
      ? htmlToDocument(value, NO_IMAGES)
      : parseDocument(typeof value === 'string' ? value : value, NO_IMAGES);
  return { doc, html: renderHtml(doc, NO_IMAGES) };
}

/** What the list's search looks in: lower-cased, width-folded (NFKC) text of the owner's own words; never address or phone. */
export function searchTextOf(v: ProfileValues): string {
  return [
    v.title,
    ...v.skills,
    ...v.languages,
    ...v.workExperience,
    ...v.education,
    v.hobbies,
    v.talents,
    toPlainText(v.aboutMe, 20_000),
  ]
    .join('\n')
    .normalize('NFKC')
    .toLowerCase();
}

/** The search words as the stored text holds them. */
export const searchWord = (q: string) => q.normalize('NFKC').toLowerCase().trim();

export const profileNotFound = () =>
  new AppError('NOT_FOUND', 'プロフィールが見つかりません。', { reason: 'PROFILE_NOT_FOUND' });
