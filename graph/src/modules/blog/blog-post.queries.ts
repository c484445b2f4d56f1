import type { BlogPostSnapshot } from '@intranet/schema/events/blog.events';
import type { CurrentUser } from '../auth/session.service.js';
import { POST_STATE_LABEL, isBlogAdmin } from './blog.enums.js';
import { attachmentUrl } from './blog-post.attachment.js';
import { isPinnedOn, stateOf, type PostWindow } from './blog-post.rules.js';
import type { BlogPostView } from './blog-post.types.js';
import { mentionsJson } from './mentions/mentions.sql.js';

/** A post with what its card and detail show: author, category, tags (one row per post, tags aggregated). */
export interface PostRow {
  id: number;
  title: string;
  content: Record<string, unknown>;
  content_html: string;
  category_id: number | null;
  category_name: string | null;
  category_color: string | null;
  author_id: number;
  author_name: string;
  author_department: string | null;
  author_department_id: number | null;
  allow_comments: boolean;
  allow_likes: boolean;
  require_confirmation: boolean;
  publish_start: string;
  publish_end: string | null;
  is_pin: boolean;
  pin_start: string | null;
  pin_end: string | null;
  is_draft: boolean;
  attachment_key: string | null;
  attachment_name: string | null;
  attachment_type: string | null;
  attachment_size: number | null;
  attachment_thumb_key: string | null;
  tags: { id: number; content: string }[];
  /** Who the body mentions (read from it at every save). */
  mentions: { id: number; name: string }[];
  created_at: Date;
  updated_at: Date;
  updated_by_id: number | null;
  version: number;
}

export const POST_SELECT = `select p.id, p.title, p.content, p.content_html,
         p.category_id, c.name as category_name, c.color as category_color,
         p.author_id, a.name as author_name, ad.name as author_department, a.department_id as author_department_id,
         p.allow_comments, p.allow_likes, p.require_confirmation,
         to_char(p.publish_start, 'YYYY-MM-DD') as publish_start, to_char(p.publish_end, 'YYYY-MM-DD') as publish_end,
         p.is_pin, to_char(p.pin_start, 'YYYY-MM-DD') as pin_start, to_char(p.pin_end, 'YYYY-MM-DD') as pin_end, p.is_draft,
         p.attachment_key, p.attachment_name, p.attachment_type, p.attachment_size, p.attachment_thumb_key,
         coalesce((select json_agg(json_build_object('id', t.id, 'content', t.content) order by lower(t.content), t.id)
                     from blog_post_tag pt join blog_tag t on t.id = pt.tag_id where pt.post_id = p.id), '[]'::json) as tags,
         ${mentionsJson('p.mention_ids')} as mentions,
         p.created_at, p.updated_at, p.updated_by_id, p.version
    from blog_post p
    join employee a on a.id = p.author_id
    left join department ad on ad.id = a.department_id
    left join blog_category c on c.id = p.category_id`;

/** The dates and flags that decide whether a post is visible and pinned, as views and events name them. */
export const windowOf = (r: PostRow): PostWindow => ({
  isDraft: r.is_draft,
  publishStart: r.publish_start,
  publishEnd: r.publish_end,
  isPin: r.is_pin,
  pinStart: r.pin_start,
  pinEnd: r.pin_end,
});

/** What the visibility rule (blog-post.visibility.ts) reads of a post. */
export const readableOf = (r: PostRow) => ({ authorId: r.author_id, categoryId: r.category_id, ...windowOf(r) });

/** A post as its events carry it (blog.events.ts): who may see it and when it is pinned. */
export function snapshot(r: PostRow): BlogPostSnapshot {
  return {
    id: r.id,
    title: r.title,
    categoryId: r.category_id,
    authorId: r.author_id,
    ...windowOf(r),
    tagIds: r.tags.map((t) => t.id).sort((a, b) => a - b),
    attachmentKey: r.attachment_key,
    version: r.version,
  };
}

/** The post as its viewer sees it on `today` (state, pinned, what they may do with it). Visibility is decided before (blog-post.visibility.ts). */
export function toView(r: PostRow, viewer: Pick<CurrentUser, 'id' | 'role'>, today: string): BlogPostView {
  const window = windowOf(r);
  const { isDraft: _, ...dates } = window;
  const state = stateOf(window, today);
  const own = r.author_id === viewer.id;
  return {
    id: r.id,
    title: r.title,
    content: r.content,
    contentHtml: r.content_html,
    category: r.category_id !== null ? { id: r.category_id, name: r.category_name!, color: r.category_color! } : null,
    author: { id: r.author_id, name: r.author_name, departmentName: r.author_department },
    tags: r.tags,
    mentions: r.mentions,
    allowComments: r.allow_comments,
    allowLikes: r.allow_likes,
    requireConfirmation: r.require_confirmation,
    ...dates,
    pinned: isPinnedOn(window, today),
    state,
    stateLabel: POST_STATE_LABEL[state],
    attachment:
      r.attachment_key !== null
        ? {
            name: r.attachment_name!,
            type: r.attachment_type!,
            size: r.attachment_size!,
            url: attachmentUrl(r.id),
            thumbnailUrl: r.attachment_thumb_key !== null ? attachmentUrl(r.id, true) : null,
          }
        : null,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
    version: r.version,
    canEdit: own,
    canDelete: own || isBlogAdmin(viewer.role),
  };
}
