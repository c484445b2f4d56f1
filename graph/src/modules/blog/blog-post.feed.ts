import type { EntityManager } from '@mikro-orm/postgresql';
import { containsPattern } from '../../platform/list-query.js';
import { badCursor, decodeCursor as decodeOpaque, encodeCursor as encodeOpaque } from '../../platform/cursor.js';
import { pgArray } from '../../platform/sql.js';
import { checkId, checkSearchText, isCalendarDate, isDbId } from '../../platform/validation.js';
import { BlogFeedScope, BlogPostState } from './blog.enums.js';
import { SQL, isPinnedOn, stateOf, type PostWindow } from './blog-post.rules.js';

export interface FeedFilter {
  scope?: BlogFeedScope | null;
  title?: string | null;
  tagId?: number | null;
  categoryId?: number | null;
  departmentId?: number | null;
  includeOutsideWindow?: boolean | null;
  /** Leave out the posts pinned today (the web shows them in 速報 above the feed). */
  withoutPinned?: boolean | null;
}

/** Where the feed is: in the pinned part ('p') or the rest ('r'), after the post (publishStart, id). */
interface Cursor {
  part: 'p' | 'r';
  publishStart: string;
  id: number;
}

export const encodeCursor = (c: Cursor): string => encodeOpaque(c.part, [c.publishStart, c.id]);

export function decodeCursor(after: string | null | undefined): Cursor | null {
  const c = decodeOpaque(after, ['p', 'r'], 2);
  if (!c) return null;
  const [publishStart, id] = [c.key[0]!, Number(c.key[1])];
  if (!isCalendarDate(publishStart) || !isDbId(id)) throw badCursor();
  return { part: c.tag as Cursor['part'], publishStart, id };
}

interface Clause {
  sql: string;
  params: unknown[];
}
const and = (cs: Clause[]): Clause => ({
  sql: cs.map((c) => c.sql).join(' and ') || 'true',
  params: cs.flatMap((c) => c.params),
});

/** Who is asking and what they may read (categories from BlogCategoryService.access). */
export interface FeedViewer {
  id: number;
  readable: number[];
  /** 管理者/システム管理者 asked for scheduled and expired posts too. */
  outsideWindow: boolean;
}

interface KeyRow {
  id: number;
  publish_start: string;
}

const pinnedNow = (today: string): Clause => ({ sql: SQL.pinnedNow, params: [today, today, today, today] });
const inWindow = (today: string): Clause => ({ sql: SQL.inWindow, params: [today, today] });
const after = (c: Cursor | null): Clause[] =>
  c ? [{ sql: `(p.publish_start, p.id) < (?::date, ?)`, params: [c.publishStart, c.id] }] : [];
const ORDER = `order by p.publish_start desc, p.id desc`;
const KEY = `p.id, to_char(p.publish_start, 'YYYY-MM-DD') as publish_start`;

/**
 * What a post must carry to be judged against a filter outside SQL (live delivery, blog.live.ts):
 * as it is now, with what the viewer has to do with it.
 */
export interface FeedCandidate extends Pick<
  PostWindow,
  'isDraft' | 'publishStart' | 'publishEnd' | 'isPin' | 'pinStart' | 'pinEnd'
> {
  authorId: number;
  authorDepartmentId: number | null;
  categoryId: number | null;
  title: string;
  tagIds: number[];
  /** The viewer belongs to the post's category now. */
  inReadableCategory: boolean;
  /** The viewer has saved it. */
  savedByViewer: boolean;
}

/**
 * Whether `feedPage` lists the post (on some page) for `viewer` under `f`: the feed's SQL below
 * stated for one post, so a card inserted live is exactly one a reload would show. Keep the two
 * together (blog.live-feed.test.ts checks them against each other for every filter). The title
 * matches as ILIKE does (case-insensitive substring; the database's lower() is Unicode-aware).
 */
export function onFeed(
  viewer: Pick<FeedViewer, 'id' | 'outsideWindow'>,
  f: FeedFilter,
  p: FeedCandidate,
  today: string,
): boolean {
  const own = p.authorId === viewer.id;
  if (f.categoryId != null && p.categoryId !== f.categoryId) return false;
  if (f.scope === BlogFeedScope.MINE) {
    if (!own) return false;
  } else if (
    !p.inReadableCategory ||
    p.isDraft ||
    !(viewer.outsideWindow || own || stateOf(p, today) === BlogPostState.PUBLISHED)
  )
    return false;
  if (f.scope === BlogFeedScope.SAVED && !p.savedByViewer) return false;
  const title = f.title?.trim();
  if (title && !p.title.toLowerCase().includes(title.toLowerCase())) return false;
  if (f.tagId != null && !p.tagIds.includes(f.tagId)) return false;
  if (f.departmentId != null && p.authorDepartmentId !== f.departmentId) return false;
  if (f.withoutPinned && !p.isDraft && isPinnedOn(p, today)) return false;
  return true;
}

/** The filter's own checks (ids, title length); who may ask for posts outside their window is the service's. */
export function checkFeedFilter(f: FeedFilter): void {
  checkSearchText(f.title, 'title', 'タイトル');
  for (const [id, label] of [
    [f.tagId, 'タグ'],
    [f.categoryId, 'カテゴリ'],
    [f.departmentId, '部署'],
  ] as const) {
    if (id != null) checkId(id, label);
  }
}

