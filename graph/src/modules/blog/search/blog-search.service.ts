import type { AppContext } from '../../../platform/context.js';
import type { CursorSealer } from '../../../platform/cursor.js';
import { checkPage } from '../../../platform/pagination.js';
import { execBound } from '../../../platform/sql.js';
import type { BlogPostReads } from '../blog-post.reads.js';
import type { BlogPostView } from '../blog-post.types.js';
import { badInput } from '../../../platform/errors.js';
import { isCalendarDate, isDbId } from '../../../platform/validation.js';
import {
  countHits,
  decodeNewestCursor,
  decodeSearchCursor,
  encodeNewestCursor,
  encodeSearchCursor,
  matchedTexts,
  searchNewest,
  searchPage,
  SOURCES,
  type RunSql,
  type SearchAnswer,
  type SearchOrder,
  type SearchSource,
  type SearchViewer,
} from './blog-search.queries.js';
import { checkQuery, snippetOf, type Snippet } from './blog-search.text.js';

const DEFAULT_PAGE = 20;

export interface SearchHit {
  post: BlogPostView;
  /** The best place it matched (the ranking's first key). */
  matchedIn: SearchSource;
  /** Each place it matched: the whole title, a window of the body, the newest matching comment. */
  snippets: (Snippet & { source: SearchSource })[];
}

export interface SearchPage {
  items: SearchHit[];
  nextCursor: string | null;
  /** How many posts it finds, on the first page when that is cheap to know (few candidates); else null. */
  totalCount: number | null;
}

/** What a search is narrowed to: a category, an author, publish starts from and to (YYYY-MM-DD, both ends included). */
export interface SearchFilter {
  categoryId?: unknown;
  authorId?: unknown;
  from?: unknown;
  to?: unknown;
}

const ORDERS: readonly SearchOrder[] = ['RELEVANCE', 'NEWEST'];

/** The filter checked (a bad one is a 400 naming its field), or nothing to narrow. */
function checkFilter(f: SearchFilter | null | undefined): {
  categoryId?: number;
  authorId?: number;
  from?: string;
  to?: string;
} {
  const out: { categoryId?: number; authorId?: number; from?: string; to?: string } = {};
  const errors: { field: string; message: string }[] = [];
  for (const k of ['categoryId', 'authorId'] as const) {
    const v = f?.[k];
    if (v === undefined || v === null || v === '') continue;
    const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
    if (typeof n === 'number' && isDbId(n)) out[k] = n;
    else errors.push({ field: k, message: '正の整数' });
  }
  for (const k of ['from', 'to'] as const) {
    const v = f?.[k];
    if (v === undefined || v === null || v === '') continue;
    if (typeof v === 'string' && isCalendarDate(v)) out[k] = v;
    else errors.push({ field: k, message: 'YYYY-MM-DD の日付' });
  }
  if (errors.length) throw badInput('検索の絞り込みが正しくありません。', errors);
  if (out.from && out.to && out.from > out.to)
    throw badInput('期間の開始日は終了日以前の日付にしてください。', [{ field: 'to', message: '開始日以降の日付' }]);
  return out;
}

/** The viewer narrowed by the filter: the rule holds every condition, a chosen category narrows the index's keys. */
function narrowed(viewer: SearchViewer, f: ReturnType<typeof checkFilter>): SearchViewer {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    conditions.push(sql);
    params.push(value);
  };
  if (f.categoryId !== undefined) add('p.category_id = ?', f.categoryId);
  if (f.authorId !== undefined) add('p.author_id = ?', f.authorId);
  if (f.from) add('p.publish_start >= ?::date', f.from);
  if (f.to) add('p.publish_start <= ?::date', f.to);
  if (!conditions.length) return viewer;
  return {
    id: viewer.id,
    readable: f.categoryId === undefined ? viewer.readable : viewer.readable.filter((c) => c === f.categoryId),
    rule: { sql: `(${viewer.rule.sql} and ${conditions.join(' and ')})`, params: [...viewer.rule.params, ...params] },
    span: { from: f.from, to: f.to },
  };
}

/**
 * Search over the posts the viewer may read (the one visibility rule, blog-post.visibility.ts):
 * titles, bodies and comments, any one or more characters, Japanese or not. Words separated by
 * spaces are terms that must all be found, each anywhere in the post (its title, body or any of its
 * comments); "..." keeps a phrase. Ranked by where the post has them all: every term in its title
 * first, then with the body, then with comments; each newest publish start first; continued by
 * `nextCursor`. The index and its two paths: blog-search.queries.ts.
 */
export class BlogSearchService {
  /** `cursors` seals nextCursor: where a walk stopped may be a post the caller cannot see. */
  constructor(
    private readonly posts: BlogPostReads,
    private readonly cursors: CursorSealer,
  ) {}

  async search(
    ctx: AppContext,
    query: unknown,
    after?: string | null,
    limit?: unknown,
    o: { filter?: SearchFilter | null; order?: unknown } = {},
  ): Promise<SearchPage> {
    const terms = checkQuery(query);
    const order = (o.order ?? 'RELEVANCE') as SearchOrder;
    if (!ORDERS.includes(order))
      throw badInput('並び順は RELEVANCE（関連度）か NEWEST（新しい順）です。', [
        { field: 'order', message: '並び順' },
      ]);
    const filter = checkFilter(o.filter);
    const run: RunSql = (sql, params) => execBound(ctx.em, sql, params);
    const page = checkPage(0, limit ?? DEFAULT_PAGE);
    const opened = this.cursors.open(after);
    const cursor = order === 'NEWEST' ? decodeNewestCursor(opened) : decodeSearchCursor(opened);
    let found: SearchAnswer = { hits: [], next: null, candidateRows: 0 };
    let totalCount: number | null = null;
    let reading: Promise<Awaited<ReturnType<typeof matchedTexts>>> = Promise.resolve([]);
    const views = await this.posts.readableViews(ctx, async (readable) => {
      const viewer = narrowed(readable, filter);
      found = await (order === 'NEWEST' ? searchNewest : searchPage)(run, viewer, terms, cursor, page.limit);
      if (!cursor) totalCount = await countHits(run, viewer, terms, found);
      const ids = found.hits.map((h) => h.id);
      // The snippets' texts are read while the posts are (another pooled connection); only the
      // posts that pass mayRead below are shown with them.
      reading = matchedTexts(run, ids, terms);
      reading.catch(() => undefined);
      return ids;
    });
    const texts = await reading;
    const level = new Map(found.hits.map((h) => [h.id, h.level]));
    return {
      items: views.map((post) => ({
        post,
        matchedIn: SOURCES[level.get(post.id)!],
        snippets: texts
          .filter((t) => t.post_id === post.id)
          .map((t) => ({ source: SOURCES[t.source], ...snippetOf(t.plain, terms) })),
      })),
      nextCursor: found.next
        ? this.cursors.seal(order === 'NEWEST' ? encodeNewestCursor(found.next) : encodeSearchCursor(found.next))
        : null,
      totalCount,
    };
  }
}
