import { badCursor, decodeCursor, encodeCursor } from '../../../platform/cursor.js';
import { pgArray } from '../../../platform/sql.js';
import { isCalendarDate, isDbId } from '../../../platform/validation.js';
import { queryGrams } from './blog-search.text.js';

/**
 * Runs one statement (`?` placeholders, bound): the service passes execBound over its EntityManager,
 * the search bench's bare handler a pg pool, so both run these very statements.
 */
export type RunSql = <T>(sql: string, params: unknown[]) => Promise<T[]>;

/** Where a post matched, best first: its title ranks above its body, its body above its comments. */
export const SOURCES = ['TITLE', 'CONTENT', 'COMMENT'] as const;
export type SearchSource = (typeof SOURCES)[number];
type Level = 0 | 1 | 2;

/** A hit's place in the ranking: level (best source), then newest publish start, then newest id. */
export interface SearchKey {
  level: Level;
  publishStart: string;
  id: number;
}

export const encodeSearchCursor = (k: SearchKey): string => encodeCursor('s', [k.level, k.publishStart, k.id]);

export function decodeSearchCursor(after: string | null | undefined): SearchKey | null {
  const c = decodeCursor(after, ['s'], 3);
  if (!c) return null;
  const [level, publishStart, id] = [Number(c.key[0]), c.key[1]!, Number(c.key[2])];
  if (!(level === 0 || level === 1 || level === 2) || !isCalendarDate(publishStart) || !isDbId(id)) throw badCursor();
  return { level, publishStart, id };
}

/** In `NEWEST` order a hit's place is its publish start and id alone (the level plays no part). */
export const encodeNewestCursor = (k: Omit<SearchKey, 'level'>): string => encodeCursor('n', [k.publishStart, k.id]);

export function decodeNewestCursor(after: string | null | undefined): SearchKey | null {
  const c = decodeCursor(after, ['n'], 2);
  if (!c) return null;
  const [publishStart, id] = [c.key[0]!, Number(c.key[1])];
  if (!isCalendarDate(publishStart) || !isDbId(id)) throw badCursor();
  return { level: 0, publishStart, id };
}

/** Relevance (where the terms are, then newest), or newest first whatever the level. */
export type SearchOrder = 'RELEVANCE' | 'NEWEST';

/**
 * The visibility rule in SQL over `p` (blog-post.visibility.ts readableSql) and the categories the
 * viewer reads; a search's filters are in both (the rule holds them, `readable` is narrowed to a
 * chosen category). `span`: publish starts within it, so a walk starts and ends there too.
 */
export interface SearchViewer {
  id: number;
  readable: number[];
  rule: { sql: string; params: unknown[] };
  span?: { from?: string; to?: string };
}

/**
 * The two paths' bounds. `common`: a range of levels whose candidate rows in the index (rows with
 * every key of a term, in the viewer's categories) are more than this is common: a single common
 * level is looked for by walking the newest visible posts, at most `budget` of them per request.
 * A walk that used its budget ends the page early with a cursor that continues it, so a request
 * never reads more than about `common` index rows per range or `budget` posts per level, whatever
 * the data. A range with at most `common` candidates is read whole from the index, confirmed and
 * sorted. (Tests lower them to take the walk, and to stop it, on a few posts.)
 */
export const SEARCH_PATHS = { common: 500, budget: 4000 };

/** A PostgreSQL text[] literal of any strings. */
const textArray = (xs: string[]) => `{${xs.map((x) => `"${x.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;

const KEY = `p.id, to_char(p.publish_start, 'YYYY-MM-DD') as publish_start`;
const ORDER = `order by p.publish_start desc, p.id desc`;
const LEVELS = [0, 1, 2] as const;
const TOP: Level = 2;

interface Sql {
  sql: string;
  params: unknown[];
}

/**
 * The index rows of `source` having every n-gram of `term` in one of the viewer's categories, as
 * SQL over `d`. Keys are `<category>:<n-gram>` (an expression index per source) and all of a text's
 * keys carry its own category, so "has the gram in one of these categories" is one overlap with the
 * gram under each category, and the term is those overlaps for each of its grams: one GIN scan.
 * The expression is the index's, verbatim (migration …090000_blog_search_slim).
 */
