/**
 * The feed at 100,000 posts: a viewer in 5 of 30 categories pages through it by keyset. What is
 * asserted is the plan, not the clock (no timed assertions): every statement of a page reads
 * blog_post through its indexes, never a scan of the table, so a page costs the same at any size.
 * The measured execution times are printed for the record. The data is the feed bench's
 * (db/seeders/blog-at-scale.ts, `npm run bench -- feed`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityManager } from '@mikro-orm/postgresql';
import { createTestDatabase, type TestDatabase } from '../../test/db.js';
import { seedBlogAtScale } from '../../db/seeders/blog-at-scale.js';
import { seedDemoCompany } from '../../db/seeders/demo-company.js';
import { BlogFeedScope } from './blog.enums.js';
import { decodeCursor, encodeCursor, feedPage, pinnedIds, type FeedViewer } from './blog-post.feed.js';
import { tokyoToday } from './blog-post.rules.js';

let db: TestDatabase;
let viewer: FeedViewer;
const POSTS = 100_000;
const today = tokyoToday();

beforeAll(async () => {
  db = await createTestDatabase();
  const em = db.orm.em.fork();
  await em.transactional((tx) => seedDemoCompany(tx));
  const seeded = await seedBlogAtScale(em, {
    posts: POSTS,
    today,
    viewerLogin: 'staff',
    categories: 30,
    viewerCategories: 5,
  });
  viewer = { id: seeded.viewerId, readable: seeded.readable, outsideWindow: false };
}, 300_000);
afterAll(async () => db?.close());

/** An EntityManager that records each statement it runs (to explain it afterwards). */
function recording(em: EntityManager) {
  const seen: { sql: string; params: unknown[] }[] = [];
  const proxy = new Proxy(em, {
    get(target, prop, receiver) {
      if (prop === 'execute')
        return (sql: string, params: unknown[] = []) => (seen.push({ sql, params }), target.execute(sql, params));
      return Reflect.get(target, prop, receiver);
    },
  });
  return { em: proxy as EntityManager, seen };
}

async function explain(em: EntityManager, s: { sql: string; params: unknown[] }) {
  const [row]: { 'QUERY PLAN': [{ Plan: unknown; 'Execution Time': number }] }[] = await em.execute(
    `explain (analyze, format json) ${s.sql}`,
    s.params,
  );
  const plan = row!['QUERY PLAN'][0];
  const nodes: { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string }[] = [];
  (function walk(n: { Plans?: unknown[] } & (typeof nodes)[number]) {
    nodes.push(n);
    for (const c of n.Plans ?? []) walk(c as never);
  })(plan.Plan as never);
  return { ms: plan['Execution Time'], nodes };
}

describe(`the feed at ${POSTS.toLocaleString()} posts`, () => {
  it('reads each page through the indexes (no scan of blog_post), first page and deep pages alike', async () => {
    const em = db.orm.em.fork();
    let cursor: string | null = null;
    const times: number[] = [];
    for (let page = 0; page < 30; page++) {
      const rec = recording(em);
      const r = await feedPage(rec.em, viewer, { scope: BlogFeedScope.ALL }, decodeCursor(cursor), 20, today);
      expect(r.ids.length).toBe(20);
      for (const s of rec.seen) {
        const { ms, nodes } = await explain(em, s);
        const scans = nodes
          .filter((n) => n['Relation Name'] === 'blog_post')
          .map((n) => `${n['Node Type']}${n['Index Name'] ? ` ${n['Index Name']}` : ''}`);
        expect(scans.length).toBeGreaterThan(0);
        expect(scans.filter((x) => x.startsWith('Seq Scan'))).toEqual([]);
        times.push(ms);
      }
      cursor = r.next ? encodeCursor(r.next) : null;
      if (page === 0) console.log(`[feed scale] first page plans: ${rec.seen.length} statements`);
    }
    const pinned = recording(em);
    await pinnedIds(pinned.em, viewer, today, 50);
    const p = await explain(em, pinned.seen[0]!);
    expect(p.nodes.some((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'blog_post')).toBe(false);
    const sorted = [...times].sort((a, b) => a - b);
    console.log(
      `[feed scale] ${POSTS} posts, viewer in 5/30 categories, 30 pages × 20: SQL execution per statement median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} ms, max ${sorted[sorted.length - 1]!.toFixed(2)} ms; 速報 ${p.ms.toFixed(2)} ms`,
    );
  }, 300_000);
});
