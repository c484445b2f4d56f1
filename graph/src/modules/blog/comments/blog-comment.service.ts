import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppContext } from '../../../platform/context.js';
import { requireUser } from '../../../platform/authz.js';
import { AppError, forbidden, notFound } from '../../../platform/errors.js';
import { record } from '../../../platform/events/outbox.js';
import { checkId } from '../../../platform/validation.js';
import { CommentThread, checkCommentContent, commentAuthor, type ThreadRow } from '../../../platform/comment-thread.js';
import type { BlogPostReads } from '../blog-post.reads.js';
import type { AttachmentChange, BlogAttachments, StoredAttachment } from '../blog-post.attachment.js';
import { snapshot, type PostRow } from '../blog-post.queries.js';
import type { BlogComment, BlogCommentPage, BlogCommentReplyPage } from './blog-comment.types.js';
import { commentRecipients, notify, withdrawAbout } from '../../notifications/notification.writes.js';
import { pgArray } from '../../../platform/sql.js';
import { checkCommentMentions, mentionsStillWritten, notifyCommentMentions } from '../mentions/blog-mention.rules.js';
import { mentionsJson } from '../mentions/mentions.sql.js';

/** The URL of a comment's attachment (and thumbnail): served only to those who may read the post. */
export const commentAttachmentUrl = (id: number, thumbnail = false) =>
  `/api/comments/${id}/attachment${thumbnail ? '/thumbnail' : ''}`;

interface CommentRow extends ThreadRow {
  post_id: number;
  author_name: string | null;
  department_name: string | null;
  content: string;
  attachment_key: string | null;
  attachment_name: string | null;
  attachment_type: string | null;
  attachment_size: number | null;
  attachment_thumb_key: string | null;
  created_at: Date;
  edited_at: Date | null;
  mention_ids: number[];
  mentions: { id: number; name: string }[];
}

const THREAD = new CommentThread<CommentRow>({
  table: 'blog_comment',
  subject: 'post_id',
  select: `select c.id, c.post_id, c.author_id, e.name as author_name, d.name as department_name, c.parent_id, c.content,
       c.attachment_key, c.attachment_name, c.attachment_type, c.attachment_size, c.attachment_thumb_key, c.created_at, c.edited_at,
       c.mention_ids, ${mentionsJson('c.mention_ids')} as mentions,
       (extract(epoch from c.created_at) * 1000000)::bigint::text as at_us
  from blog_comment c left join employee e on e.id = c.author_id left join department d on d.id = e.department_id`,
});

export interface NewComment {
  postId: number;
  content: unknown;
  parentId?: number | null;
  attachment?: AttachmentChange;
  /** Who the text mentions (each written in it as @氏名; blog-mention.rules.ts). */
  mentionIds?: number[] | null;
}

/**
 * Comments and one level of replies on blog posts. Every read and write first finds the post
 * through BlogPostReads.readableRow (the one visibility rule: NOT_FOUND for a post the caller may
 * not see, so nothing of it is told or written); commenting needs the post's allow_comments; only the
 * comment's author edits its text (while the post takes comments); the comment's author and the
 * post's author delete (its replies go with it). Each change records its
 * event in the same transaction; an attachment is checked by content and stored before it, removed
 * again if it fails, and a deletion's files are removed after it commits.
 */
export class BlogCommentService {
  constructor(
    private readonly posts: BlogPostReads,
    private readonly attachments: BlogAttachments,
  ) {}

  /**
   * A page of a post's top-level comments, oldest first, each with its first REPLIES_SHOWN replies
   * (oldest first) and its reply count; `totalCount` counts replies too (the cards' figure).
   */
  async list(ctx: AppContext, postId: number, after?: string | null, limit?: unknown): Promise<BlogCommentPage> {
    const viewer = requireUser(ctx).id;
    const post = await this.posts.readableRow(ctx, ctx.em, postId);
    const p = await THREAD.page(ctx.em, postId, after, limit);
    const items = p.items.map((i) => ({
      ...toComment(i.row, viewer, post.author_id),
      replies: i.replies.map((r) => toComment(r, viewer, post.author_id)),
      replyCount: i.replyCount,
    }));
    return { items, nextCursor: p.nextCursor, totalCount: await this.count(ctx, postId) };
  }

