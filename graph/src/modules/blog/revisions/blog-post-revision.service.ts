import { requireUser } from '../../../platform/authz.js';
import type { AppContext } from '../../../platform/context.js';
import { forbidden, notFound } from '../../../platform/errors.js';
import { checkPage } from '../../../platform/pagination.js';
import { checkId } from '../../../platform/validation.js';
import { isBlogAdmin } from '../blog.enums.js';
import type { BlogPostService } from '../blog-post.service.js';
import type { PostRow } from '../blog-post.queries.js';
import type { BlogPostView } from '../blog-post.types.js';

/** What differs from the revision before (the history's "what changed"). */
export const REVISION_CHANGES = [
  'TITLE',
  'CONTENT',
  'CATEGORY',
  'TAGS',
  'PUBLISH',
  'PIN',
  'OPTIONS',
  'STATE',
  'ATTACHMENT',
] as const;
export type RevisionChange = (typeof REVISION_CHANGES)[number];

/** A revision as stored: the post's own columns as the save left them, with who saved it and the tags by id and name. */
export type RevisionRow = Pick<
  PostRow,
  | 'title'
  | 'content'
  | 'content_html'
  | 'category_id'
  | 'category_name'
  | 'allow_comments'
  | 'allow_likes'
  | 'publish_start'
  | 'publish_end'
  | 'is_pin'
  | 'pin_start'
  | 'pin_end'
  | 'is_draft'
  | 'require_confirmation'
  | 'attachment_name'
> & {
  post_id: number;
  version: number;
  saved_at: Date;
  saved_by_id: number | null;
  saved_by_name: string | null;
  restored_from: number | null;
  tag_ids: number[];
  tag_names: string[];
};

export interface Revision extends RevisionRow {
  /** Against the revision before it; the first revision (the post's creation) changed nothing. */
  changes: RevisionChange[];
}

const SELECT = `select r.post_id, r.version, r.saved_at, r.saved_by_id, e.name as saved_by_name, r.restored_from, r.title, r.content,
       r.content_html, r.category_id, r.category_name, r.tag_ids, r.tag_names, r.allow_comments, r.allow_likes,
       to_char(r.publish_start, 'YYYY-MM-DD') as publish_start, to_char(r.publish_end, 'YYYY-MM-DD') as publish_end,
       r.is_pin, to_char(r.pin_start, 'YYYY-MM-DD') as pin_start, to_char(r.pin_end, 'YYYY-MM-DD') as pin_end,
       r.is_draft, r.require_confirmation, r.attachment_name
  from blog_post_revision r left join employee e on e.id = r.saved_by_id`;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** What changed from `before` to `r`. */
export function changesOf(r: RevisionRow, before: RevisionRow | undefined): RevisionChange[] {
  if (!before) return [];
  const differs: Record<RevisionChange, boolean> = {
    TITLE: r.title !== before.title,
    CONTENT: r.content_html !== before.content_html,
    CATEGORY: r.category_id !== before.category_id,
    TAGS: !same(r.tag_ids, before.tag_ids),
    PUBLISH: r.publish_start !== before.publish_start || r.publish_end !== before.publish_end,
    PIN:
      r.is_pin !== before.is_pin ||
      r.pin_start !== before.pin_start ||
      r.pin_end !== before.pin_end ||
      r.require_confirmation !== before.require_confirmation,
    OPTIONS: r.allow_comments !== before.allow_comments || r.allow_likes !== before.allow_likes,
    STATE: r.is_draft !== before.is_draft,
    ATTACHMENT: r.attachment_name !== before.attachment_name,
  };
  return REVISION_CHANGES.filter((k) => differs[k]);
}

/** A row as read (the driver gives the time as text) with what changed since `before`. */
const revisionOf = (r: RevisionRow, before: RevisionRow | undefined): Revision => ({
  ...r,
  saved_at: new Date(r.saved_at),
  changes: changesOf(r, before),
});

/**
 * A post's history: every save kept as a revision (blog-post-revision.writes.ts, in the save's
 * transaction). Its author and 管理者・システム管理者 who may read the post read it; only the author
 * restores one, as a new save through the post's own update (its rules, its version check, its
 * event), so restoring loses nothing either: the version it replaces stays in the history. A restore
 * brings back the text, category, tags (those that still exist), dates, pin and options; the post's
 * publication state and its current attachment stay as they are (a replaced file is not kept).
 */
export class BlogPostRevisionService {
  constructor(private readonly posts: BlogPostService) {}

  /** Newest first, `changes` against the revision before each. */
  async list(ctx: AppContext, postId: number, offset?: unknown, limit?: unknown): Promise<Revision[]> {
    const page = checkPage(offset, limit);
    await this.checkHistoryReader(ctx, postId);
    // One more than the page: the oldest on it is compared with the revision before it.
    const rows: RevisionRow[] = await ctx.em.execute(
      `${SELECT} where r.post_id = ? order by r.version desc limit ? offset ?`,
      [postId, page.limit + 1, page.offset],
    );
    return rows.slice(0, page.limit).map((r, i) => revisionOf(r, rows[i + 1]));
  }

  async get(ctx: AppContext, postId: number, version: number): Promise<Revision> {
    checkId(version, '版');
    await this.checkHistoryReader(ctx, postId);
    const rows: RevisionRow[] = await ctx.em.execute(
      `${SELECT} where r.post_id = ? and r.version <= ? order by r.version desc limit 2`,
      [postId, version],
    );
    if (rows[0]?.version !== version) throw notFound('版');
    return revisionOf(rows[0], rows[1]);
  }

  /** A new save holding `version`'s values; `expectedVersion` is the post's version the user saw (a stale one is the usual 409). */
  async restore(ctx: AppContext, postId: number, version: number, expectedVersion: unknown): Promise<BlogPostView> {
    const r = await this.get(ctx, postId, version);
    const current = await this.posts.readableRow(ctx, ctx.em, postId);
    const existing: { id: number }[] = r.tag_ids.length
      ? await ctx.em.execute(`select id from blog_tag where id = any(?::int[]) order by id`, [
          `{${r.tag_ids.join(',')}}`,
        ])
      : [];
    return this.posts.update(
      ctx,
      postId,
      {
        title: r.title,
        content: r.content,
        categoryId: r.category_id,
        tagIds: existing.map((t) => t.id),
        allowComments: r.allow_comments,
        allowLikes: r.allow_likes,
        publishStart: r.publish_start,
        publishEnd: r.publish_end,
        isPin: r.is_pin,
        pinStart: r.pin_start,
        pinEnd: r.pin_end,
        isDraft: current.is_draft,
        requireConfirmation: r.require_confirmation,
        version: expectedVersion,
      },
      { restoredFrom: version },
    );
  }

  /** The post's author, or a 管理者・システム管理者 who may read it; NOT_FOUND where the post is not readable. */
  private async checkHistoryReader(ctx: AppContext, postId: number): Promise<void> {
    const post = await this.posts.readableRow(ctx, ctx.em, postId);
    const user = requireUser(ctx);
    if (post.author_id !== user.id && !isBlogAdmin(user.role))
      throw forbidden('投稿の履歴を見られるのは作成者と管理者・システム管理者だけです。');
  }
}
