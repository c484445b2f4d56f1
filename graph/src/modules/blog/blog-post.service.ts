import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppContext } from '../../platform/context.js';
import type { CurrentUser } from '../auth/session.service.js';
import { badInput, forbidden, notFound } from '../../platform/errors.js';
import { record } from '../../platform/events/outbox.js';
import { pgArray } from '../../platform/sql.js';
import { checkId, parseInput } from '../../platform/validation.js';
import { expectVersion } from '../../platform/versioning.js';
import { isBlogAdmin } from './blog.enums.js';
import type { BlogCategoryService } from './blog-category.service.js';
import type { BlogTagService } from './blog-tag.service.js';
import { BlogAttachments, type AttachmentChange, type StoredAttachment } from './blog-post.attachment.js';
import { contentFromDocument, PostContent } from './blog-post.content.js';
import type { BlogImageService } from './blog-image.service.js';
import { postSchema } from './blog-post.fields.js';
import { readableOf, snapshot, windowOf, type PostRow } from './blog-post.queries.js';
import { BlogPostReads, type Reader } from './blog-post.reads.js';
import { pinWindow } from './blog-post.rules.js';
import type { BlogPostView } from './blog-post.types.js';
import { mayRead } from './blog-post.visibility.js';
import { requestReading } from './reading/blog-reading.readers.js';
import { checkMentions, notifyPostMentions } from './mentions/blog-mention.rules.js';
import { mentionedIds } from '../../lib/rich-text/index.js';
import { withdrawAbout } from '../notifications/notification.writes.js';
import { recordRevisions } from './revisions/blog-post-revision.writes.js';

/** A post's fields as a save stores them (after defaults and checks). */
interface PostValues {
  title: string;
  content: PostContent;
  categoryId: number | null;
  tagIds: number[];
  allowComments: boolean;
  allowLikes: boolean;
  publishStart: string;
  publishEnd: string | null;
  isPin: boolean;
  pinStart: string | null;
  pinEnd: string | null;
  isDraft: boolean;
  requireConfirmation: boolean;
  /** Who the body mentions (blog-mention.rules.ts checked each may read the post). */
  mentionIds: number[];
}

/** The fields a change compares (content by its rendered HTML: an editor's save stamps a new `time` every time). */
const COMPARED = [
  'title',
  'content',
  'categoryId',
  'tagIds',
  'allowComments',
  'allowLikes',
  'publishStart',
  'publishEnd',
  'isPin',
  'pinStart',
  'pinEnd',
  'isDraft',
  'requireConfirmation',
] as const;

function valuesOf(r: PostRow): Omit<PostValues, 'content'> & { content: string } {
  return {
    title: r.title,
    content: r.content_html,
    categoryId: r.category_id,
    tagIds: r.tags.map((t) => t.id).sort((a, b) => a - b),
    allowComments: r.allow_comments,
    allowLikes: r.allow_likes,
    ...windowOf(r),
    requireConfirmation: r.require_confirmation,
    mentionIds: r.mentions.map((m) => m.id),
  };
}
/**
 * Blog posts: the reads (BlogPostReads) and the writes. Any employee writes in a
 * category they may post in (BlogCategoryService.checkPostable); only the author edits; the author
 * and 管理者/システム管理者 delete. Every change records its event, and keeps the post as saved as a
 * revision (revisions/), in the same transaction.
 */
export class BlogPostService extends BlogPostReads {
  constructor(
    categories: BlogCategoryService,
    private readonly tags: BlogTagService,
    private readonly attachments: BlogAttachments,
    private readonly images: BlogImageService,
  ) {
    super(categories);
  }

  async create(ctx: AppContext, input: Record<string, unknown>): Promise<BlogPostView> {
    const r = await this.reader(ctx);
    checkAuthor(r.user, input);
    await ctx.services.writes.count(ctx, r.user.id, 'post');
    const data = parseInput(postSchema, input);
    const file = await this.attachments.store(changeOf(input));
    const id = await this.withFile(ctx, file, null, (tx) => this.insert(tx, r, data, input.content, file));
    return this.viewOf(ctx, r, id);
  }

