/**
 * Bench child: search's bare baseline (bench/lib/bare.ts: node:http + pg, the same session lookup),
 * answering the bench's document (the first page of blogSearch: ids, titles, where each matched,
 * snippets) from a sequential LIKE scan (bench/search/sql.ts) instead of the n-gram index. The
 * answers are checked identical before the load: the index finds exactly what scanning finds, in
 * the same order. Query normalization and snippets are the platform's own pure functions
 * (blog-search.text.ts): what is compared is which posts come back, and how fast.
 */
import { normalizeText, snippetOf } from '../../graph/src/modules/blog/search/blog-search.text.js';
import { BareError, serveBare } from '../lib/bare.js';
import { ACCESS_SQL, LIKE_SCAN_SQL, TEXTS_SQL } from './sql.js';

const PAGE = 20;
const SOURCES = ['TITLE', 'CONTENT', 'COMMENT'];
const tokyoToday = () => new Date(Date.now() + 9 * 3_600_000).toISOString().slice(0, 10);

await serveBare('search', async (pool, viewer, v) => {
  if (v.after != null) throw new BareError('the bare handler answers first pages only', 'BAD_USER_INPUT');
  if (viewer.role === 'ADMIN' || viewer.role === 'SYSTEM_ADMIN') throw new BareError('the bare handler restates the rule for other roles only', 'BAD_USER_INPUT');
  const q = normalizeText(String(v.q ?? ''));
  const readable = (await pool.query<{ id: number; member: boolean }>(ACCESS_SQL, [viewer.id])).rows.filter((r) => r.member).map((r) => r.id);
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const hits = (await pool.query<{ id: number; level: number; publish_start: string }>(LIKE_SCAN_SQL, [viewer.id, `{${readable.join(',')}}`, tokyoToday(), pattern, PAGE + 1]))
    .rows;
  const page = hits.slice(0, PAGE);
  const ids = page.map((h) => h.id);
  const texts = ids.length ? (await pool.query<{ post_id: number; source: number; plain: string }>(TEXTS_SQL, [`{${ids.join(',')}}`, q])).rows : [];
  const titles = ids.length
    ? new Map(
        (await pool.query<{ id: number; title: string }>(`select id, title from blog_post where id = any($1::int[])`, [`{${ids.join(',')}}`])).rows.map((r) => [r.id, r.title]),
      )
    : new Map();
  const last = page[page.length - 1];
  return JSON.stringify({
    data: {
      blogSearch: {
        items: page.map((h) => ({
          matchedIn: SOURCES[h.level],
          post: { id: h.id, title: titles.get(h.id) },
          snippets: texts.filter((t) => t.post_id === h.id).map((t) => ({ source: SOURCES[t.source], ...snippetOf(t.plain, q) })),
        })),
        nextCursor: hits.length > PAGE && last ? Buffer.from(`s|${last.level}|${last.publish_start}|${last.id}`).toString('base64url') : null,
      },
    },
  });
});
