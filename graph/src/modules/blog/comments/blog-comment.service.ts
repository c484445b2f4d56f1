import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppContext } from '../../../platform/context.js';
import { requireUser } from '../../../platform/authz.js';
import { AppError, badInput, forbidden, notFound } from '../../../platform/errors.js';
import { record } from '../../../platform/events/outbox.js';
import { pgArray } from '../../../platform/sql.js';
import { checkId, isDbId } from '../../../platform/validation.js';
import type { BlogPostService } from '../blog-post.service.js';
import type { AttachmentChange, BlogAttachments, StoredAttachment } from '../blog-post.attachment.js';
import { snapshot, type PostRow } from '../blog-post.queries.js';
import type { BlogComment, BlogCommentPage, BlogCommentReplyPage } from './blog-comment.types.js';
import { badCursor, decodeCursor, encodeCursor } from '../../../platform/cursor.js';
import { checkLimit } from '../../../platform/pagination.js';
import { NotificationKind, notify, withdrawAbout, type NewNotification } from '../../notifications/notification.writes.js';

export const MAX_COMMENT_LENGTH = 2000;
/** Top-level comments per page (GraphQL `limit`, REST `limit`): by default, and at most. */
export const COMMENT_PAGE = { fallback: 20, max: 100 } as const;
/** Replies shown with each comment of a page (oldest first); the rest come from replies(). */
export const REPLIES_SHOWN = 10;
/** Replies per page of replies(). */
export const REPLY_PAGE = { fallback: 50, max: 100 } as const;

/** The URL of a comment's attachment (and thumbnail): served only to those who may read the post. */
export const commentAttachmentUrl = (id: number, thumbnail = false) => `/api/comments/${id}/attachment${thumbnail ? '/thumbnail' : ''}`;

interface CommentRow {
  id: number;
  post_id: number;
  author_id: number | null;
  author_name: string | null;
  department_name: string | null;
  parent_id: number | null;
  content: string;
  attachment_key: string | null;
  attachment_name: string | null;
  attachment_type: string | null;
  attachment_size: number | null;
  attachment_thumb_key: string | null;
  created_at: Date;
  /** created_at in whole microseconds since the epoch (exact, unlike a Date): the page key with the id. */
  at_us: string;
}

const COMMENT_SELECT = `select c.id, c.post_id, c.author_id, e.name as author_name, d.name as department_name, c.parent_id, c.content,
       c.attachment_key, c.attachment_name, c.attachment_type, c.attachment_size, c.attachment_thumb_key, c.created_at,
       (extract(epoch from c.created_at) * 1000000)::bigint::text as at_us
  from blog_comment c left join employee e on e.id = c.author_id left join department d on d.id = e.department_id`;

/** Oldest first, after the cursor's (created_at, id) when there is one. */
const AFTER_KEY = `and (c.created_at, c.id) > ('epoch'::timestamptz + ?::bigint * interval '1 microsecond', ?::int)`;
const ORDER = `order by c.created_at, c.id`;

/** The cursor of a page ending at `row`; `tag` tells the comments of a post ('c') from the replies of a comment ('r'). */
const cursorAt = (tag: string, row: CommentRow) => encodeCursor(tag, [row.at_us, row.id]);

function keyOf(tag: string, after: string | null | undefined): [string, number] | null {
  const cursor = decodeCursor(after, [tag], 2);
  if (!cursor) return null;
  const [at, id] = [cursor.key[0]!, Number(cursor.key[1])];
  if (!/^\d{1,18}$/.test(at) || !isDbId(id)) throw badCursor();
  return [at, id];
}

export interface NewComment {
  postId: number;
  content: unknown;
  parentId?: number | null;
  attachment?: AttachmentChange;
}

/**
 * Comments and one level of replies on blog posts. Every read and write first finds the post
 * through BlogPostService.readableRow (the one visibility rule: NOT_FOUND for a post the caller may
 * not see, so nothing of it is told or written); commenting needs the post's allow_comments; the
 * comment's author and the post's author delete (its replies go with it). Each change records its
 * event in the same transaction; an attachment is checked by content and stored before it, removed
 * again if it fails, and a deletion's files are removed after it commits.
 */
