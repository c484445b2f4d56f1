import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, gql } from '../../test/http.js';
import { blogWorld, type BlogWorld } from './blog.test-support.js';

let w: BlogWorld;
const posts: Record<string, number> = {};
beforeAll(async () => {
  w = await blogWorld();
  const s = w.token.staff;
  posts.published = (await w.post(s, { title: '公開中の記事', categoryId: w.cat.news, publishStart: w.day(-3) })).id;
  posts.startsToday = (await w.post(s, { title: '今日から公開', categoryId: w.cat.news, publishStart: w.today })).id;
  posts.endsToday = (
    await w.post(s, { title: '今日まで公開', categoryId: w.cat.news, publishStart: w.day(-10), publishEnd: w.today })
  ).id;
  posts.scheduled = (await w.post(s, { title: '明日公開の予定', categoryId: w.cat.news, publishStart: w.day(1) })).id;
  posts.expired = (
    await w.post(s, { title: '昨日で終了', categoryId: w.cat.news, publishStart: w.day(-10), publishEnd: w.day(-1) })
  ).id;
  posts.draft = (await w.post(s, { title: '書きかけ', isDraft: true })).id;
  posts.board = (
    await w.post(w.token.admin, { title: '役員だけの話', categoryId: w.cat.board, publishStart: w.day(-1) })
  ).id;
});
afterAll(async () => w?.p.close());

const FEED = `query($f: BlogFeedFilter, $after: String, $limit: Int) { blogFeed(filter: $f, after: $after, limit: $limit) { items { id title state pinned } nextCursor } }`;
const feed = async (token: string, f: Record<string, unknown> = {}) => {
  const r = await gql(w.p.url, FEED, { f, limit: 200 }, { token });
  if (r.body.errors) throw new Error(JSON.stringify(r.body.errors));
  return r.body.data.blogFeed.items as { id: number; title: string; state: string; pinned: boolean }[];
};
const ids = (items: { id: number }[]) => items.map((i) => i.id);
const detail = (token: string, id: number) =>
  gql(w.p.url, `query($id: Int!) { blogPost(id: $id) { id state } }`, { id }, { token });