function keyed(term: string, source: Level, categories: number[]): Sql {
  if (!categories.length) return { sql: 'false', params: [] };
  const grams = queryGrams(term);
  return {
    sql: `d.source = ${source} and ${grams.map(() => 'blog_search_keys(d.norm, d.category_id) && ?::text[]').join(' and ')}`,
    params: grams.map((g) => textArray(categories.map((c) => `${c}:${g}`))),
  };
}

/**
 * The post's level over its texts of sources up to `upTo`, as a scalar subquery on the post `post`:
 * for each term the best source having it, and the worst of those; null unless every term is there.
 * One read of the post's rows by blog_search_doc_key, whatever the number of terms.
 */
function levelOf(terms: string[], upTo: Level, post: string): Sql {
  const best = terms.map((_, i) => `min(d.source) filter (where strpos(d.norm, ?) > 0) as m${i}`).join(', ');
  const all = terms.map((_, i) => `m${i} is not null`).join(' and ');
  const worst =
    terms.length === 1 ? 'm0' : `case when ${all} then greatest(${terms.map((_, i) => `m${i}`).join(', ')}) end`;
  return {
    sql: `(select ${worst} from (select ${best} from blog_search_doc d where d.post_id = ${post} and d.source <= ${upTo}) m)`,
    params: [...terms],
  };
}

interface KeyRow {
  id: number;
  publish_start: string;
}

/** Bounded counts of the index rows of every (term, source), in one statement: `rows(term, source)`. */
async function countRows(
  run: RunSql,
  viewer: SearchViewer,
  terms: string[],
): Promise<(term: string, source: Level) => number> {
  const pairs = terms.flatMap((term) => LEVELS.map((source) => ({ term, source })));
  const counts = pairs.map((p) => keyed(p.term, p.source, viewer.readable));
  const [row] = await run<Record<string, number>>(
    `select ${counts.map((c, i) => `(select count(*)::int from (select 1 from blog_search_doc d where ${c.sql} limit ?) x) as n${i}`).join(', ')}`,
    counts.flatMap((c) => [...c.params, SEARCH_PATHS.common + 1]),
  );
  const n = new Map(pairs.map((p, i) => [`${p.source}:${p.term}`, row![`n${i}`]!]));
  return (term, source) => n.get(`${source}:${term}`)!;
}

/** A way to find the candidates of a range of levels: the index rows of these (term, source) pairs, and how many they are. */
interface Candidates {
  pairs: { term: string; source: Level }[];
  rows: number;
}

/**
 * The fewest candidate rows for hits of levels `lo`..`hi`: a hit has every term in sources up to
 * its level and some term exactly at its level, so either one term's rows of every source up to
 * `hi`, or every term's rows of the sources `lo`..`hi`, whichever are fewer.
 */
function candidates(terms: string[], lo: Level, hi: Level, rows: (term: string, source: Level) => number): Candidates {
  const upTo = LEVELS.filter((s) => s <= hi);
  const within = LEVELS.filter((s) => s >= lo && s <= hi);
  const options = [
    ...terms.map((term) => upTo.map((source) => ({ term, source }))),
    terms.flatMap((term) => within.map((source) => ({ term, source }))),
  ];
  return options
    .map((pairs) => ({ pairs, rows: pairs.reduce((sum, p) => sum + rows(p.term, p.source), 0) }))
    .reduce((a, b) => (b.rows < a.rows ? b : a));
}

/** Hits of a range of levels in rank order, and where a walk stopped on its budget (the level's hits before that point are all there). */
interface RangeAnswer {
  hits: (KeyRow & { level: Level })[];
  stoppedAt: KeyRow | null;
}