export class BlogCommentService {
  constructor(
    private readonly posts: BlogPostService,
    private readonly attachments: BlogAttachments,
  ) {}

  /**
   * A page of a post's top-level comments, oldest first, each with its first REPLIES_SHOWN replies
   * (oldest first) and its reply count; `totalCount` counts replies too (the cards' figure).
   */
  async list(ctx: AppContext, postId: number, after?: string | null, limit?: unknown): Promise<BlogCommentPage> {
    const viewer = requireUser(ctx).id;
    const size = checkLimit(limit, COMMENT_PAGE.fallback, COMMENT_PAGE.max);
    const key = keyOf('c', after);
    const post = await this.posts.readableRow(ctx, ctx.em, postId);
    const rows: CommentRow[] = await ctx.em.execute(`${COMMENT_SELECT} where c.post_id = ? and c.parent_id is null ${key ? AFTER_KEY : ''} ${ORDER} limit ?`, [
      postId,
      ...(key ?? []),
      size + 1,
    ]);
    const more = rows.length > size;
    const top = rows.slice(0, size).map((r) => toComment(r, viewer, post.author_id));
    await this.attachReplies(ctx.em, top, viewer, post.author_id);
    return { items: top, nextCursor: more ? cursorAt('c', rows[size - 1]!) : null, totalCount: await this.count(ctx, postId) };
  }

  /** A page of a top-level comment's replies, oldest first (NOT_FOUND when its post may not be read). */
  async replies(ctx: AppContext, commentId: number, after?: string | null, limit?: unknown): Promise<BlogCommentReplyPage> {
    const viewer = requireUser(ctx).id;
    const size = checkLimit(limit, REPLY_PAGE.fallback, REPLY_PAGE.max);
    const key = keyOf('r', after);
    const { row, post } = await this.readable(ctx, ctx.em, commentId);
    const parentId = row.parent_id ?? row.id;
    const rows: CommentRow[] = await ctx.em.execute(`${COMMENT_SELECT} where c.parent_id = ? ${key ? AFTER_KEY : ''} ${ORDER} limit ?`, [parentId, ...(key ?? []), size + 1]);
    const more = rows.length > size;
    return { items: rows.slice(0, size).map((r) => toComment(r, viewer, post.author_id)), nextCursor: more ? cursorAt('r', rows[size - 1]!) : null };
  }

  /** Each comment's first REPLIES_SHOWN replies and its reply count: two statements for the page. */
  private async attachReplies(em: EntityManager, top: BlogComment[], viewer: number, postAuthorId: number): Promise<void> {
    if (top.length === 0) return;
    const ids = pgArray(top.map((c) => c.id));
    const [replies, counts] = await Promise.all([
      em.execute<CommentRow[]>(`select r.* from unnest(?::int[]) as p(id) cross join lateral (${COMMENT_SELECT} where c.parent_id = p.id ${ORDER} limit ${REPLIES_SHOWN}) r`, [
        ids,
      ]),
      em.execute<{ parent_id: number; n: number }[]>(`select parent_id, count(*)::int as n from blog_comment where parent_id = any(?::int[]) group by parent_id`, [ids]),
    ]);
    const byId = new Map(top.map((c) => [c.id, c]));
    for (const r of replies.sort((a, b) => (a.at_us === b.at_us ? a.id - b.id : BigInt(a.at_us) < BigInt(b.at_us) ? -1 : 1)))
      byId.get(r.parent_id!)?.replies.push(toComment(r, viewer, postAuthorId));
    for (const c of counts) byId.get(c.parent_id)!.replyCount = c.n;
  }

  /** One comment as its post's readers see it (NOT_FOUND when the post may not be read). */
  async get(ctx: AppContext, id: number): Promise<BlogComment> {
    const viewer = requireUser(ctx).id;
    const { row, post } = await this.readable(ctx, ctx.em, id);
    return toComment(row, viewer, post.author_id);
  }