  /** A page of a top-level comment's replies, oldest first (NOT_FOUND when its post may not be read). */
  async replies(
    ctx: AppContext,
    commentId: number,
    after?: string | null,
    limit?: unknown,
  ): Promise<BlogCommentReplyPage> {
    const viewer = requireUser(ctx).id;
    const { row, post } = await this.readable(ctx, ctx.em, commentId);
    const p = await THREAD.replies(ctx.em, row.parent_id ?? row.id, after, limit);
    return { items: p.items.map((r) => toComment(r, viewer, post.author_id)), nextCursor: p.nextCursor };
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
    await ctx.services.writes.count(ctx, user.id, 'comment');
    checkId(input.postId, '投稿');
    const reply = input.parentId !== null && input.parentId !== undefined;
    // Checked before any file is stored: an outsider or a closed post leaves nothing behind.
    const post = await this.posts.readableRow(ctx, ctx.em, input.postId);
    if (!post.allow_comments) throw forbidden('この投稿はコメントを受け付けていません。');
    const content = checkCommentContent(input.content, reply);
    if (reply) await THREAD.parentOf(ctx.em, input.postId, input.parentId!);
    const file = input.attachment ? await this.attachments.store(input.attachment, 'attachment') : null;
    try {
      const id = await ctx.em.transactional(async (tx) => {
        const row = await this.posts.readableRow(ctx, tx, input.postId);
        if (!row.allow_comments) throw forbidden('この投稿はコメントを受け付けていません。');
        const parent = reply ? await THREAD.parentOf(tx, input.postId, input.parentId!) : null;
        const parentId = parent?.id ?? null;
        const mentioned = await checkCommentMentions(tx, audienceOf(row), content, input.mentionIds ?? []);
        const [{ id }]: { id: number }[] = await tx.execute(
          `insert into blog_comment (post_id, author_id, parent_id, content, attachment_key, attachment_name, attachment_type, attachment_size, attachment_thumb_key, mention_ids)
           values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?::int[]) returning id`,
          [row.id, user.id, parentId, content, ...fileColumns(file), pgArray(mentioned)],
        );
        record(tx, {
          type: 'blog.comment.added',
          aggregateId: row.id,
          actorId: user.id,
          payload: { post: snapshot(row), commentId: id, parentId, authorId: user.id, replyIds: [] },
        });
        // A mentioned person hears of the comment once: by its mention.
        const about = { postId: row.id, commentId: id };
        await notify(
          tx,
          user.id,
          commentRecipients(row.author_id, parent?.repliedTo, about).filter((n) => !mentioned.includes(n.recipientId)),
        );
        await notifyCommentMentions(tx, user.id, about, mentioned);
        await tx.flush();
        return id;
      });
      return this.get(ctx, id);
    } catch (e) {
      if (file) await this.attachments.remove([file.key, file.thumbKey]);
      throw e;
    }
  }