/** The filter's conditions over `p` (checked before: checkFeedFilter). */
function filters(f: FeedFilter, viewerId: number): Clause[] {
  const out: Clause[] = [];
  if (f.scope === BlogFeedScope.SAVED)
    out.push({ sql: `p.id in (select s.post_id from blog_save s where s.employee_id = ?)`, params: [viewerId] });
  const title = f.title?.trim();
  if (title) out.push({ sql: `p.title ilike ?`, params: [containsPattern(title)] });
  if (f.tagId != null)
    out.push({
      sql: `exists (select 1 from blog_post_tag pt where pt.post_id = p.id and pt.tag_id = ?)`,
      params: [f.tagId],
    });
  if (f.departmentId != null)
    out.push({
      sql: `p.author_id in (select e.id from employee e where e.department_id = ?)`,
      params: [f.departmentId],
    });
  return out;
}

/**
 * One page of the feed: posts pinned today first, then the rest, each part newest publish start
 * first (then newest id), continued by keyset from `cursor`. ALL reads each of the viewer's
 * categories from blog_post_feed_idx and merges them (categories × one page of rows, however many
 * posts there are); MINE reads the author's posts from blog_post_author_idx, drafts included;
 * SAVED is ALL narrowed to the viewer's saves (blog_save_employee_idx). Returns the ids in feed order and the next cursor.
 */
export async function feedPage(
  em: EntityManager,
  viewer: FeedViewer,
  f: FeedFilter,
  cursor: Cursor | null,
  limit: number,
  today: string,
): Promise<{ ids: number[]; next: Cursor | null }> {
  const mine = f.scope === BlogFeedScope.MINE;
  const extra = filters(f, viewer.id);
  let categories = viewer.readable;
  if (f.categoryId != null) categories = mine ? [f.categoryId] : categories.filter((c) => c === f.categoryId);
  if (!mine && categories.length === 0) return { ids: [], next: null };
  const source: Clause = mine
    ? and([
        { sql: 'p.author_id = ?', params: [viewer.id] },
        ...(f.categoryId != null ? [{ sql: 'p.category_id = ?', params: [f.categoryId] }] : []),
      ])
    : { sql: 'p.category_id = any(?::int[])', params: [pgArray(categories)] };

  let pinned: KeyRow[] = [];
  if (!f.withoutPinned && (!cursor || cursor.part === 'p')) {
    const w = and([source, { sql: 'not p.is_draft', params: [] }, pinnedNow(today), ...extra, ...after(cursor)]);
    pinned = await em.execute(`select ${KEY} from blog_post p where ${w.sql} ${ORDER} limit ?`, [
      ...w.params,
      limit + 1,
    ]);
    if (pinned.length > limit)
      return { ids: pinned.slice(0, limit).map((r) => r.id), next: keyOf('p', pinned[limit - 1]!) };
  }
  const ids = pinned.map((r) => r.id);
  const want = limit - ids.length;
  const restCursor = cursor?.part === 'r' ? cursor : null;
  const notPinned: Clause = { sql: `not (not p.is_draft and ${SQL.pinnedNow})`, params: pinnedNow(today).params };
  let rest: KeyRow[];
  if (mine) {
    const w = and([source, notPinned, ...extra, ...after(restCursor)]);
    rest = await em.execute(`select ${KEY} from blog_post p where ${w.sql} ${ORDER} limit ?`, [...w.params, want + 1]);
  } else {
    const visible: Clause = viewer.outsideWindow
      ? { sql: 'true', params: [] }
      : { sql: `(p.author_id = ? or ${SQL.inWindow})`, params: [viewer.id, ...inWindow(today).params] };
    const w = and([
      { sql: 'p.category_id = c.id', params: [] },
      { sql: 'not p.is_draft', params: [] },
      visible,
      notPinned,
      ...extra,
      ...after(restCursor),
    ]);
    rest = await em.execute(
      `select x.id, x.publish_start from unnest(?::int[]) as c(id)
         cross join lateral (select ${KEY}, p.publish_start as sort_key from blog_post p where ${w.sql} ${ORDER} limit ?) x
        order by x.sort_key desc, x.id desc limit ?`,
      [pgArray(categories), ...w.params, want + 1, want + 1],
    );
  }
  const taken = rest.slice(0, want);
  ids.push(...taken.map((r) => r.id));
  if (rest.length <= want) return { ids, next: null };
  // The page ended exactly with the pinned part: the next one starts after its last pinned post.
  return { ids, next: taken.length ? keyOf('r', taken[taken.length - 1]!) : keyOf('p', pinned[pinned.length - 1]!) };
}

const keyOf = (part: Cursor['part'], r: KeyRow): Cursor => ({ part, publishStart: r.publish_start, id: r.id });

/** 速報: every post pinned today among those the viewer may read (at most `limit`), newest publish start first. */
export async function pinnedIds(
  em: EntityManager,
  viewer: FeedViewer,
  today: string,
  limit: number,
): Promise<number[]> {
  if (!viewer.readable.length) return [];
  const w = and([
    { sql: 'p.category_id = any(?::int[])', params: [pgArray(viewer.readable)] },
    { sql: 'not p.is_draft', params: [] },
    pinnedNow(today),
  ]);
  const rows: KeyRow[] = await em.execute(`select ${KEY} from blog_post p where ${w.sql} ${ORDER} limit ?`, [
    ...w.params,
    limit,
  ]);
  return rows.map((r) => r.id);
}