  async add(ctx: AppContext, input: NewComment): Promise<BlogComment> {
    const user = requireUser(ctx);
    this.counters.get(ctx)?.clearAll();
    await ctx.services.writes.count(ctx.em, user.id, 'comment');
    checkId(input.postId, '投稿');
    const reply = input.parentId !== null && input.parentId !== undefined;
    // Checked before any file is stored: an outsider or a closed post leaves nothing behind.
    const post = await this.posts.readableRow(ctx, ctx.em, input.postId);
    if (!post.allow_comments) throw forbidden('この投稿はコメントを受け付けていません。');
    const content = checkContent(input.content, reply);
    if (reply) await this.parentOf(ctx.em, input.postId, input.parentId!);
    const file = input.attachment ? await this.attachments.store(input.attachment, 'attachment') : null;
    try {
      const id = await ctx.em.transactional(async (tx) => {
        const row = await this.posts.readableRow(ctx, tx, input.postId);
        if (!row.allow_comments) throw forbidden('この投稿はコメントを受け付けていません。');
        const parent = reply ? await this.parentOf(tx, input.postId, input.parentId!) : null;
        const parentId = parent?.id ?? null;
        const [{ id }]: { id: number }[] = await tx.execute(
          `insert into blog_comment (post_id, author_id, parent_id, content, attachment_key, attachment_name, attachment_type, attachment_size, attachment_thumb_key)
           values (?, ?, ?, ?, ?, ?, ?, ?, ?) returning id`,
          [row.id, user.id, parentId, content, ...fileColumns(file)],
        );
        record(tx, {
          type: 'blog.comment.added',
          aggregateId: row.id,
          actorId: user.id,
          payload: { post: snapshot(row), commentId: id, parentId, authorId: user.id, replyIds: [] },
        });
        await notify(tx, user.id, recipientsOf(row, parent, id));
        await tx.flush();
        return id;
      });
      return this.get(ctx, id);
    } catch (e) {
      if (file) await this.attachments.remove([file.key, file.thumbKey]);
      throw e;
    }
  }

  /** Deletes a comment and its replies: by the comment's author or the post's author. */
  async delete(ctx: AppContext, id: number): Promise<boolean> {
    const user = requireUser(ctx);
    this.counters.get(ctx)?.clearAll();
    const files = await ctx.em.transactional(async (tx) => {
      const { row, post } = await this.readable(ctx, tx, id);
      if (row.author_id !== user.id && post.author_id !== user.id) throw forbidden('このコメントを削除する権限がありません。');
      await withdrawAbout(tx, user.id, { postId: post.id, commentId: id });
      const gone: { id: number; attachment_key: string | null; attachment_thumb_key: string | null }[] = await tx.execute(
        `delete from blog_comment where id = ? or parent_id = ? returning id, attachment_key, attachment_thumb_key`,
        [id, id],
      );
      const replyIds = gone.map((g) => g.id).filter((g) => g !== id);
      record(tx, {
        type: 'blog.comment.deleted',
        aggregateId: post.id,
        actorId: user.id,
        payload: { post: snapshot(post), commentId: id, parentId: row.parent_id, authorId: row.author_id, replyIds },
      });
      await tx.flush();
      return gone.flatMap((g) => [g.attachment_key, g.attachment_thumb_key]);
    });
    await this.attachments.remove(files);
    return true;
  }

  /** A comment's attachment (or its thumbnail) for whoever may read its post; NOT_FOUND otherwise. */
  async attachment(ctx: AppContext, id: number, thumbnail: boolean) {
    const { row } = await this.readable(ctx, ctx.em, id);
    return this.attachments.openStored({ key: row.attachment_key, thumbKey: row.attachment_thumb_key, name: row.attachment_name }, thumbnail);
  }

  /**
   * A post's comment count (replies included), batched and cached per request (速報 repeats the feed's pinned
   * posts); a comment added or deleted in the request clears it. Live views carry their count (blog.live.ts).
   */
  count(ctx: AppContext, postId: number): Promise<number> {
    let loader = this.counters.get(ctx);
    if (!loader) this.counters.set(ctx, (loader = new DataLoader((ids) => countsOf(ctx.em, ids))));
    return loader.load(postId);
  }

  /** Only views of posts the viewer may read reach the counter (feed, 速報, detail, live), so it needs no check of its own. */
  private readonly counters = new WeakMap<AppContext, DataLoader<number, number>>();

