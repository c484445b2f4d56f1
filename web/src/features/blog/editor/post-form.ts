import { addDays, tokyoToday } from '@intranet/schema/calendar/tokyo';
import type { BlogPostEditQuery } from '../../../gql/graphql';
import type { AttachmentState } from './attachment';

export type EditedPost = NonNullable<BlogPostEditQuery['blogPost']>;

/** An Editor.js document (OutputData) as the form holds it; the server checks it (lib/rich-text). */
export type PostDocument = { time?: number; version?: string; blocks: unknown[] };

/** The form's values. Dates are YYYY-MM-DD ('' when not set), as `<input type="date">` reads them. */
export interface PostForm {
  title: string;
  category: { id: number; name: string; color: string } | null;
  tags: { id: number; content: string }[];
  allowComments: boolean;
  allowLikes: boolean;
  publishStart: string;
  hasPublishEnd: boolean;
  publishEnd: string;
  isPin: boolean;
  pinStart: string;
  pinEnd: string;
  /** Required reading: only with the pin (the save sends it off without). */
  requireConfirmation: boolean;
  attachment: AttachmentState;
  version: number | null;
}

/** The pin's default length: the spec's "today plus 7 days". */
export const PIN_DEFAULT_DAYS = 7;

export { addDays, tokyoToday };

/**
 * Turning the pin on or off. On without a start: today and today + 7 days (spec §4); on with a start
 * already set keeps the window (an end missing is start + 7). Off keeps the dates on screen, so turning
 * it back on restores them; the save sends none while it is off.
 */
export function togglePin(
  form: Pick<PostForm, 'isPin' | 'pinStart' | 'pinEnd'>,
  on: boolean,
  today: string,
): Pick<PostForm, 'isPin' | 'pinStart' | 'pinEnd'> {
  if (!on) return { ...form, isPin: false };
  const pinStart = form.pinStart || today;
  return { isPin: true, pinStart, pinEnd: form.pinEnd || addDays(pinStart, PIN_DEFAULT_DAYS) };
}

export function emptyForm(today: string): PostForm {
  return {
    title: '',
    category: null,
    tags: [],
    allowComments: true,
    allowLikes: true,
    publishStart: today,
    hasPublishEnd: false,
    publishEnd: '',
    isPin: false,
    pinStart: '',
    pinEnd: '',
    requireConfirmation: false,
    attachment: { kind: 'none' },
    version: null,
  };
}

export function formOf(p: EditedPost): PostForm {
  return {
    title: p.title,
    category: p.category ? { id: p.category.id, name: p.category.name, color: p.category.color } : null,
    tags: p.tags.map((t) => ({ id: t.id, content: t.content })),
    allowComments: p.allowComments,
    allowLikes: p.allowLikes,
    publishStart: p.publishStart,
    hasPublishEnd: p.publishEnd !== null,
    publishEnd: p.publishEnd ?? '',
    isPin: p.isPin,
    pinStart: p.pinStart ?? '',
    pinEnd: p.pinEnd ?? '',
    requireConfirmation: p.requireConfirmation,
    attachment: p.attachment ? { kind: 'stored', file: p.attachment } : { kind: 'none' },
    version: p.version,
  };
}

/** The spec's `upload_files` for this save: the stored file kept (its own URL), a new one (a data URL), or none. */
function uploadFiles(a: AttachmentState, postId: number | null): string | null {
  if (a.kind === 'stored')
    return JSON.stringify([{ uid: String(postId ?? ''), name: a.file.name, url: a.file.url, type: a.file.type }]);
  if (a.kind === 'new') return JSON.stringify([{ uid: a.uid, name: a.name, url: a.dataUrl, type: a.type }]);
  return null;
}

/**
 * The body of `POST /api/blogs` / `PUT /api/blogs/{id}` (the spec's field names). Dates travel as
 * YYYY-MM-DD; the end is null without hasPublishEnd and the pin dates null when not pinned (spec §5).
 */
export function restBody(
  form: PostForm,
  content: PostDocument,
  o: { postId: number | null; draft: boolean },
): Record<string, unknown> {
  return {
    title: form.title.trim(),
    content,
    category_id: form.category?.id ?? null,
    blog_tags: form.tags.map((t) => t.id).join(','),
    options: [...(form.allowComments ? ['comment'] : []), ...(form.allowLikes ? ['like'] : [])].join(','),
    publish_start_date: form.publishStart || null,
    hasPublishEnd: form.hasPublishEnd,
    publish_end_date: form.hasPublishEnd ? form.publishEnd || null : null,
    is_pin: form.isPin,
    pin_start_dt: form.isPin ? form.pinStart || null : null,
    pin_end_dt: form.isPin ? form.pinEnd || null : null,
    require_confirmation: form.isPin && form.requireConfirmation,
    is_draft: o.draft,
    upload_files: uploadFiles(form.attachment, o.postId),
    ...(o.postId !== null && form.version !== null ? { version: form.version } : {}),
  };
}

/** The form field a REST field error names (the body's names → the form's). */
const FIELD_OF: Record<string, keyof PostForm | 'content'> = {
  title: 'title',
  content: 'content',
  category_id: 'category',
  blog_tags: 'tags',
  options: 'allowComments',
  publish_start_date: 'publishStart',
  publish_end_date: 'publishEnd',
  hasPublishEnd: 'publishEnd',
  is_pin: 'isPin',
  pin_start_dt: 'pinStart',
  pin_end_dt: 'pinEnd',
  require_confirmation: 'requireConfirmation',
  upload_files: 'attachment',
};

export type FormField = keyof PostForm | 'content';

/** A REST field error's field as the form's (`blog_tags.0` → tags); null when the form has no such field. */
export function formFieldOf(restField: string): FormField | null {
  return FIELD_OF[restField.split('.')[0]!] ?? null;
}
