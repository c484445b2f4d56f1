import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppContext } from '../../platform/context.js';
import type { CurrentUser } from '../auth/session.service.js';
import { requireUser } from '../../platform/authz.js';
import { forbidden, notFound } from '../../platform/errors.js';
import { checkPage } from '../../platform/pagination.js';
import { pgArray } from '../../platform/sql.js';
import { checkId } from '../../platform/validation.js';
import { isBlogAdmin } from './blog.enums.js';
import type { BlogCategoryService, CategoryAccess } from './blog-category.service.js';
import { checkFeedFilter, decodeCursor, encodeCursor, feedPage, pinnedIds, type FeedFilter } from './blog-post.feed.js';
import { POST_SELECT, readableOf, toView, type PostRow } from './blog-post.queries.js';
import { tokyoToday } from './blog-post.rules.js';
import type { BlogFeedPage, BlogPostView } from './blog-post.types.js';
import { mayRead, readableSql } from './blog-post.visibility.js';
import type { StatisticsRule } from './statistics/statistics.visibility.js';

/** The 速報 panel shows at most this many posts. */
export const MAX_PINNED = 50;
const DEFAULT_FEED_PAGE = 20;

/** Who reads, what they may read, and which day it is (one request sees one day). */
export interface Reader {
  user: CurrentUser;
  access: CategoryAccess;
  today: string;
  /**
   * A request's reader only: the post rows it has read (or is reading), by id, so a post that two
   * root fields show (blogFeed and blogPinned asked side by side by a tool) is read once for the two.
   */
  rows?: Map<number, Promise<PostRow | undefined>>;
}

/**
 * What reads blog posts: the feed, 速報, one post, and the checks other parts of the blog read posts
 * through (reading, likes, comments, search, statistics). Every read goes through the one visibility
 * rule (blog-post.visibility.ts; the feed's SQL states the same): the author always, the members of
 * the category while the post is published, 管理者/システム管理者 members also scheduled and expired.
 */
export class BlogPostReads {
  constructor(protected readonly categories: BlogCategoryService) {}

  /** Each request's reader for reads (feed, 速報, detail): one operation may ask several of them (blogFeed and blogPinned, blogPost). */
  private readonly readers = new WeakMap<AppContext, Promise<Reader>>();

  protected async reader(ctx: AppContext): Promise<Reader> {
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
  async readableRow(
    ctx: AppContext,
    em: EntityManager,
    id: number,
    lock: 'key share' | 'no key update' = 'key share',
  ): Promise<PostRow> {
    checkId(id, '投稿');
    const r = await this.reader(ctx);
    // In a write's transaction the row is key-share locked: a deletion racing the write either
    // waits for it, or commits first and the post is not found (never a foreign-key error). Writes
    // that go one at a time per post (likes) take `no key update` here, at once: two that each held
    // the share lock and then asked for more waited for each other (a deadlock the soak found).
    const [row] = await this.rows(em, [id], em.getTransactionContext() ? `for ${lock} of p` : '');
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
  protected async viewOf(ctx: AppContext, r: Reader, id: number): Promise<BlogPostView> {
    checkId(id, '投稿');
    const [row] = await this.rows(ctx.em, [id]);
    if (!row || !mayRead(r.user, r.access, readableOf(row), r.today)) throw notFound('投稿');
    return toView(row, r.user, r.today);
  }

  protected async rows(em: EntityManager, ids: number[], tail = ''): Promise<PostRow[]> {
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
