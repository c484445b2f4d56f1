import { badInput } from '../../../platform/errors.js';
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

export function encodeSearchCursor(k: SearchKey): string {
  return Buffer.from(`s|${k.level}|${k.publishStart}|${k.id}`).toString('base64url');
}

export function decodeSearchCursor(after: string | null | undefined): SearchKey | null {
  if (after === null || after === undefined || after === '') return null;
  const [tag, level, publishStart, id] = Buffer.from(String(after), 'base64url').toString().split('|');
  const l = Number(level);
  const n = Number(id);
  if (tag !== 's' || !(l === 0 || l === 1 || l === 2) || !publishStart || !isCalendarDate(publishStart) || !isDbId(n)) {
    throw badInput('カーソルが正しくありません（前のページの nextCursor を指定してください）。', [{ field: 'after', message: 'nextCursor の値' }]);
  }
  return { level: l, publishStart, id: n };
}

/** The visibility rule in SQL over `p` (blog-post.visibility.ts readableSql) and the categories the viewer reads. */
export interface SearchViewer {
  id: number;
  readable: number[];
  rule: { sql: string; params: unknown[] };
}

/**
 * The two paths' bounds. `common`: a level's candidate rows in the index (rows with every key of a
 * term, in the viewer's categories) beyond this make the level common: its hits are looked for by
 * walking the newest visible posts, `window` at first, then on up to `budget` posts in one request.
 * A walk that used its budget ends the page early with a cursor that continues it, so a request
 * never reads more than about `common` index rows or `budget` posts per level, whatever the data.
 * A level with at most `common` candidates is read whole from the index, confirmed and sorted.
 * (Tests lower them to take the walk, and to stop it, on a few posts.)
 */
export const SEARCH_PATHS = { common: 2000, window: 500, budget: 4000 };

/** A PostgreSQL text[] literal of any strings. */
const textArray = (xs: string[]) => `{${xs.map((x) => `"${x.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;

const KEY = `p.id, to_char(p.publish_start, 'YYYY-MM-DD') as publish_start`;
const ORDER = `order by p.publish_start desc, p.id desc`;
const LEVELS = [0, 1, 2] as const;

interface Sql {
  sql: string;
  params: unknown[];
}

/**
 * The index rows of `source` having every key of `term` in one of the viewer's categories (keys are
 * `<category>:<n-gram>`, an expression index per source: one GIN lookup per category, OR-ed), as
 * SQL over `d`. The expression is the index's, verbatim (migration …090000_blog_search_slim).
 */
function keyed(term: string, source: Level, categories: number[]): Sql {
  if (!categories.length) return { sql: 'false', params: [] };
  const grams = queryGrams(term);
  return {
    sql: `d.source = ${source} and (${categories.map(() => 'blog_search_keys(d.norm, d.category_id) @> ?::text[]').join(' or ')})`,
    params: categories.map((c) => textArray(grams.map((g) => `${c}:${g}`))),
  };
}

/**
 * The post's level over its texts of sources up to `upTo`, as a lateral subquery `lv(level)` of
 * the post `post`: for each term the best source having it, and the worst of those; null unless every term is
 * there. One read of the post's rows by blog_search_doc_key, whatever the number of terms.
 */
function levelOf(terms: string[], upTo: Level, post = 'p.id'): Sql {
  const best = terms.map((_, i) => `min(d.source) filter (where strpos(d.norm, ?) > 0) as m${i}`).join(', ');
  const all = terms.map((_, i) => `m${i} is not null`).join(' and ');
  const worst = terms.length === 1 ? 'm0' : `case when ${all} then greatest(${terms.map((_, i) => `m${i}`).join(', ')}) end`;
  return {
    sql: `cross join lateral (select ${worst} as level from (select ${best} from blog_search_doc d where d.post_id = ${post} and d.source <= ${upTo}) m) lv`,
    params: [...terms],
  };
}

interface KeyRow {
  id: number;
  publish_start: string;
}

/** A way to find a level's candidates: the index rows of these (term, source) pairs, and how many they are (each count bounded). */
interface Candidates {
  pairs: { term: string; source: Level }[];
  rows: number;
}

/**
 * The fewest candidate rows for hits of `level`: a hit has every term in sources up to the level
 * and some term exactly there, so either one term's rows of every source up to the level, or every
 * term's rows of the level itself, whichever are fewer (one bounded count per pair, one statement).
 */
