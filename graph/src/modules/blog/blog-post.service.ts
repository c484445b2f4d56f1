import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppContext } from '../../platform/context.js';
import type { CurrentUser } from '../auth/session.service.js';
import { requireUser } from '../../platform/authz.js';
import { badInput, forbidden, notFound } from '../../platform/errors.js';
import { record } from '../../platform/events/outbox.js';
import { checkPage } from '../../platform/pagination.js';
import { pgArray } from '../../platform/sql.js';
import { checkId, parseInput } from '../../platform/validation.js';
import { expectVersion } from '../../platform/versioning.js';
import { isBlogAdmin } from './blog.enums.js';
import type { BlogCategoryService, CategoryAccess } from './blog-category.service.js';
import type { BlogTagService } from './blog-tag.service.js';
import { BlogAttachments, type AttachmentChange, type StoredAttachment } from './blog-post.attachment.js';
import { contentFromDocument, PostContent } from './blog-post.content.js';
import type { BlogImageService } from './blog-image.service.js';
import { checkFeedFilter, decodeCursor, encodeCursor, feedPage, pinnedIds, type FeedFilter } from './blog-post.feed.js';
import { postSchema } from './blog-post.fields.js';
import { POST_SELECT, readableOf, snapshot, toView, windowOf, type PostRow } from './blog-post.queries.js';
import { pinWindow, tokyoToday } from './blog-post.rules.js';
import type { BlogFeedPage, BlogPostView } from './blog-post.types.js';
import { mayRead, readableSql } from './blog-post.visibility.js';
import { requestReading } from './reading/blog-reading.readers.js';
import type { StatisticsRule } from './statistics/statistics.visibility.js';
import { withdrawAbout } from '../notifications/notification.writes.js';

/** The 速報 panel shows at most this many posts. */
export const MAX_PINNED = 50;
const DEFAULT_FEED_PAGE = 20;

/** Who reads, what they may read, and which day it is (one request sees one day). */
interface Reader {
  user: CurrentUser;
  access: CategoryAccess;
  today: string;
  /**
   * A request's reader only: the post rows it has read (or is reading), by id, so a post that two
   * root fields show (blogFeed and blogPinned asked side by side by a tool) is read once for the two.
   */
  rows?: Map<number, Promise<PostRow | undefined>>;
}

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
  };
}

/**
 * Blog posts. Every read goes through the one visibility rule (blog-post.visibility.ts; the feed's
 * SQL states the same): the author always, the members of the category while the post is
 * published, 管理者/システム管理者 members also scheduled and expired. Any employee writes in a
 * category they may post in (BlogCategoryService.checkPostable); only the author edits; the author
 * and 管理者/システム管理者 delete. Every change records its event in the same transaction.
 */
export class BlogPostService {
  constructor(
    private readonly categories: BlogCategoryService,
    private readonly tags: BlogTagService,
    private readonly attachments: BlogAttachments,
    private readonly images: BlogImageService,
  ) {}

  /** Each request's reader for reads (feed, 速報, detail): one operation may ask several of them (blogFeed and blogPinned, blogPost). */
  private readonly readers = new WeakMap<AppContext, Promise<Reader>>();

  private async reader(ctx: AppContext): Promise<Reader> {
    const user = requireUser(ctx);
    return { user, access: await this.categories.access(ctx.em, user), today: tokyoToday() };
  }

  /**
   * The request's reader, worked out once however many of its fields read posts. Only queries read
   * through it (a document of mutations answers each write through that write's own `reader`), so
   * nothing in a request changes what it holds.
   */
  private readingReader(ctx: AppContext): Promise<Reader> {
    let r = this.readers.get(ctx);
    if (!r) {
      r = this.reader(ctx).then((reader) => ({ ...reader, rows: new Map() }));
      this.readers.set(ctx, r);
      r.catch(() => this.readers.delete(ctx));
    }
    return r;
  }

  /**
   * A page of the feed; `withPinned`: 速報 too (the /blog page's first request), its rows and the
   * page's read together, so each statement over the shown posts (rows, engagement, comment counts)
   * runs once for both lists.
   */
  async feed(
    ctx: AppContext,
    filter: FeedFilter,
    after?: string | null,
    limit?: unknown,
    { withPinned = false } = {},
  ): Promise<BlogFeedPage> {
    const r = await this.readingReader(ctx);
    const page = checkPage(0, limit ?? DEFAULT_FEED_PAGE);
    const outsideWindow = this.checkFeed(r.user, filter);
    const cursor = decodeCursor(after);
    const [{ ids, next }, pinnedList] = await Promise.all([
      feedPage(
        ctx.em,
        { id: r.user.id, readable: r.access.readable, outsideWindow },
        filter,
        cursor,
        page.limit,
        r.today,
      ),
      withPinned ? this.pinnedIdsOf(ctx, r) : null,
    ]);
    const views = await this.views(ctx.em, r, [...new Set([...ids, ...(pinnedList ?? [])])]);
    const byId = new Map(views.map((v) => [v.id, v]));
    const pick = (list: number[]) => list.flatMap((id) => byId.get(id) ?? []);
    return { items: pick(ids), nextCursor: next ? encodeCursor(next) : null, pinned: pinnedList && pick(pinnedList) };
  }

