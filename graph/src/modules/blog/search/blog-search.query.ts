import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput } from '../../../platform/errors.js';
import { execBound, pgArray } from '../../../platform/sql.js';
import { isCalendarDate, isDbId } from '../../../platform/validation.js';
import { queryGrams } from './blog-search.text.js';

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
export const SEARCH_PATHS = { common: 2000, window: 1000 };

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

/** Of level `level`: matches there and in no better source. */
function levelMatch(level: Level, q: string): { sql: string; params: unknown[] } {
  const better = ([0, 1, 2] as Level[]).filter((l) => l < level);
  return { sql: [matches(level), ...better.map((l) => `not ${matches(l)}`)].join(' and '), params: [q, ...better.map(() => q)] };
}

interface KeyRow {
  id: number;
  publish_start: string;
}

/**
 * Up to `limit` hits of one level after `after`, newest first. Two paths, the same answer. The
 * index path reads the level's rows having every n-gram of the query from its GIN index, confirms
 * each by substring and keeps the visible ones, newest first. For a common word (SEARCH_PATHS) the dense
 * path goes first: it walks the newest `window` visible posts (the feed's per-category index, merged)
 * and probes each, stopping at `limit` hits; finding fewer, it leaves the answer to the index path.
 */
async function levelHits(em: EntityManager, viewer: SearchViewer, q: string, level: Level, after: SearchKey | null, limit: number): Promise<KeyRow[]> {
  const m = levelMatch(level, q);
  const grams = textArray(queryGrams(q));
  const afterSql = after ? `and (p.publish_start, p.id) < (?::date, ?)` : '';
  const afterParams = after ? [after.publishStart, after.id] : [];
  const [{ n }] = await execBound<{ n: number }>(
    em,
    `select count(*)::int as n from (select 1 from blog_search_doc d where d.source = ${level} and d.grams @> ?::text[] limit ?) x`,
    [grams, SEARCH_PATHS.common + 1],
  );
  if (n === 0) return [];
  if (n > SEARCH_PATHS.common) {
    const dense = await denseHits(em, viewer, m, afterSql, afterParams, limit);
    if (dense.length >= limit) return dense;
  }
  return execBound(
    em,
    `select ${KEY} from blog_post p
      where p.id in (select d.post_id from blog_search_doc d where d.source = ${level} and d.grams @> ?::text[] and strpos(d.norm, ?) > 0)
        and ${viewer.rule.sql} and ${m.sql} ${afterSql}
      ${ORDER} limit ?`,
    [grams, q, ...viewer.rule.params, ...m.params, ...afterParams, limit],
  );
}

/** The dense path: the first `limit` hits among the newest `window` posts the viewer may read (k's order kept, so it stops early). */
function denseHits(em: EntityManager, viewer: SearchViewer, m: { sql: string; params: unknown[] }, afterSql: string, afterParams: unknown[], limit: number): Promise<KeyRow[]> {
  return execBound(
    em,
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
  em: EntityManager,
  viewer: SearchViewer,
  q: string,
  after: SearchKey | null,
  limit: number,
): Promise<{ hits: { id: number; level: Level }[]; next: SearchKey | null }> {
  const hits: SearchKey[] = [];
  for (const level of [0, 1, 2] as Level[]) {
    if (after && level < after.level) continue;
    const want = limit + 1 - hits.length;
    const rows = await levelHits(em, viewer, q, level, after?.level === level ? after : null, want);
    hits.push(...rows.map((r) => ({ level, publishStart: r.publish_start, id: r.id })));
    if (hits.length > limit) break;
  }
  const page = hits.slice(0, limit);
  return { hits: page.map((h) => ({ id: h.id, level: h.level })), next: hits.length > limit ? page[page.length - 1]! : null };
}

/** The searched texts of these posts that contain `q`: each post's title and body, and its newest matching comment. */
export async function matchedTexts(em: EntityManager, ids: number[], q: string): Promise<{ post_id: number; source: Level; plain: string }[]> {
  if (!ids.length) return [];
  return execBound(
    em,
    `select distinct on (d.post_id, d.source) d.post_id, d.source, d.plain
       from blog_search_doc d left join blog_comment c on c.id = d.comment_id
      where d.post_id = any(?::int[]) and strpos(d.norm, ?) > 0
      order by d.post_id, d.source, c.created_at desc nulls last, c.id desc`,
    [pgArray(ids), q],
  );
}