describe('who sees a post, in every channel', () => {
  it('a member of the category sees the published posts, both window ends included, and nothing else', async () => {
    const seen = ids(await feed(w.token.colleague));
    expect(seen.sort()).toEqual([posts.published, posts.startsToday, posts.endsToday].sort());
    for (const id of [posts.scheduled, posts.expired, posts.draft, posts.board]) {
      expect((await detail(w.token.colleague, id)).body.errors[0].extensions.code, String(id)).toBe('NOT_FOUND');
      expect((await api(w.p.url, 'GET', `/blogs/${id}`, { token: w.token.colleague })).status).toBe(404);
    }
    const rest = await api(w.p.url, 'GET', '/blogs', { token: w.token.colleague });
    expect(rest.body.map((b: { blog_id: number }) => b.blog_id).sort()).toEqual(seen.sort());
    expect((await detail(w.token.colleague, posts.endsToday)).body.data.blogPost.state).toBe('PUBLISHED');
  });

  it('an employee outside the category sees none of its posts, by any road', async () => {
    expect(await feed(w.token.outsider)).toEqual([]);
    expect(await feed(w.token.outsider, { categoryId: w.cat.news })).toEqual([]);
    expect((await api(w.p.url, 'GET', `/blogs?category_id=${w.cat.news}`, { token: w.token.outsider })).body).toEqual(
      [],
    );
    for (const id of Object.values(posts)) {
      expect((await detail(w.token.outsider, id)).body.errors[0].extensions.code).toBe('NOT_FOUND');
      expect((await api(w.p.url, 'GET', `/blogs/${id}`, { token: w.token.outsider })).status).toBe(404);
    }
    const pinned = await gql(w.p.url, `{ blogPinned { id } }`, {}, { token: w.token.outsider });
    expect(pinned.body.data.blogPinned).toEqual([]);
    // Writing to it says no more than that it does not exist.
    const del = await api(w.p.url, 'DELETE', `/blogs/${posts.published}`, { token: w.token.outsider });
    expect(del.status).toBe(404);
  });

  it('the author sees their scheduled and expired posts in the feed, marked so, and their drafts under My blogs', async () => {
    const all = await feed(w.token.staff);
    expect(all.find((i) => i.id === posts.scheduled)?.state).toBe('SCHEDULED');
    expect(all.find((i) => i.id === posts.expired)?.state).toBe('EXPIRED');
    expect(ids(all)).not.toContain(posts.draft);
    const mine = await feed(w.token.staff, { scope: 'MINE' });
    expect(ids(mine).sort()).toEqual(
      [posts.published, posts.startsToday, posts.endsToday, posts.scheduled, posts.expired, posts.draft].sort(),
    );
    expect(mine.find((i) => i.id === posts.draft)?.state).toBe('DRAFT');
    expect((await detail(w.token.staff, posts.draft)).body.data.blogPost.state).toBe('DRAFT');
    expect((await api(w.p.url, 'GET', '/blogs?mine=1', { token: w.token.staff })).body.length).toBe(6);
  });

  it("管理者 who is a member sees scheduled and expired posts when asking for them, never others' drafts; others may not ask", async () => {
    expect(ids(await feed(w.token.admin))).not.toContain(posts.scheduled);
    const outside = await feed(w.token.admin, { includeOutsideWindow: true });
    expect(outside.find((i) => i.id === posts.scheduled)?.state).toBe('SCHEDULED');
    expect(outside.find((i) => i.id === posts.expired)?.state).toBe('EXPIRED');
    expect(ids(outside)).not.toContain(posts.draft);
    expect((await detail(w.token.admin, posts.expired)).body.data.blogPost.state).toBe('EXPIRED');
    expect((await detail(w.token.admin, posts.draft)).body.errors[0].extensions.code).toBe('NOT_FOUND');
    const refused = await gql(w.p.url, FEED, { f: { includeOutsideWindow: true } }, { token: w.token.colleague });
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
    // システム管理者 outside the category: membership holds for every role.
    expect((await detail(w.token.sysadmin, posts.published)).body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('membership follows the department: moving the colleague out of 営業 hides the posts at once', async () => {
    const [dev] = await w.sql(`select id from department where name = '開発'`);
    await w.sql(`update employee set department_id = ? where id = ?`, [dev.id, w.id.colleague]);
    expect(await feed(w.token.colleague)).toEqual([]);
    expect((await detail(w.token.colleague, posts.published)).body.errors[0].extensions.code).toBe('NOT_FOUND');
    await w.sql(`update employee set department_id = ? where id = ?`, [w.id.sales, w.id.colleague]);
    expect(ids(await feed(w.token.colleague))).toContain(posts.published);
  });
});

describe('pins (速報)', () => {
  it('a post is pinned only while the pin is on and today lies in its window, both ends included; pinned posts come first', async () => {
    const s = w.token.staff;
    const oneDay = await w.post(s, {
      title: '本日限りの速報',
      categoryId: w.cat.news,
      publishStart: w.day(-30),
      isPin: true,
      pinStart: w.today,
      pinEnd: w.today,
    });
    const ended = await w.post(s, {
      title: 'ピン留め終了',
      categoryId: w.cat.news,
      publishStart: w.day(-5),
      isPin: true,
      pinStart: w.day(-7),
      pinEnd: w.day(-1),
    });
    const later = await w.post(s, {
      title: 'ピン留めは明日から',
      categoryId: w.cat.news,
      publishStart: w.day(-5),
      isPin: true,
      pinStart: w.day(1),
      pinEnd: w.day(3),
    });
    const unpublished = await w.post(s, {
      title: '公開前のピン留め',
      categoryId: w.cat.news,
      publishStart: w.day(2),
      isPin: true,
      pinStart: w.today,
      pinEnd: w.day(5),
    });
    expect([oneDay.pinned, ended.pinned, later.pinned, unpublished.pinned]).toEqual([true, false, false, false]);
    const items = await feed(w.token.colleague);
    expect(items[0]).toMatchObject({ id: oneDay.id, pinned: true });
    expect(items.filter((i) => i.pinned).map((i) => i.id)).toEqual([oneDay.id]);
    // After the pinned one: newest publish start first.
    const rest = items.slice(1).map((i) => i.id);
    expect(rest.indexOf(posts.startsToday)).toBeLessThan(rest.indexOf(posts.published));
    const panel = await gql(w.p.url, `{ blogPinned { id title pinned } }`, {}, { token: w.token.colleague });
    expect(panel.body.data.blogPinned).toEqual([{ id: oneDay.id, title: '本日限りの速報', pinned: true }]);
  });

  it('turning the pin on without a start pins from today to today + 7 days; with a start, start + 7', async () => {
    const a = await w.post(w.token.staff, { title: '既定のピン留め', categoryId: w.cat.news, isPin: true });
    expect([a.pinStart, a.pinEnd, a.pinned]).toEqual([w.today, w.day(7), true]);
    const b = await w.post(w.token.staff, {
      title: '開始日だけのピン留め',
      categoryId: w.cat.news,
      isPin: true,
      pinStart: w.day(-2),
    });
    expect([b.pinStart, b.pinEnd]).toEqual([w.day(-2), w.day(5)]);
    const off = await w.post(w.token.staff, {
      title: 'ピン留めなし',
      categoryId: w.cat.news,
      isPin: false,
      pinStart: w.today,
      pinEnd: w.day(3),
    });
    expect([off.pinStart, off.pinEnd, off.pinned]).toEqual([null, null, false]);
  });
});

describe('who may post where', () => {
  it('閲覧-only categories take posts from 管理者 and システム管理者 only; a category one is not in is unknown', async () => {
    const q = `mutation($i: BlogPostInput!) { createBlogPost(input: $i) { id } }`;
    const readOnly = await gql(
      w.p.url,
      q,
      { i: { title: 'x', content: { blocks: [] }, categoryId: w.cat.notice } },
      { token: w.token.staff },
    );
    expect(readOnly.body.errors[0]).toMatchObject({
      message: 'このカテゴリには投稿できません（閲覧のみのカテゴリです）。',
      extensions: { code: 'BAD_USER_INPUT', reason: 'CATEGORY_NOT_POSTABLE' },
    });
    const notMine = await gql(
      w.p.url,
      q,
      { i: { title: 'x', content: { blocks: [] }, categoryId: w.cat.board } },
      { token: w.token.staff },
    );
    expect(notMine.body.errors[0].extensions.reason).toBe('CATEGORY_UNKNOWN');
    const missing = await gql(
      w.p.url,
      q,
      { i: { title: 'x', content: { blocks: [] }, categoryId: 999999 } },
      { token: w.token.staff },
    );
    expect(missing.body.errors[0].extensions.reason).toBe('CATEGORY_UNKNOWN');
    const byAdmin = await gql(
      w.p.url,
      q,
      { i: { title: '通達', content: { blocks: [] }, categoryId: w.cat.notice } },
      { token: w.token.admin },
    );
    expect(byAdmin.body.data.createBlogPost.id).toEqual(expect.any(Number));
    // staff reads it there.
    expect((await detail(w.token.staff, byAdmin.body.data.createBlogPost.id)).body.data.blogPost).toBeTruthy();
  });

  it('only the author edits; the author and 管理者 delete; a member who is neither is refused', async () => {
    const target = await w.post(w.token.staff, { title: '消される記事', categoryId: w.cat.news });
    const edit = await gql(
      w.p.url,
      `mutation($id: Int!, $v: Int!) { updateBlogPost(id: $id, input: { title: "乗っ取り", content: { blocks: [] }, categoryId: ${w.cat.news}, version: $v }) { id } }`,
      { id: target.id, v: target.version },
      { token: w.token.admin },
    );
    expect(edit.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await api(w.p.url, 'DELETE', `/blogs/${target.id}`, { token: w.token.colleague })).status).toBe(403);
    expect((await api(w.p.url, 'DELETE', `/blogs/${target.id}`, { token: w.token.admin })).status).toBe(200);
    expect((await detail(w.token.staff, target.id)).body.errors[0].extensions.code).toBe('NOT_FOUND');
    const [e] = await w.sql(`select actor_id from outbox_all where type = 'blog.post.deleted' and aggregate_id = ?`, [
      String(target.id),
    ]);
    expect(e.actor_id).toBe(w.id.admin);
  });
});

describe('tags are company-wide; who made one is told only where its posts may be read', () => {
  it('the creator, 管理者 and システム管理者, and readers of a post carrying it see its creator; everyone else sees the tag without a name', async () => {
    const TAGS = `{ blogTags { id content createdBy { id } } }`;
    const creatorOf = async (token: string, tagId: number) =>
      (
        (await gql(w.p.url, TAGS, {}, { token })).body.data.blogTags as {
          id: number;
          createdBy: { id: number } | null;
        }[]
      ).find((t) => t.id === tagId)!.createdBy;
    const made = await gql(
      w.p.url,
      `mutation { createBlogTag(input: { content: "役員会の議題" }) { id } }`,
      {},
      { token: w.token.admin },
    );
    const tagId: number = made.body.data.createBlogTag.id;
    await w.post(w.token.admin, {
      title: '役員会の議題について',
      categoryId: w.cat.board,
      publishStart: w.day(-1),
      tagIds: [tagId],
    });
    expect(await creatorOf(w.token.staff, tagId)).toBeNull(); // outside 役員会: the tag, no name
    expect(
      (await api(w.p.url, 'GET', '/blog_tags', { token: w.token.staff })).body.find(
        (t: { tag_id: number }) => t.tag_id === tagId,
      ).created_by,
    ).toBeNull();
    expect(await creatorOf(w.token.admin, tagId)).toEqual({ id: w.id.admin });
    expect(await creatorOf(w.token.sysadmin, tagId)).toEqual({ id: w.id.admin });
    // Once a post staff may read carries it, they are told who made it.
    await w.post(w.token.admin, {
      title: '通達の議題',
      categoryId: w.cat.notice,
      publishStart: w.day(-1),
      tagIds: [tagId],
    });
    expect(await creatorOf(w.token.staff, tagId)).toEqual({ id: w.id.admin });
    // One's own tag, on no post yet.
    const own = (
      await gql(
        w.p.url,
        `mutation { createBlogTag(input: { content: "自分のタグ" }) { id } }`,
        {},
        { token: w.token.colleague },
      )
    ).body.data.createBlogTag.id;
    expect(await creatorOf(w.token.colleague, own)).toEqual({ id: w.id.colleague });
    expect(await creatorOf(w.token.staff, own)).toBeNull();
  });
});