  /**
   * The filter of a feed, checked (a bad id or title is refused; only 管理者 and システム管理者 ask
   * for others' scheduled and expired posts): whether it asks for posts outside their window.
   */
  checkFeed(user: CurrentUser, filter: FeedFilter): boolean {
    checkFeedFilter(filter);
    const outsideWindow = filter.includeOutsideWindow === true;
    if (outsideWindow && !isBlogAdmin(user.role))
      throw forbidden('公開予定・公開終了の投稿を一覧できるのは管理者・システム管理者だけです。');
    return outsideWindow;
  }

  /** 速報: the posts pinned today that the viewer may read. */
  async pinned(ctx: AppContext): Promise<BlogPostView[]> {
    const r = await this.readingReader(ctx);
    return this.views(ctx.em, r, await this.pinnedIdsOf(ctx, r));
  }

  private pinnedIdsOf(ctx: AppContext, r: Reader): Promise<number[]> {
    return pinnedIds(ctx.em, { id: r.user.id, readable: r.access.readable, outsideWindow: false }, r.today, MAX_PINNED);
  }

  async get(ctx: AppContext, id: number): Promise<BlogPostView> {
    return this.viewOf(ctx, await this.readingReader(ctx), id);
  }

  /**
   * The stored row of a post the signed-in employee may read, read in `em` (NOT_FOUND otherwise):
   * the one rule for what hangs off a post (likes, seen marks, saves, comments).
   */
  async readableRow(ctx: AppContext, em: EntityManager, id: number): Promise<PostRow> {
    checkId(id, '投稿');
    const r = await this.reader(ctx);
    // In a write's transaction the row is key-share locked: a deletion racing the write either
    // waits for it, or commits first and the post is not found (never a foreign-key error).
    const [row] = await this.rows(em, [id], em.getTransactionContext() ? 'for key share of p' : '');
    if (!row || !mayRead(r.user, r.access, readableOf(row), r.today)) throw notFound('投稿');
    return row;
  }

  /** Of `tagIds`, those on at least one post the signed-in employee may read now (who created a tag is told only there: blog-tag.service.ts). */
  async tagsOnReadablePosts(ctx: AppContext, tagIds: number[]): Promise<Set<number>> {
    const r = await this.reader(ctx);
    const rule = readableSql(r.user, r.access, r.today);
    // Per tag, the first readable post found through blog_post_tag_tag_idx: bounded by the tags asked, not the posts.
    const rows: { id: number }[] = await ctx.em.execute(
      `select t.id from unnest(?::int[]) t(id)
        where exists (select 1 from blog_post_tag pt join blog_post p on p.id = pt.post_id where pt.tag_id = t.id and ${rule.sql})`,
      [pgArray(tagIds), ...rule.params],
    );
    return new Set(rows.map((t) => t.id));
  }

  /** Of `ids`, those the signed-in employee may read, in the given order (one reader, one read of the rows). */
  async readableIds(ctx: AppContext, em: EntityManager, ids: number[]): Promise<number[]> {
    const r = await this.reader(ctx);
    const rows = new Map((await this.rows(em, ids)).map((row) => [row.id, row]));
    return ids.filter((id) => {
      const row = rows.get(id);
      return row !== undefined && mayRead(r.user, r.access, readableOf(row), r.today);
    });
  }

  /**
   * Search (search/blog-search.service.ts) reads with the request's reader: `choose` picks ids in
   * SQL under the visibility rule (readableSql), and the views are checked again with `mayRead`.
   */
  async readableViews(
    ctx: AppContext,
    choose: (viewer: { id: number; readable: number[]; rule: { sql: string; params: unknown[] } }) => Promise<number[]>,
  ): Promise<BlogPostView[]> {
    const r = await this.readingReader(ctx);
    const ids = await choose({
      id: r.user.id,
      readable: r.access.readable,
      rule: readableSql(r.user, r.access, r.today),
    });
    const rows = new Map((await this.rows(ctx.em, ids)).map((row) => [row.id, row]));
    return ids.flatMap((id) => {
      const row = rows.get(id);
      return row && mayRead(r.user, r.access, readableOf(row), r.today) ? [toView(row, r.user, r.today)] : [];
    });
  }