  private async insert(
    tx: EntityManager,
    r: Reader,
    data: PostInput,
    content: unknown,
    file: StoredAttachment | null,
  ): Promise<number> {
    const v = await this.values(tx, r, data, content, null);
    const [row]: { id: number }[] = await tx.execute(
      `insert into blog_post (title, content, content_html, category_id, author_id, allow_comments, allow_likes,
                              publish_start, publish_end, is_pin, pin_start, pin_end, is_draft, require_confirmation,
                              attachment_key, attachment_name, attachment_type, attachment_size, attachment_thumb_key, updated_by_id, mention_ids)
       values (?, ?::jsonb, ?, ?, ?, ?, ?, ?::date, ?::date, ?, ?::date, ?::date, ?, ?, ?, ?, ?, ?, ?, ?, ?::int[]) returning id`,
      [
        v.title,
        JSON.stringify(v.content.doc),
        v.content.html,
        v.categoryId,
        r.user.id,
        v.allowComments,
        v.allowLikes,
        v.publishStart,
        v.publishEnd,
        v.isPin,
        v.pinStart,
        v.pinEnd,
        v.isDraft,
        v.requireConfirmation,
        ...fileColumns(file),
        r.user.id,
        pgArray(v.mentionIds),
      ],
    );
    await this.setTags(tx, row!.id, v.tagIds);
    await this.images.bind(tx, r.user.id, row!.id, v.content.doc);
    await recordRevisions(tx, [row!.id], { savedById: r.user.id });
    const [after] = await this.rows(tx, [row!.id]);
    record(tx, {
      type: 'blog.post.created',
      aggregateId: row!.id,
      actorId: r.user.id,
      payload: { post: snapshot(after!) },
    });
    await requestReading(tx, after!);
    await notifyPostMentions(tx, after!);
    return row!.id;
  }

  /**
   * Runs a save's transaction with the file it stored beforehand: if the save fails, the new file
   * goes; once it commits, the files it replaced go (`replaced` is read inside the transaction).
   */
  private async withFile<T>(
    ctx: AppContext,
    file: StoredAttachment | null,
    replaced: { keys: (string | null)[] } | null,
    work: (tx: EntityManager) => Promise<T>,
  ): Promise<T> {
    try {
      const result = await ctx.em.transactional(work);
      if (replaced) await this.attachments.remove(replaced.keys);
      return result;
    } catch (e) {
      if (file) await this.attachments.remove([file.key, file.thumbKey]);
      throw e;
    }
  }