async function candidates(run: RunSql, viewer: SearchViewer, terms: string[], level: Level, counted: Map<string, number>): Promise<Candidates> {
  const upTo = LEVELS.filter((s) => s <= level);
  const key = (term: string, source: Level) => `${source}:${term}`;
  const pairs = terms.flatMap((term) => upTo.map((source) => ({ term, source }))).filter((p) => !counted.has(key(p.term, p.source)));
  if (pairs.length) {
    const counts = pairs.map((p) => keyed(p.term, p.source, viewer.readable));
    const [row] = await run<Record<string, number>>(
      `select ${counts.map((c, i) => `(select count(*)::int from (select 1 from blog_search_doc d where ${c.sql} limit ?) x) as n${i}`).join(', ')}`,
      counts.flatMap((c) => [...c.params, SEARCH_PATHS.common + 1]),
    );
    pairs.forEach((p, i) => counted.set(key(p.term, p.source), row![`n${i}`]!));
  }
  const n = (term: string, source: Level) => counted.get(key(term, source))!;
  const options = [...terms.map((term) => upTo.map((source) => ({ term, source }))), terms.map((term) => ({ term, source: level }))].map((ps) => ({
    pairs: ps,
    rows: ps.reduce((sum, p) => sum + n(p.term, p.source), 0),
  }));
  return options.reduce((a, b) => (b.rows < a.rows ? b : a));
}

/** Hits of one level, and where a walk stopped on its budget (the level's hits before that point are all there). */
interface LevelAnswer {
  hits: KeyRow[];
  stoppedAt: KeyRow | null;
}

/**
 * Up to `limit` hits of one level after `after`, newest first. Two paths, the same answer. The
 * index path reads the level's candidate rows (in the viewer's categories, plus the viewer's own
 * posts in others, found by author), reads each candidate's level and checks visibility, newest
 * first: its cost follows the word's rows the viewer may see. A common level (more than
 * SEARCH_PATHS.common candidate rows) is walked instead (`walk`).
 */
async function levelHits(
  run: RunSql,
  viewer: SearchViewer,
  terms: string[],
  level: Level,
  after: SearchKey | null,
  limit: number,
  counted: Map<string, number>,
): Promise<LevelAnswer> {
  const found = await candidates(run, viewer, terms, level, counted);
  if (found.rows > SEARCH_PATHS.common) return walk(run, viewer, terms, level, after, limit);
  const afterSql = after ? `and (p.publish_start, p.id) < (?::date, ?)` : '';
  const keys = found.pairs.map((p) => keyed(p.term, p.source, viewer.readable));
  const lv = levelOf(terms, level, 'v.id');
  // The candidates first, each confirmed by its own text, then their posts by key (as an array: the
  // planner misjudged a join with them into reading every visible post), the visible ones newest
  // first, and each one's level read only until the page is full.
  const hits = await run<KeyRow>(
    `with c as materialized (
       ${keys.map((k) => `select d.post_id from blog_search_doc d where ${k.sql} and strpos(d.norm, ?) > 0`).join(' union ')}
       union
       select d.post_id from blog_post a join blog_search_doc d on d.post_id = a.id and d.source <= ${level}
        where a.author_id = ? and (a.category_id is null or a.category_id <> all(?::int[])) and strpos(d.norm, ?) > 0)
     select v.id, v.publish_start from (
       select ${KEY}, p.publish_start as at from blog_post p
        where p.id = any(array(select post_id from c)) and ${viewer.rule.sql} ${afterSql} ${ORDER} offset 0) v
     ${lv.sql}
     where lv.level = ${level}
     order by v.at desc, v.id desc limit ?`,
    [
      ...found.pairs.flatMap((p, i) => [...keys[i]!.params, p.term]),
      viewer.id,
      pgArray(viewer.readable),
      terms[0],
      ...viewer.rule.params,
      ...(after ? [after.publishStart, after.id] : []),
      ...lv.params,
      limit,
    ],
  );
  return { hits, stoppedAt: null };
}

/**
 * The walk of a common level: the newest posts the viewer may read (the feed's per-category index,
 * merged), each post's level read by its key, in windows (`window`, then the rest of `budget`)
 * until `limit` hits, the last post, or the budget: then it stops where it got to.
 */
async function walk(run: RunSql, viewer: SearchViewer, terms: string[], level: Level, after: SearchKey | null, limit: number): Promise<LevelAnswer> {
  const hits: KeyRow[] = [];
  let from: KeyRow | null = after ? { publish_start: after.publishStart, id: after.id } : null;
  let walked = 0;
  for (let size = SEARCH_PATHS.window; ; size = SEARCH_PATHS.budget - walked) {
    const w = await windowHits(run, viewer, terms, level, from, size, limit - hits.length);
    hits.push(...w.hits);
    walked += w.walked;
    if (hits.length >= limit || w.walked < size || !w.last) return { hits, stoppedAt: null };
    if (walked >= SEARCH_PATHS.budget) return { hits, stoppedAt: w.last };
    from = w.last;
  }
}

