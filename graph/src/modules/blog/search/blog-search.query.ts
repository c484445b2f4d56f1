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
 * `common`: a level's list in the index longer than this (rows having all the query's n-grams)
 * makes a word common: its hits are looked for among the newest `window` visible posts first. A
 * shorter list is read whole from the index, confirmed by substring and sorted. (Tests lower both
 * to take the dense path on a few posts.)
 */
export const SEARCH_PATHS = { common: 2000, window: 500 };

/** A PostgreSQL text[] literal of any strings. */
const textArray = (xs: string[]) => `{${xs.map((x) => `"${x.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;

const KEY = `p.id, to_char(p.publish_start, 'YYYY-MM-DD') as publish_start`;
const ORDER = `order by p.publish_start desc, p.id desc`;

/**
 * A post has a row of `level` whose normalized text contains the query (the substring check that
 * confirms every match). A scalar subquery, probed per post through blog_search_doc_key: as EXISTS
 * the planner may turn it into a join that reads every row of the table.
 */
const matches = (level: Level) => `coalesce((select true from blog_search_doc d where d.post_id = p.id and d.source = ${level} and strpos(d.norm, ?) > 0 limit 1), false)`;

/** Of level `level`: no match in a better source (and, with `self`, a match in this one). */
function levelMatch(level: Level, q: string, self: boolean): { sql: string; params: unknown[] } {
  const better = ([0, 1, 2] as Level[]).filter((l) => l < level);
  const parts = [...(self ? [matches(level)] : []), ...better.map((l) => `not ${matches(l)}`)];
  return { sql: parts.join(' and ') || 'true', params: [...(self ? [q] : []), ...better.map(() => q)] };
}

interface KeyRow {
  id: number;
  publish_start: string;
}

/**
 * The level's rows in the index having every key of the query in one of the viewer's categories
 * (keys are `<category>:<n-gram>`, one GIN lookup per category, OR-ed), as SQL over `d`.
 */
function keyed(level: Level, q: string, categories: number[]): { sql: string; params: unknown[] } {
  if (!categories.length) return { sql: 'false', params: [] };
  const grams = queryGrams(q);
  return {
    sql: `d.source = ${level} and (${categories.map(() => 'd.grams @> ?::text[]').join(' or ')})`,
    params: categories.map((c) => textArray(grams.map((g) => `${c}:${g}`))),
  };
}

/**
 * Up to `limit` hits of one level after `after`, newest first. Two paths, the same answer. The
 * index path reads the level's rows with every key of the query in the viewer's categories (plus
 * the viewer's own posts, found by author), confirms each by substring and keeps the visible ones,
 * newest first: its cost follows the word's rows the viewer may see, never the whole table's. For a
 * common word (more than SEARCH_PATHS.common such rows) the dense path goes first: it walks the
 * newest `window` visible posts (the feed's per-category index, merged) and probes each, stopping
 * at `limit` hits; finding fewer, it leaves the answer to the index path.
 */
async function levelHits(run: RunSql, viewer: SearchViewer, q: string, level: Level, after: SearchKey | null, limit: number): Promise<KeyRow[]> {
  const better = levelMatch(level, q, false);
  const keys = keyed(level, q, viewer.readable);
  const afterSql = after ? `and (p.publish_start, p.id) < (?::date, ?)` : '';
  const afterParams = after ? [after.publishStart, after.id] : [];
  const [{ n }] = await run<{ n: number }>(`select count(*)::int as n from (select 1 from blog_search_doc d where ${keys.sql} limit ?) x`, [
    ...keys.params,
    SEARCH_PATHS.common + 1,
  ]);
  if (n > SEARCH_PATHS.common) {
    const dense = await denseHits(run, viewer, levelMatch(level, q, true), afterSql, afterParams, limit);
    if (dense.length >= limit) return dense;
  }
  return run<KeyRow>(
    `select ${KEY} from blog_post p
      where p.id in (select d.post_id from blog_search_doc d where ${keys.sql} and strpos(d.norm, ?) > 0
                     union
                     select d.post_id from blog_post a join blog_search_doc d on d.post_id = a.id and d.source = ${level}
                      where a.author_id = ? and strpos(d.norm, ?) > 0)
        and ${viewer.rule.sql} and ${better.sql} ${afterSql}
      ${ORDER} limit ?`,
    [...keys.params, q, viewer.id, q, ...viewer.rule.params, ...better.params, ...afterParams, limit],
  );
}

/** The dense path: the first `limit` hits among the newest `window` posts the viewer may read (k's order kept, so it stops early). */
function denseHits(run: RunSql, viewer: SearchViewer, m: { sql: string; params: unknown[] }, afterSql: string, afterParams: unknown[], limit: number): Promise<KeyRow[]> {
  return run<KeyRow>(
    `select ${KEY} from (
       select w.id, w.publish_start from (
         select x.id, x.publish_start from unnest(?::int[]) as c(id)
           cross join lateral (select p.id, p.publish_start from blog_post p where p.category_id = c.id and not p.is_draft ${afterSql} ${ORDER} limit ?) x
         union
         (select p.id, p.publish_start from blog_post p where p.author_id = ? ${afterSql} ${ORDER} limit ?)) w
       order by w.publish_start desc, w.id desc limit ?) k
     join blog_post p on p.id = k.id
     where ${viewer.rule.sql} and ${m.sql}
     order by k.publish_start desc, k.id desc limit ?`,
    [pgArray(viewer.readable), ...afterParams, SEARCH_PATHS.window, viewer.id, ...afterParams, SEARCH_PATHS.window, SEARCH_PATHS.window, ...viewer.rule.params, ...m.params, limit],
  );
}

/** One page of hits (ids with their level) in rank order after `after`, and the key to continue from. */
export async function searchPage(
  run: RunSql,
  viewer: SearchViewer,
  q: string,
  after: SearchKey | null,
  limit: number,
): Promise<{ hits: { id: number; level: Level }[]; next: SearchKey | null }> {
  const hits: SearchKey[] = [];
  for (const level of [0, 1, 2] as Level[]) {
    if (after && level < after.level) continue;
    const want = limit + 1 - hits.length;
    const rows = await levelHits(run, viewer, q, level, after?.level === level ? after : null, want);
    hits.push(...rows.map((r) => ({ level, publishStart: r.publish_start, id: r.id })));
    if (hits.length > limit) break;
  }
  const page = hits.slice(0, limit);
  return { hits: page.map((h) => ({ id: h.id, level: h.level })), next: hits.length > limit ? page[page.length - 1]! : null };
}

/** The searched texts of these posts that contain `q`: each post's title and body, and its newest matching comment. */
export async function matchedTexts(run: RunSql, ids: number[], q: string): Promise<{ post_id: number; source: Level; plain: string }[]> {
  if (!ids.length) return [];
  return run(
    `select distinct on (d.post_id, d.source) d.post_id, d.source, d.plain
       from blog_search_doc d left join blog_comment c on c.id = d.comment_id
      where d.post_id = any(?::int[]) and strpos(d.norm, ?) > 0
      order by d.post_id, d.source, c.created_at desc nulls last, c.id desc`,
    [pgArray(ids), q],
  );
}