/**
 * The index path: up to `limit` hits of the levels `lo`..`hi` after `after` in rank order. It reads
 * the range's candidate rows (in the viewer's categories, plus the viewer's own posts in others,
 * found by author), each confirmed by its own text, then their posts by key (as an array: the
 * planner misjudged a join with them into reading every visible post), the visible ones newest
 * first, and each one's level: its cost follows the words' rows the viewer may see. For one level
 * the levels are read only until the page is full.
 */
async function indexHits(
  run: RunSql,
  viewer: SearchViewer,
  terms: string[],
  found: Candidates,
  lo: Level,
  hi: Level,
  after: SearchKey | null,
  limit: number,
  newest = false,
): Promise<RangeAnswer> {
  const keys = found.pairs.map((p) => keyed(p.term, p.source, viewer.readable));
  const lv = levelOf(terms, hi, 'v.id');
  // One level, or newest first: the cursor narrows the posts before their levels are read. Several
  // levels by relevance: the cursor's level is `lo`.
  const inner = after && (lo === hi || newest);
  const outer = after && lo < hi && !newest;
  const hits = await run<KeyRow & { level: Level }>(
    `with c as materialized (
       ${keys.map((k) => `select d.post_id from blog_search_doc d where ${k.sql} and strpos(d.norm, ?) > 0`).join(' union ')}
       union
       select d.post_id from blog_post a join blog_search_doc d on d.post_id = a.id and d.source <= ${hi}
        where a.author_id = ? and (a.category_id is null or a.category_id <> all(?::int[])) and strpos(d.norm, ?) > 0)
     select v.id, v.publish_start, lv.level from (
       select ${KEY}, p.publish_start as at from blog_post p
        where p.id = any(array(select post_id from c)) and ${viewer.rule.sql} ${inner ? 'and (p.publish_start, p.id) < (?::date, ?)' : ''} ${ORDER} offset 0) v
     cross join lateral (select ${lv.sql} as level offset 0) lv
     where ${lo === hi ? `lv.level = ${lo}` : `lv.level between ${lo} and ${hi}`} ${outer ? `and (lv.level > ${lo} or (v.at, v.id) < (?::date, ?))` : ''}
     order by ${newest ? '' : 'lv.level, '}v.at desc, v.id desc limit ?`,
    [
      ...found.pairs.flatMap((p, i) => [...keys[i]!.params, p.term]),
      viewer.id,
      pgArray(viewer.readable),
      terms[0],
      ...viewer.rule.params,
      ...(inner ? [after.publishStart, after.id] : []),
      ...lv.params,
      ...(outer ? [after.publishStart, after.id] : []),
      limit,
    ],
  );
  return { hits, stoppedAt: null };
}

/**
 * The walk of a common level: the newest posts the viewer may read, merged lazily from the feed's
 * per-category index (and the author's own posts elsewhere from theirs), each post's level read by
 * its key as the walk reaches it, until `limit` hits, the last post or the `budget`th: then it stops
 * where it got to. One statement; it reads only as far as it needs.
 */
