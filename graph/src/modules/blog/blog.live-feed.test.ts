/**
 * A live change says whether its post belongs in the subscriber's feed as filtered
 * (`blogChanged(feed:)` → `inFeed`), decided on the server by the same rule as blogFeed's query: a
 * card inserted live is exactly one the feed would list after a reload, whatever the filter
 * (scope, title, tag, category, the author's department, scheduled and expired posts, without 速報).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { api, gql } from '../../test/http.js';
import { blogWorld, type BlogWorld } from './blog.test-support.js';
import { liveWatch, type Watch } from './blog.live.test-support.js';

let w: BlogWorld;
let live: ReturnType<typeof liveWatch>;
let otherDepartment: number;
beforeAll(async () => {
  w = await blogWorld();
  live = liveWatch(w);
  [{ department_id: otherDepartment }] = await w.sql(`select department_id from employee where id = ?`, [w.id.admin]);
});
afterAll(async () => w?.p.close());

type Filter = Record<string, string | number | boolean>;
/** The filter as a GraphQL literal (the scope is an enum). */
const literal = (f: Filter) =>
  `{ ${Object.entries(f.scope ? f : { ...f, scope: 'ALL' })
    .map(([k, v]) => `${k}: ${k === 'scope' || typeof v !== 'string' ? v : JSON.stringify(v)}`)
    .join(', ')} }`;
const subscription = (f: Filter) =>
  `subscription { blogChanged(feed: ${literal(f)}) { kind postId inFeed post { id title } categoryId category { id name color } } }`;

const FEED = `query($f: BlogFeedFilter) { blogFeed(filter: $f, limit: 200) { items { id } } }`;
async function feedIds(token: string, f: Filter): Promise<number[]> {
  const r = await gql(w.p.url, FEED, { f }, { token });
  if (r.body.errors) throw new Error(JSON.stringify(r.body.errors));
  return (r.body.data.blogFeed.items as { id: number }[]).map((p) => p.id);
}