  /** `restoredFrom`: the revision this save brings back (BlogPostRevisionService.restore). */
  async update(
    ctx: AppContext,
    id: number,
    input: Record<string, unknown>,
    o: { restoredFrom?: number } = {},
  ): Promise<BlogPostView> {
    const r = await this.reader(ctx);
    checkId(id, '投稿');
    const version = input.version;
    if (typeof version !== 'number')
      throw badInput('更新にはバージョン（version）が必要です。', [{ field: 'version', message: '必須' }]);
    checkAuthor(r.user, input);
    // An edit (a restore too) keeps a whole revision: counted with new posts, so no loop grows the history without limit.
    await ctx.services.writes.count(ctx, r.user.id, 'post');
    const data = parseInput(postSchema, input);
    const change = changeOf(input, 'keep');
    const file = await this.attachments.store(change);
    const replaced = { keys: [] as (string | null)[] };
    await this.withFile(ctx, file, replaced, async (tx) => {
      const before = await this.forWrite(tx, r, id, 'edit');
      await expectVersion(
        tx,
        { version: before.version, updatedAt: new Date(before.updated_at), updatedById: before.updated_by_id },
        version,
        () => this.viewOf(ctx, r, id),
        r.user.id,
      );
      const v = await this.values(tx, r, data, input.content, before);
      const old = valuesOf(before);
      const next = { ...v, content: v.content.html, tagIds: [...v.tagIds].sort((a, b) => a - b) };
      const changed: string[] = COMPARED.filter((k) => JSON.stringify(old[k]) !== JSON.stringify(next[k]));
      if (change.kind !== 'keep' && (file || before.attachment_key)) changed.push('attachment');
      if (changed.length === 0) return; // a save that changes nothing is not a new version
      const columns = change.kind === 'keep' ? keptColumns(before) : fileColumns(file);
      await tx.execute(
        `update blog_post set title = ?, content = ?::jsonb, content_html = ?, category_id = ?, allow_comments = ?, allow_likes = ?,
                publish_start = ?::date, publish_end = ?::date, is_pin = ?, pin_start = ?::date, pin_end = ?::date, is_draft = ?, require_confirmation = ?,
                attachment_key = ?, attachment_name = ?, attachment_type = ?, attachment_size = ?, attachment_thumb_key = ?,
                updated_by_id = ?, updated_at = clock_timestamp(), version = version + 1, mention_ids = ?::int[]
          where id = ?`,
        [
          v.title,
          JSON.stringify(v.content.doc),
          v.content.html,
          v.categoryId,
          v.allowComments,
          v.allowLikes,
          v.publishStart,
          v.publishEnd,
          v.isPin,
          v.pinStart,
          v.pinEnd,
          v.isDraft,
          v.requireConfirmation,
          ...columns,
          r.user.id,
          pgArray(v.mentionIds),
          id,
        ],
      );
      await this.setTags(tx, id, v.tagIds);
      await this.images.bind(tx, r.user.id, id, v.content.doc);
      await recordRevisions(tx, [id], { savedById: r.user.id, restoredFrom: o.restoredFrom });
      if (change.kind !== 'keep') replaced.keys.push(before.attachment_key, before.attachment_thumb_key);
      const [after] = await this.rows(tx, [id]);
      record(tx, {
        type: 'blog.post.updated',
        aggregateId: id,
        actorId: r.user.id,
        payload: { post: snapshot(after!), previous: snapshot(before), changed },
      });
      await requestReading(tx, after!);
      await notifyPostMentions(tx, after!);
    });
    return this.viewOf(ctx, r, id);
  }

  async delete(ctx: AppContext, id: number): Promise<boolean> {
    const r = await this.reader(ctx);
    checkId(id, '投稿');
    const replaced = { keys: [] as (string | null)[] };
    await this.withFile(ctx, null, replaced, async (tx) => {
      const before = await this.forWrite(tx, r, id, 'delete');
      // Its comments go by cascade; their files are removed with the post's once this commits.
      const comments: { attachment_key: string | null; attachment_thumb_key: string | null }[] = await tx.execute(
        `select attachment_key, attachment_thumb_key from blog_comment where post_id = ? and attachment_key is not null`,
        [id],
      );
      await withdrawAbout(tx, r.user.id, { postId: id });
      await tx.execute(`delete from blog_post where id = ?`, [id]);
      replaced.keys.push(
        before.attachment_key,
        before.attachment_thumb_key,
        ...comments.flatMap((c) => [c.attachment_key, c.attachment_thumb_key]),
      );
      record(tx, {
        type: 'blog.post.deleted',
        aggregateId: id,
        actorId: r.user.id,
        payload: { post: snapshot(before) },
      });
    });
    return true;
  }

  /** A body as readers will see it, checked and rendered as a save would (nothing is stored). */
  preview(content: unknown): string {
    return contentFromDocument(content).html;
  }

  /** A post's attachment (or its thumbnail) for whoever may read the post; NOT_FOUND otherwise. */
  async attachment(ctx: AppContext, id: number, thumbnail: boolean) {
    const r = await this.reader(ctx);
    checkId(id, '投稿');
    const [row] = await this.rows(ctx.em, [id]);
    if (!row || !mayRead(r.user, r.access, readableOf(row), r.today)) throw notFound('投稿');
    return this.attachments.openStored(
      { key: row.attachment_key, thumbKey: row.attachment_thumb_key, name: row.attachment_name },
      thumbnail,
    );
  }

  /** A picture of a post's body: to its uploader, and to whoever may read the post that shows it. */
  async image(ctx: AppContext, file: string) {
    const r = await this.reader(ctx);
    return this.images.open(ctx, file, async (postId) => {
      const [row] = await this.rows(ctx.em, [postId]);
      return !!row && mayRead(r.user, r.access, readableOf(row), r.today);
    });
  }