async function walk(
  run: RunSql,
  viewer: SearchViewer,
  terms: string[],
  level: Level | 'any',
  after: SearchKey | null,
  limit: number,
): Promise<RangeAnswer> {
  const span = viewer.span ?? {};
  const fromSql = [
    after ? `and (p.publish_start, p.id) < (?::date, ?)` : '',
    span.to ? 'and p.publish_start <= ?::date' : '',
    span.from ? 'and p.publish_start >= ?::date' : '',
  ].join(' ');
  const fromParams = [
    ...(after ? [after.publishStart, after.id] : []),
    ...(span.to ? [span.to] : []),
    ...(span.from ? [span.from] : []),
  ];
  // Only the posts' keys here, each source in order with its own limit (so the planner merges
  // index-only scans lazily rather than sorting them all); the rest is read per post, as reached.
  const budget = SEARCH_PATHS.budget;
  const branches: Sql[] = [
    ...viewer.readable.map((c) => ({
      sql: `(select p.id, p.publish_start from blog_post p where p.category_id = ? and not p.is_draft ${fromSql} ${ORDER} limit ?)`,
      params: [c, ...fromParams, budget],
    })),
    {
      sql: `(select p.id, p.publish_start from blog_post p where p.author_id = ? and not coalesce(not p.is_draft and p.category_id = any(?::int[]), false) ${fromSql} ${ORDER} limit ?)`,
      params: [viewer.id, pgArray(viewer.readable), ...fromParams, budget],
    },
  ];
  const lv = levelOf(terms, level === 'any' ? TOP : level, 's.id');
  // Below the title, a post of this level has a term in a text of the level itself: one look by
  // the key first, so most posts are passed without reading their other texts. The post's own row
  // (visibility) is read only for the hits. Any level: every term somewhere is enough.
  const atLevel: Sql =
    level !== 'any' && level
      ? {
          sql: `coalesce((select true from blog_search_doc e where e.post_id = s.id and e.source = ${level} and (${terms.map(() => 'strpos(e.norm, ?) > 0').join(' or ')}) limit 1), false) and`,
          params: [...terms],
        }
      : { sql: '', params: [] };
  // Each post is numbered as the walk reaches it; the page takes the hits and, if the walk ends
  // first, its last post (where a next walk starts). The merge and the checks stop at the limit.
  const rows = await run<KeyRow & { hit: boolean; n: number; last: boolean }>(
    `select x.id, x.publish_start, x.hit, x.n, x.last from (
       select s.id, to_char(s.publish_start, 'YYYY-MM-DD') as publish_start, row_number() over w as n, lead(s.id) over w is null as last,
              case when ${atLevel.sql} coalesce(${lv.sql} ${level === 'any' ? 'is not null' : `= ${level}`}, false) then coalesce((select ${viewer.rule.sql} from blog_post p where p.id = s.id), false) else false end as hit
         from (select u.id, u.publish_start from (${branches.map((b) => b.sql).join(' union all ')}) u order by u.publish_start desc, u.id desc limit ?) s
       window w as (order by s.publish_start desc, s.id desc)) x
      where x.hit or x.last limit ?`,
    [...atLevel.params, ...lv.params, ...viewer.rule.params, ...branches.flatMap((b) => b.params), budget, limit],
  );
  const hits = rows
    .filter((r) => r.hit)
    .map((r) => ({ id: r.id, publish_start: r.publish_start, level: level === 'any' ? TOP : level }));
  const end = rows.find((r) => r.last);
  const stopped = hits.length < limit && end !== undefined && end.n >= budget;
  return { hits, stoppedAt: stopped ? { id: end.id, publish_start: end.publish_start } : null };
}

/**
 * One page of hits (ids with their level) in rank order after `after`, and the key to continue
 * from: the page's last hit, or where a walk stopped on its budget (the page is short then).
 * Levels are read in ranges: from the first level to read, the widest range of levels whose
 * candidates are not common by the index path, else the level alone by the walk, and on.
 */
export async function searchPage(
  run: RunSql,
  viewer: SearchViewer,
  terms: string[],
  after: SearchKey | null,
  limit: number,
): Promise<SearchAnswer> {
  const hits: SearchKey[] = [];
  const rows = await countRows(run, viewer, terms);
  const candidateRows = candidates(terms, 0, TOP, rows).rows;
  for (let lo: Level = after?.level ?? 0; hits.length <= limit;) {
    let hi: Level = TOP;
    while (hi > lo && candidates(terms, lo, hi, rows).rows > SEARCH_PATHS.common) hi = (hi - 1) as Level;
    const found = candidates(terms, lo, hi, rows);
    const from = after?.level === lo ? after : null;
    const want = limit + 1 - hits.length;
    const answer =
      found.rows > SEARCH_PATHS.common
        ? await walk(run, viewer, terms, lo, from, want)
        : await indexHits(run, viewer, terms, found, lo, hi, from, want);
    hits.push(...answer.hits.map((r) => ({ level: r.level, publishStart: r.publish_start, id: r.id })));
    if (answer.stoppedAt && hits.length <= limit) {
      return {
        hits: hits.map((h) => ({ id: h.id, level: h.level })),
        next: { level: lo, publishStart: answer.stoppedAt.publish_start, id: answer.stoppedAt.id },
        candidateRows,
      };
    }
    if (hi === TOP) break;
    lo = (hi + 1) as Level;
  }
  const page = hits.slice(0, limit);
  return {
    hits: page.map((h) => ({ id: h.id, level: h.level })),
    next: hits.length > limit ? page[page.length - 1]! : null,
    candidateRows,
  };
}

