/**
 * Bench child: search's bare baseline (bench/lib/bare.ts: node:http + pg, the same session lookup),
 * answering the bench's document (the first page of blogSearch: ids, titles, where each matched,
 * snippets). Two ways, chosen by the request:
 * - the load's requests: the service's own statements (searchPage, countHits and matchedTexts of
 *   graph/src/modules/blog/search/blog-search.queries.ts, run on a pg pool instead of MikroORM; the
 *   visibility rule readableSql), so the ratio measures the stack, not the SQL;
 * - the identity check's requests (variable `like: true`, which the GraphQL document ignores): a
 *   sequential LIKE scan of every searchable text of the visible posts (bench/search/sql.ts), so
 *   the check proves the index finds exactly what scanning finds, in the same order.
 * Query normalization and snippets are the platform's pure functions (blog-search.text.ts).
 */
import {
  type EmployeeRole,
  readableSql,
  encodeSearchCursor,
  countHits,
  matchedTexts,
  searchPage,
  type RunSql,
  normalizeText,
  queryTerms,
  snippetOf,
} from '@intranet/graph/areas';
import { serveBare } from '../lib/bare.js';
import { ACCESS_SQL, LIKE_SCAN_SQL, TEXTS_SQL } from './sql.js';
import { tokyoToday } from '@intranet/schema/calendar/tokyo';

const PAGE = 20;
const SOURCES = ['TITLE', 'CONTENT', 'COMMENT'];

interface Hit {
  id: number;
  level: number;
}

await serveBare('search', async (pool, viewer, v) => {
  const terms = queryTerms(normalizeText(String(v.q ?? '')));
  const today = tokyoToday();
  const readable = (await pool.query<{ id: number; member: boolean }>(ACCESS_SQL, [viewer.id])).rows
    .filter((r) => r.member)
    .map((r) => r.id);
  const run: RunSql = async <T>(sql: string, params: unknown[]) => {
    let n = 0;
    return (
      await pool.query(
        sql.replace(/\?/g, () => `$${++n}`),
        params,
      )
    ).rows as T[];
  };
  let page: Hit[];
  let next: string | null;
  let texts: { post_id: number; source: number; plain: string }[];
  if (v.like === true) {
    if (viewer.role === 'ADMIN' || viewer.role === 'SYSTEM_ADMIN')
      throw new Error('the LIKE scan restates the rule for other roles only');
    const patterns = terms.map((t) => `%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const hits = (
      await pool.query<Hit & { publish_start: string }>(LIKE_SCAN_SQL, [
        viewer.id,
        `{${readable.join(',')}}`,
        today,
        patterns,
        PAGE + 1,
      ])
    ).rows;
    page = hits.slice(0, PAGE);
    const last = hits[PAGE - 1];
    next =
      hits.length > PAGE && last
        ? encodeSearchCursor({ level: last.level as 0 | 1 | 2, publishStart: last.publish_start, id: last.id })
        : null;
    texts = page.length ? (await pool.query(TEXTS_SQL, [`{${page.map((h) => h.id).join(',')}}`, terms])).rows : [];
  } else {
    const rule = readableSql({ id: viewer.id, role: viewer.role as EmployeeRole }, { readable }, today);
    const searching = { id: viewer.id, readable, rule };
    const found = await searchPage(run, searching, terms, null, PAGE);
    // The first page's count, as the service answers it (its statements only when cheap to know).
    await countHits(run, searching, terms, found);
    page = found.hits;
    next = found.next ? encodeSearchCursor(found.next) : null;
    texts = await matchedTexts(
      run,
      page.map((h) => h.id),
      terms,
    );
  }
  const ids = `{${page.map((h) => h.id).join(',')}}`;
  const titles = new Map(
    (page.length
      ? (
          await pool.query<{ id: number; title: string }>(`select id, title from blog_post where id = any($1::int[])`, [
            ids,
          ])
        ).rows
      : []
    ).map((r) => [r.id, r.title]),
  );
  return JSON.stringify({
    data: {
      blogSearch: {
        items: page.map((h) => ({
          matchedIn: SOURCES[h.level],
          post: { id: h.id, title: titles.get(h.id) },
          snippets: texts
            .filter((t) => t.post_id === h.id)
            .map((t) => ({ source: SOURCES[t.source], ...snippetOf(t.plain, terms) })),
        })),
        nextCursor: next,
      },
    },
  });
});