  /** The post locked for a change: NOT_FOUND when the caller may not see it, FORBIDDEN when they see it but may not do this. */
  private async forWrite(tx: EntityManager, r: Reader, id: number, what: 'edit' | 'delete'): Promise<PostRow> {
    const [row] = await this.rows(tx, [id], 'for update of p');
    if (!row || !mayRead(r.user, r.access, readableOf(row), r.today)) throw notFound('投稿');
    const own = row.author_id === r.user.id;
    if (what === 'edit' && !own) throw forbidden('投稿を編集できるのは作成者だけです。');
    if (what === 'delete' && !own && !isBlogAdmin(r.user.role))
      throw forbidden('投稿を削除できるのは作成者と管理者・システム管理者だけです。');
    return row;
  }

  /**
   * The values a save stores, with the rules that need the database or today: the category must be
   * one the author may post in, the tags must exist, the body is checked and rendered, the publish
   * start defaults to today (an edit keeps the stored one), the pin window to today + 7 days (an
   * edit of a pinned post keeps its window).
   */
  private async values(
    tx: EntityManager,
    r: Reader,
    data: PostInput,
    content: unknown,
    before: PostRow | null,
  ): Promise<PostValues> {
    if (data.categoryId !== null) this.categories.checkPostable(r.access, data.categoryId);
    await this.tags.checkExisting(tx, data.tagIds);
    const publishStart = data.publishStart ?? before?.publish_start ?? r.today;
    if (data.publishEnd !== null && data.publishEnd < publishStart) {
      throw badInput('公開終了日は公開開始日以降の日付にしてください。', [
        { field: 'publishEnd', message: '公開開始日以降の日付' },
      ]);
    }
    const keepPin = before?.is_pin && data.isPin && data.pinStart === null && data.pinEnd === null;
    const pin = keepPin
      ? { pinStart: before!.pin_start, pinEnd: before!.pin_end }
      : pinWindow(data.isPin, data.pinStart, data.pinEnd, r.today);
    if (pin.pinStart !== null && pin.pinEnd !== null && pin.pinEnd < pin.pinStart) {
      throw badInput('ピン留め終了日は開始日以降の日付にしてください。', [
        { field: 'pinEnd', message: '開始日以降の日付' },
      ]);
    }
    const body = content instanceof PostContent ? content : contentFromDocument(content);
    const audience = { categoryId: data.categoryId, authorId: before?.author_id ?? r.user.id };
    return {
      ...data,
      content: body,
      mentionIds: await checkMentions(tx, audience, mentionedIds(body.html), 'content'),
      publishStart,
      ...pin,
    };
  }

  private async setTags(tx: EntityManager, id: number, tagIds: number[]) {
    const ids = pgArray(tagIds);
    await tx.execute(`delete from blog_post_tag where post_id = ? and not (tag_id = any(?::int[]))`, [id, ids]);
    await tx.execute(`insert into blog_post_tag (post_id, tag_id) select ?, unnest(?::int[]) on conflict do nothing`, [
      id,
      ids,
    ]);
  }
}

type PostInput = ReturnType<typeof postSchema.parse>;

/** The attachment change a channel put in the input (`/api` reads upload_files; GraphQL has none: `absent`). */
const changeOf = (input: Record<string, unknown>, absent: AttachmentChange['kind'] = 'remove'): AttachmentChange =>
  (input.attachment as AttachmentChange | undefined) ?? ({ kind: absent } as AttachmentChange);

const fileColumns = (f: StoredAttachment | null) => [
  f?.key ?? null,
  f?.name ?? null,
  f?.type ?? null,
  f?.size ?? null,
  f?.thumbKey ?? null,
];
const keptColumns = (r: PostRow) => [
  r.attachment_key,
  r.attachment_name,
  r.attachment_type,
  r.attachment_size,
  r.attachment_thumb_key,
];

/** The author is always the signed-in employee: an `authorId` (the spec's author_id), if a caller sends one, must name them. */
function checkAuthor(user: CurrentUser, input: Record<string, unknown>) {
  const claimed = input.authorId;
  if (claimed === undefined || claimed === null || claimed === '') return;
  if (String(claimed) !== String(user.id))
    throw forbidden('作成者はログイン中の社員です（author_id が一致しません）。');
}