/**
 * One window of the walk: the newest `size` posts before `from` that the viewer may read or wrote,
 * the first `limit` of them at this level (the window's order kept, so the probes stop there), how
 * many posts the window had and its last one.
 */
async function windowHits(run: RunSql, viewer: SearchViewer, terms: string[], level: Level, from: KeyRow | null, size: number, limit: number) {
  const fromSql = from ? `and (p.publish_start, p.id) < (?::date, ?)` : '';
  const fromParams = from ? [from.publish_start, from.id] : [];
  const lv = levelOf(terms, level);
  // Below the title, a post of this level has a term in a text of the level itself: one look by
  // the key first, so most posts of a window are passed without reading their other texts.
  const atLevel: Sql = level
    ? {
        sql: `and exists (select 1 from blog_search_doc e where e.post_id = p.id and e.source = ${level} and (${terms.map(() => 'strpos(e.norm, ?) > 0').join(' or ')}))`,
        params: [...terms],
      }
    : { sql: '', params: [] };
  const rows = await run<KeyRow & { hit: boolean; walked: number | null }>(
    `with k as materialized (
       select w.id, w.publish_start from (
         select x.id, x.publish_start from unnest(?::int[]) as c(id)
           cross join lateral (select p.id, p.publish_start from blog_post p where p.category_id = c.id and not p.is_draft ${fromSql} ${ORDER} limit ?) x
         union
         (select p.id, p.publish_start from blog_post p where p.author_id = ? ${fromSql} ${ORDER} limit ?)) w
       order by w.publish_start desc, w.id desc limit ?)
     (select ${KEY}, true as hit, null::int as walked from k join blog_post p on p.id = k.id ${lv.sql}
       where ${viewer.rule.sql} ${atLevel.sql} and lv.level = ${level}
       order by k.publish_start desc, k.id desc limit ?)
     union all
     (select k.id, to_char(k.publish_start, 'YYYY-MM-DD'), false, (select count(*)::int from k) from k order by k.publish_start, k.id limit 1)`,
    [pgArray(viewer.readable), ...fromParams, size, viewer.id, ...fromParams, size, size, ...lv.params, ...viewer.rule.params, ...atLevel.params, limit],
  );
  const last = rows.find((r) => !r.hit);
  return {
    hits: rows.filter((r) => r.hit).map((r) => ({ id: r.id, publish_start: r.publish_start })),
    walked: last?.walked ?? 0,
    last: last ? { id: last.id, publish_start: last.publish_start } : null,
  };
}

/**
 * One page of hits (ids with their level) in rank order after `after`, and the key to continue
 * from: the page's last hit, or where a walk stopped on its budget (the page is short then).
 */
export async function searchPage(
  run: RunSql,
  viewer: SearchViewer,
  terms: string[],
  after: SearchKey | null,
  limit: number,
): Promise<{ hits: { id: number; level: Level }[]; next: SearchKey | null }> {
  const hits: SearchKey[] = [];
  const counted = new Map<string, number>(); // bounded counts of (source, term), shared by the levels
  for (const level of LEVELS) {
    if (after && level < after.level) continue;
    const answer = await levelHits(run, viewer, terms, level, after?.level === level ? after : null, limit + 1 - hits.length, counted);
    hits.push(...answer.hits.map((r) => ({ level, publishStart: r.publish_start, id: r.id })));
    if (answer.stoppedAt && hits.length <= limit) {
      return { hits: hits.map((h) => ({ id: h.id, level: h.level })), next: { level, publishStart: answer.stoppedAt.publish_start, id: answer.stoppedAt.id } };
    }
    if (hits.length > limit) break;
  }
  const page = hits.slice(0, limit);
  return { hits: page.map((h) => ({ id: h.id, level: h.level })), next: hits.length > limit ? page[page.length - 1]! : null };
}

/** The searched texts of these posts that contain a term: each post's title and body, and its newest matching comment. */
export async function matchedTexts(run: RunSql, ids: number[], terms: string[]): Promise<{ post_id: number; source: Level; plain: string }[]> {
  if (!ids.length) return [];
  return run(
    `select distinct on (d.post_id, d.source) d.post_id, d.source, d.plain
       from blog_search_doc d left join blog_comment c on c.id = d.comment_id
      where d.post_id = any(?::int[]) and exists (select 1 from unnest(?::text[]) t(term) where strpos(d.norm, t.term) > 0)
      order by d.post_id, d.source, c.created_at desc nulls last, c.id desc`,
    [pgArray(ids), textArray(terms)],
  );
}