/** A page of hits, where the next one starts, and how many index rows all levels' candidates are (countHits's cost). */
export interface SearchAnswer {
  hits: { id: number; level: Level }[];
  next: SearchKey | null;
  candidateRows: number;
}

/**
 * One page of hits newest first, whatever the level (the order a reader asks for by 新しい順): all
 * levels as one range, by the index path when their candidates are few, else one walk that takes a
 * post with every term anywhere. Each hit's level (where it matched best) is read for the page.
 */
export async function searchNewest(
  run: RunSql,
  viewer: SearchViewer,
  terms: string[],
  after: SearchKey | null,
  limit: number,
): Promise<SearchAnswer> {
  const found = candidates(terms, 0, TOP, await countRows(run, viewer, terms));
  const answer =
    found.rows > SEARCH_PATHS.common
      ? await walk(run, viewer, terms, 'any', after, limit + 1)
      : await indexHits(run, viewer, terms, found, 0, TOP, after, limit + 1, true);
  const page = answer.hits.slice(0, limit);
  const levels =
    found.rows > SEARCH_PATHS.common
      ? await levelsOf(
          run,
          page.map((h) => h.id),
          terms,
        )
      : new Map<number, Level>();
  const key = (h: KeyRow) => ({ level: 0 as Level, publishStart: h.publish_start, id: h.id });
  return {
    hits: page.map((h) => ({ id: h.id, level: levels.get(h.id) ?? h.level })),
    next:
      answer.stoppedAt && page.length < limit
        ? key(answer.stoppedAt)
        : answer.hits.length > limit
          ? key(page[limit - 1]!)
          : null,
    candidateRows: found.rows,
  };
}

/** Where each of these posts matched best (every term somewhere), read by key. */
async function levelsOf(run: RunSql, ids: number[], terms: string[]): Promise<Map<number, Level>> {
  if (!ids.length) return new Map();
  const lv = levelOf(terms, TOP, 'x.id');
  const rows = await run<{ id: number; level: Level }>(`select x.id, ${lv.sql} as level from unnest(?::int[]) x(id)`, [
    ...lv.params,
    pgArray(ids),
  ]);
  return new Map(rows.map((r) => [r.id, r.level]));
}

/**
 * How many posts the search finds, when that is cheap to know: a first page that ended the search
 * has them all; otherwise when the candidates of every level are few (the index path reads them
 * whole, at most SEARCH_PATHS.common rows). Null when they are many.
 */
export async function countHits(
  run: RunSql,
  viewer: SearchViewer,
  terms: string[],
  first: SearchAnswer,
): Promise<number | null> {
  if (!first.next) return first.hits.length;
  if (first.candidateRows > SEARCH_PATHS.common) return null;
  const found = candidates(terms, 0, TOP, await countRows(run, viewer, terms));
  return (await indexHits(run, viewer, terms, found, 0, TOP, null, SEARCH_PATHS.common + 1, true)).hits.length;
}

/** The searched texts of these posts that contain a term: each post's title and body, and its newest matching comment. */
export async function matchedTexts(
  run: RunSql,
  ids: number[],
  terms: string[],
): Promise<{ post_id: number; source: Level; plain: string }[]> {
  if (!ids.length) return [];
  return run(
    `select distinct on (d.post_id, d.source) d.post_id, d.source, d.plain
       from blog_search_doc d left join blog_comment c on c.id = d.comment_id
      where d.post_id = any(?::int[]) and exists (select 1 from unnest(?::text[]) t(term) where strpos(d.norm, t.term) > 0)
      order by d.post_id, d.source, c.created_at desc nulls last, c.id desc`,
    [pgArray(ids), textArray(terms)],
  );
}