  /**
   * The comment's author changes its text (the attachment stays), while the post takes comments; it
   * is then marked edited. The same text again changes nothing and records nothing.
   */
  async edit(ctx: AppContext, id: number, content: unknown, mentionIds?: number[] | null): Promise<BlogComment> {
    const user = requireUser(ctx);
    this.counters.get(ctx)?.clearAll();
    await ctx.services.writes.count(ctx, user.id, 'comment');
    await ctx.em.transactional(async (tx) => {
      const { row, post } = await this.readable(ctx, tx, id, 'for update of c');
      if (row.author_id !== user.id) throw forbidden('コメントを編集できるのはコメントした本人だけです。');
      if (!post.allow_comments) throw forbidden('この投稿はコメントを受け付けていません。');
      const text = checkCommentContent(content, row.parent_id !== null);
      // No list keeps the mentions the new text still writes out.
      const mentioned =
        mentionIds == null
          ? await mentionsStillWritten(tx, text, row.mention_ids)
          : await checkCommentMentions(tx, audienceOf(post), text, mentionIds);
      if (text === row.content && sameSet(mentioned, row.mention_ids)) return;
      await tx.execute(
        `update blog_comment set content = ?, mention_ids = ?::int[], edited_at = clock_timestamp() where id = ?`,
        [text, pgArray(mentioned), id],
      );
      await notifyCommentMentions(
        tx,
        user.id,
        { postId: post.id, commentId: id },
        mentioned.filter((m) => !row.mention_ids.includes(m)),
      );
      record(tx, {
        type: 'blog.comment.edited',
        aggregateId: post.id,
        actorId: user.id,
        payload: { post: snapshot(post), commentId: id, parentId: row.parent_id, authorId: user.id, replyIds: [] },
      });
      await tx.flush();
    });
    return this.get(ctx, id);
  }

  /** Deletes a comment and its replies: by the comment's author or the post's author. */
  async delete(ctx: AppContext, id: number): Promise<boolean> {
    const user = requireUser(ctx);
    this.counters.get(ctx)?.clearAll();
    const files = await ctx.em.transactional(async (tx) => {
      const { row, post } = await this.readable(ctx, tx, id);
      if (row.author_id !== user.id && post.author_id !== user.id)
        throw forbidden('このコメントを削除する権限がありません。');
      await withdrawAbout(tx, user.id, { postId: post.id, commentId: id });
      const gone: { id: number; attachment_key: string | null; attachment_thumb_key: string | null }[] =
        await tx.execute(
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
    return this.attachments.openStored(
      { key: row.attachment_key, thumbKey: row.attachment_thumb_key, name: row.attachment_name },
      thumbnail,
    );
  }

  /**
   * A post's comment count (replies included), batched and cached per request (速報 repeats the feed's pinned
   * posts); a comment added or deleted in the request clears it. Live views carry their count (blog.live.ts).
   */
  count(ctx: AppContext, postId: number): Promise<number> {
    let loader = this.counters.get(ctx);
    if (!loader) this.counters.set(ctx, (loader = new DataLoader((ids) => THREAD.counts(ctx.em, ids))));
    return loader.load(postId);
  }

  /** Only views of posts the viewer may read reach the counter (feed, 速報, detail, live), so it needs no check of its own. */
  private readonly counters = new WeakMap<AppContext, DataLoader<number, number>>();

  /** A comment and its post, when the caller may read the post; NOT_FOUND otherwise (the same answer for a missing comment). */
  private async readable(
    ctx: AppContext,
    em: EntityManager,
    id: number,
    lock = '',
  ): Promise<{ row: CommentRow; post: PostRow }> {
    checkId(id, 'コメント');
    const row = await THREAD.row(em, id, lock);
    if (!row) throw notFound('コメント');
    const post = await this.posts.readableRow(ctx, em, row.post_id).catch((e: unknown) => {
      throw e instanceof AppError && e.code === 'NOT_FOUND' ? notFound('コメント') : e;
    });
    return { row, post };
  }
}

const audienceOf = (post: PostRow) => ({ categoryId: post.category_id, authorId: post.author_id });
const sameSet = (a: number[], b: number[]) => a.length === b.length && a.every((x) => b.includes(x));

const fileColumns = (f: StoredAttachment | null) => [
  f?.key ?? null,
  f?.name ?? null,
  f?.type ?? null,
  f?.size ?? null,
  f?.thumbKey ?? null,
];

function toComment(r: CommentRow, viewer: number, postAuthorId: number): BlogComment {
  return {
    id: r.id,
    postId: r.post_id,
    author: commentAuthor(r),
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
    editedAt: r.edited_at ? new Date(r.edited_at) : null,
    mentions: r.mentions,
    canEdit: r.author_id === viewer,
    canDelete: r.author_id === viewer || postAuthorId === viewer,
    replies: [],
    replyCount: 0,
  };
}