/** The first error a subscription is answered with. */
async function subscribeError(token: string, query: string): Promise<string> {
  const client = createClient({
    url: w.p.url.replace('http', 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams: { authorization: `Bearer ${token}` },
  });
  try {
    return await new Promise<string>((resolve) => {
      client.subscribe(
        { query },
        {
          next: (m) => resolve(m.errors?.[0]?.message ?? 'no error'),
          error: (e) => resolve(Array.isArray(e) ? String(e[0]?.message) : String(e)),
          complete: () => resolve('completed'),
        },
      );
    });
  } finally {
    await client.dispose();
  }
}

/** The posts among `ids` whose latest change told `v` they are in its feed. */
function liveIn(v: Watch, ids: number[]): number[] {
  const last = new Map<number, boolean>();
  for (const c of v.changes as unknown as { postId: number | null; inFeed: boolean | null }[])
    if (c.postId !== null) last.set(c.postId, c.inFeed === true);
  return ids.filter((id) => last.get(id));
}

describe('blogChanged(feed:) and the feed query agree', () => {
  it('under a department filter: a post by someone of that department is in the feed, one by someone of another department is not (sent, so the card can go, but inFeed false)', async () => {
    const sales = await live.watch(w.token.colleague, subscription({ departmentId: w.id.sales }));
    const mine = await w.post(w.token.staff, { title: '営業部からのお知らせ', categoryId: w.cat.news });
    const theirs = await w.post(w.token.admin, { title: '他部署からのお知らせ', categoryId: w.cat.news });
    await sales.until((c) => c.postId === theirs.id);
    expect(sales.changes.map((c) => [c.postId, (c as unknown as { inFeed: boolean }).inFeed])).toEqual([
      [mine.id, true],
      [theirs.id, false],
    ]);
    expect(await feedIds(w.token.colleague, { departmentId: w.id.sales })).toEqual([mine.id]);
    await sales.close();
  });

  it('every filter: the posts a change puts in the feed are the posts blogFeed lists', async () => {
    await w.sql(`delete from blog_post`);
    const tag = (
      await api(w.p.url, 'POST', '/blog_tags', { token: w.token.staff, body: { tag_content: 'ライブ絞り込み' } })
    ).body.tag_id as number;
    const asStaff: Filter[] = [
      {},
      { scope: 'MINE' },
      { scope: 'SAVED' },
      { departmentId: w.id.sales },
      { departmentId: otherDepartment },
      { categoryId: w.cat.notice },
      { scope: 'MINE', categoryId: w.cat.news },
      { tagId: tag },
      { title: 'ａｌｐｈａ' },
      { title: 'Alpha' },
      { title: '100%' },
      { withoutPinned: true },
      { withoutPinned: true, title: 'alpha' },
    ];
    const asAdmin: Filter[] = [
      {},
      { includeOutsideWindow: true },
      { departmentId: w.id.sales, includeOutsideWindow: true },
      { withoutPinned: true, includeOutsideWindow: true },
    ];
    const watches = [
      ...(await Promise.all(
        asStaff.map(async (f) => ({ token: w.token.staff, f, v: await live.watch(w.token.staff, subscription(f)) })),
      )),
      ...(await Promise.all(
        asAdmin.map(async (f) => ({ token: w.token.admin, f, v: await live.watch(w.token.admin, subscription(f)) })),
      )),
    ];
    const posts = [
      await w.post(w.token.staff, { title: 'ALPHA 定例（営業）', categoryId: w.cat.news, tagIds: [tag] }),
      await w.post(w.token.staff, { title: '営業の下書き', categoryId: w.cat.news, isDraft: true }),
      await w.post(w.token.staff, { title: '予定の記事（自分の）', categoryId: w.cat.news, publishStart: w.day(3) }),
      await w.post(w.token.colleague, { title: 'ａｌｐｈａ 全角の記事', categoryId: w.cat.news, tagIds: [tag] }),
      await w.post(w.token.colleague, {
        title: '予定の記事（同僚の）',
        categoryId: w.cat.news,
        publishStart: w.day(2),
      }),
      await w.post(w.token.admin, { title: '達成率 100% の記事', categoryId: w.cat.news }),
      await w.post(w.token.admin, { title: '速報 alpha', categoryId: w.cat.notice, isPin: true }),
      await w.post(w.token.staff, { title: '営業の速報', categoryId: w.cat.news, isPin: true }),
      await w.post(w.token.admin, { title: '役員会の記事', categoryId: w.cat.board }),
      await w.post(w.token.admin, { title: '管理者の予定', categoryId: w.cat.news, publishStart: w.day(5) }),
    ];
    const ids = posts.map((p) => p.id);
    const saved = await gql(
      w.p.url,
      `mutation($id: Int!) { saveBlogPost(id: $id, saved: true) { id } }`,
      { id: posts[5]!.id },
      { token: w.token.staff },
    );
    expect(saved.body.errors).toBeUndefined();
    for (const { token, f, v } of watches) {
      await live.drained(v, token);
      const listed = (await feedIds(token, f)).filter((id) => ids.includes(id));
      expect({ f, live: liveIn(v, ids).sort() }).toEqual({ f, live: [...listed].sort() });
    }
    // withoutPinned leaves out exactly the posts pinned today (速報 shows them).
    const pinnedToday = posts[7]!.id;
    expect(await feedIds(w.token.staff, {})).toContain(pinnedToday);
    expect(await feedIds(w.token.staff, { withoutPinned: true })).not.toContain(pinnedToday);
    expect(await feedIds(w.token.staff, { withoutPinned: true })).toContain(posts[0]!.id);
    // Not vacuous: the filters tell the posts apart.
    expect(new Set(watches.map(({ v }) => liveIn(v, ids).join())).size).toBeGreaterThan(8);
    await Promise.all(watches.map(({ v }) => v.close()));
  });

  it('the filter is checked as the feed checks it: scheduled and expired posts of others only for 管理者, a bad id refused', async () => {
    expect(await subscribeError(w.token.colleague, subscription({ includeOutsideWindow: true }))).toBe(
      '公開予定・公開終了の投稿を一覧できるのは管理者・システム管理者だけです。',
    );
    expect(await subscribeError(w.token.colleague, subscription({ tagId: -1 }))).toMatch(/タグ/);
  });
});