  /**
   * The statistics' rule over `p` (blog_post): published posts (never a draft, publish start reached)
   * that the signed-in employee may read today; for 管理者 and システム管理者 those of every category.
   */
  async statisticsRule(ctx: AppContext): Promise<StatisticsRule> {
    const r = await this.reader(ctx);
    const all = (await ctx.em.execute<{ id: number }[]>(`select id from blog_category order by id`)).map((c) => c.id);
    const admin = isBlogAdmin(r.user.role);
    const categoryIds = admin ? all : r.access.readable;
    const rule = readableSql(r.user, { readable: categoryIds }, r.today);
    return {
      sql: `(not p.is_draft and p.publish_start <= ?::date and ${rule.sql})`,
      params: [r.today, ...rule.params],
      today: r.today,
      categoryIds,
      otherCategoryIds: [0, ...all.filter((id) => !categoryIds.includes(id))],
      categoryCount: all.length,
      viewerId: r.user.id,
      windowed: !admin,
    };
  }

  /** One post as `r` may see it (a write answers with the post as saved, through its own reader). */
  private async viewOf(ctx: AppContext, r: Reader, id: number): Promise<BlogPostView> {
    checkId(id, '投稿');
    const [row] = await this.rows(ctx.em, [id]);
    if (!row || !mayRead(r.user, r.access, readableOf(row), r.today)) throw notFound('投稿');
    return toView(row, r.user, r.today);
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
                              attachment_key, attachment_name, attachment_type, attachment_size, attachment_thumb_key, updated_by_id)
       values (?, ?::jsonb, ?, ?, ?, ?, ?, ?::date, ?::date, ?, ?::date, ?::date, ?, ?, ?, ?, ?, ?, ?, ?) returning id`,
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
      ],
    );
    await this.setTags(tx, row!.id, v.tagIds);
    await this.images.bind(tx, r.user.id, row!.id, v.content.doc);
    const [after] = await this.rows(tx, [row!.id]);
    record(tx, {
      type: 'blog.post.created',
      aggregateId: row!.id,
      actorId: r.user.id,
      payload: { post: snapshot(after!) },
    });
    await requestReading(tx, after!);
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

  async update(ctx: AppContext, id: number, input: Record<string, unknown>): Promise<BlogPostView> {
    const r = await this.reader(ctx);
    checkId(id, '投稿');
    const version = input.version;
    if (typeof version !== 'number')
      throw badInput('更新にはバージョン（version）が必要です。', [{ field: 'version', message: '必須' }]);
    checkAuthor(r.user, input);
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
                updated_by_id = ?, updated_at = clock_timestamp(), version = version + 1
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
          id,
        ],
      );
      await this.setTags(tx, id, v.tagIds);
      await this.images.bind(tx, r.user.id, id, v.content.doc);
      if (change.kind !== 'keep') replaced.keys.push(before.attachment_key, before.attachment_thumb_key);
      const [after] = await this.rows(tx, [id]);
      record(tx, {
        type: 'blog.post.updated',
        aggregateId: id,
        actorId: r.user.id,
        payload: { post: snapshot(after!), previous: snapshot(before), changed },
      });
      await requestReading(tx, after!);
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
    return {
      ...data,
      content: content instanceof PostContent ? content : contentFromDocument(content),
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

  private async rows(em: EntityManager, ids: number[], tail = ''): Promise<PostRow[]> {
    if (!ids.length) return [];
    return em.execute(`${POST_SELECT} where p.id = any(?::int[]) ${tail}`, [pgArray(ids)]);
  }

  /**
   * Views of posts already known to be visible (the feed's SQL chose them), in the given order. A
   * request's reader reads each row once: ids it read, or is reading for another field, are taken
   * from there, the others in one statement.
   */
  private async views(em: EntityManager, r: Reader, ids: number[]): Promise<BlogPostView[]> {
    const known = r.rows ?? new Map<number, Promise<PostRow | undefined>>();
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length) {
      const read = this.rows(em, missing).then((rows) => new Map(rows.map((row) => [row.id, row])));
      for (const id of missing)
        known.set(
          id,
          read.then((rows) => rows.get(id)),
        );
    }
    const rows = await Promise.all(ids.map((id) => known.get(id)!));
    return rows.flatMap((row) => (row ? [toView(row, r.user, r.today)] : []));
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