  /** A comment and its post, when the caller may read the post; NOT_FOUND otherwise (the same answer for a missing comment). */
  private async readable(ctx: AppContext, em: EntityManager, id: number): Promise<{ row: CommentRow; post: PostRow }> {
    checkId(id, 'コメント');
    const [row]: CommentRow[] = await em.execute(`${COMMENT_SELECT} where c.id = ?`, [id]);
    if (!row) throw notFound('コメント');
    const post = await this.posts.readableRow(ctx, em, row.post_id).catch((e: unknown) => {
      throw e instanceof AppError && e.code === 'NOT_FOUND' ? notFound('コメント') : e;
    });
    return { row, post };
  }

  /**
   * The top-level comment a reply attaches to (a reply to a reply attaches to its parent), on the
   * same post, and the author of the comment replied to (they are the one told of the reply).
   */
  private async parentOf(em: EntityManager, postId: number, parentId: number): Promise<Parent> {
    checkId(parentId, '返信先のコメント');
    const [parent]: { id: number; parent_id: number | null; author_id: number | null }[] = await em.execute(
      `select id, parent_id, author_id from blog_comment where id = ? and post_id = ? ${em.getTransactionContext() ? 'for key share' : ''}`,
      [parentId, postId],
    );
    if (!parent) throw badInput('返信先のコメントが見つかりません。', [{ field: 'parentId', message: '返信先のコメントが見つかりません。' }]);
    return { id: parent.parent_id ?? parent.id, repliedTo: parent.author_id };
  }
}

interface Parent {
  /** The top-level comment the reply attaches to. */
  id: number;
  /** The author of the comment replied to (null: gone). */
  repliedTo: number | null;
}

/**
 * Who hears of a new comment: the author of the comment replied to (REPLY), and the post's author
 * (COMMENT) unless they are that same person. notify() leaves out the commenter themselves.
 */
function recipientsOf(post: PostRow, parent: Parent | null, commentId: number): NewNotification[] {
  const out: NewNotification[] = [];
  if (parent?.repliedTo != null) out.push({ recipientId: parent.repliedTo, kind: NotificationKind.REPLY, postId: post.id, commentId });
  if (parent?.repliedTo !== post.author_id) out.push({ recipientId: post.author_id, kind: NotificationKind.COMMENT, postId: post.id, commentId });
  return out;
}

/** Non-blank after trim (the spec's 'Comment/Reply không được để trống'), at most 2000 characters; stored trimmed. */
function checkContent(value: unknown, reply: boolean): string {
  const text = typeof value === 'string' ? value.trim() : '';
  const refuse = (message: string) => badInput(message, [{ field: 'content', message }]);
  if (!text) throw refuse(reply ? '返信を入力してください。' : 'コメントを入力してください。');
  if ([...text].length > MAX_COMMENT_LENGTH) throw refuse(`${reply ? '返信' : 'コメント'}は${MAX_COMMENT_LENGTH}文字以内で入力してください。`);
  return text;
}

const fileColumns = (f: StoredAttachment | null) => [f?.key ?? null, f?.name ?? null, f?.type ?? null, f?.size ?? null, f?.thumbKey ?? null];

function toComment(r: CommentRow, viewer: number, postAuthorId: number): BlogComment {
  return {
    id: r.id,
    postId: r.post_id,
    author: { id: r.author_id, name: r.author_name?.trim() || 'Unknown', departmentName: r.department_name },
    content: r.content,
    parentId: r.parent_id,
    attachment:
      r.attachment_key && r.attachment_name && r.attachment_type
        ? {
            name: r.attachment_name,
            type: r.attachment_type,
            size: r.attachment_size ?? 0,
            url: commentAttachmentUrl(r.id),
            thumbnailUrl: r.attachment_thumb_key ? commentAttachmentUrl(r.id, true) : null,
          }
        : null,
    createdAt: new Date(r.created_at),
    canDelete: r.author_id === viewer || postAuthorId === viewer,
    replies: [],
    replyCount: 0,
  };
}

async function countsOf(em: EntityManager, ids: readonly number[]): Promise<number[]> {
  const rows: { post_id: number; n: number }[] = await em.execute(`select post_id, count(*)::int as n from blog_comment where post_id = any(?::int[]) group by post_id`, [
    pgArray([...ids]),
  ]);
  const by = new Map(rows.map((r) => [r.post_id, r.n]));
  return ids.map((id) => by.get(id) ?? 0);
}
