import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '../../../platform/cursor.js';
import { api, gql } from '../../../test/http.js';
import { blogWorld, doc, type BlogWorld } from '../blog.test-support.js';
import { SEARCH_PATHS } from './blog-search.queries.js';

/**
 * Search (issue 26): one- and two-character Japanese words and AI are found in titles, bodies and
 * comments, ranked title > body > comment then newest, highlighted; a post the viewer may not read
 * never comes back in any channel; the index follows edits and deletions.
 */
let w: BlogWorld;
const id: Record<string, number> = {};

const SEARCH = `query($q: String!, $after: String, $first: Int) { blogSearch(query: $q, after: $after, first: $first) {
  items { matchedIn post { id title state } snippets { source text highlights { start length } } } nextCursor } }`;

type Hit = {
  matchedIn: string;
  post: { id: number; title: string };
  snippets: { source: string; text: string; highlights: { start: number; length: number }[] }[];
};
async function search(
  token: string,
  q: string,
  first?: number,
  after?: string | null,
): Promise<{ items: Hit[]; nextCursor: string | null }> {
  const r = await gql(w.p.url, SEARCH, { q, first, after }, { token });
  if (r.body.errors) throw new Error(JSON.stringify(r.body.errors));
  return r.body.data.blogSearch;
}
const ids = async (token: string, q: string) => (await search(token, q)).items.map((h) => h.post.id);
const restIds = async (token: string, q: string) => {
  const r = await api(w.p.url, 'GET', `/blog_search?q=${encodeURIComponent(q)}`, { token });
  expect(r.status).toBe(200);
  return (r.body as { blog_id: number }[]).map((p) => p.blog_id);
};

beforeAll(async () => {
  w = await blogWorld();
  const news = { categoryId: w.cat.news };
  id.title = (
    await w.post(w.token.staff, {
      ...news,
      title: '第3回 総務会議のお知らせ',
      content: doc('議題は予算です'),
      publishStart: w.day(-3),
    })
  ).id;
  id.body = (
    await w.post(w.token.colleague, {
      ...news,
      title: '週報',
      content: doc('今週の<b>会</b>議は中止。AI の導入を検討します。'),
      publishStart: w.day(-1),
    })
  ).id;
  id.comment = (
    await w.post(w.token.staff, { ...news, title: 'ランチ', content: doc('カレーの店'), publishStart: w.day(-2) })
  ).id;
  id.wide = (
    await w.post(w.token.admin, {
      ...news,
      title: 'ＡＩ活用の事例',
      content: doc('生成系の道具'),
      publishStart: w.day(-5),
    })
  ).id;
  id.ownDraft = (await w.post(w.token.staff, { ...news, title: '自分の会議メモ', isDraft: true })).id;
  // Hidden from staff: a category they are not in, another author's draft, another author's scheduled post.
  id.board = (
    await w.post(w.token.admin, { categoryId: w.cat.board, title: '役員会議 AI 総務', publishStart: w.day(-1) })
  ).id;
  id.draft = (await w.post(w.token.colleague, { ...news, title: '会議の下書き AI 総務', isDraft: true })).id;
  id.scheduled = (await w.post(w.token.colleague, { ...news, title: '会議予定 AI 総務', publishStart: w.day(3) })).id;
  const r = await gql(
    w.p.url,
    `mutation($i: BlogCommentInput!) { addBlogComment(input: $i) { id } }`,
    { i: { postId: id.comment, content: '総務の会議室を予約しました' } },
    { token: w.token.colleague },
  );
  if (r.body.errors) throw new Error(JSON.stringify(r.body.errors));
  id.commentRow = r.body.data.addBlogComment.id;
});
afterAll(async () => w?.p.close());

describe('blog search', () => {
  it('a two-character word is found in titles, then bodies (a word split by markup too), then comments, each newest first; only what the viewer may read', async () => {
    const page = await search(w.token.staff, '会議');
    expect(page.items.map((h) => [h.post.id, h.matchedIn])).toEqual([
      [id.ownDraft, 'TITLE'],
      [id.title, 'TITLE'],
      [id.body, 'CONTENT'],
      [id.comment, 'COMMENT'],
    ]);
    expect(page.nextCursor).toBeNull();
  });

  it('a one-character query and AI (full-width ＡＩ and lower case too) are found', async () => {
    expect(await ids(w.token.staff, '総')).toEqual([id.title, id.comment]);
    expect(await ids(w.token.staff, 'AI')).toEqual([id.wide, id.body]);
    expect(await ids(w.token.staff, 'ai')).toEqual([id.wide, id.body]);
    expect(await ids(w.token.staff, 'ＡＩ')).toEqual([id.wide, id.body]);
    expect(await ids(w.token.staff, '予約しました')).toEqual([id.comment]);
    expect(await ids(w.token.staff, '会議室の予約')).toEqual([]);
  });

  it('snippets carry the match ranges of the text as written', async () => {
    const [hit] = (await search(w.token.staff, 'ai')).items;
    expect(hit!.snippets).toEqual([{ source: 'TITLE', text: 'ＡＩ活用の事例', highlights: [{ start: 0, length: 2 }] }]);
    const byId = new Map((await search(w.token.staff, '会議')).items.map((h) => [h.post.id, h]));
    expect(byId.get(id.title)!.snippets).toEqual([
      { source: 'TITLE', text: '第3回 総務会議のお知らせ', highlights: [{ start: 6, length: 2 }] },
    ]);
    expect(byId.get(id.body)!.snippets).toEqual([
      { source: 'CONTENT', text: '今週の会議は中止。AI の導入を検討します。', highlights: [{ start: 3, length: 2 }] },
    ]);
    expect(byId.get(id.comment)!.snippets).toEqual([
      { source: 'COMMENT', text: '総務の会議室を予約しました', highlights: [{ start: 3, length: 2 }] },
    ]);
  });

  it('a post the viewer may not read never comes back, in GraphQL or REST; those who may read it find it', async () => {
    for (const q of ['会議', 'AI', '総', '総務', '役員']) {
      for (const found of [await ids(w.token.staff, q), await restIds(w.token.staff, q)]) {
        expect(found).not.toContain(id.board);
        expect(found).not.toContain(id.draft);
        expect(found).not.toContain(id.scheduled);
      }
    }
    expect(await ids(w.token.outsider, '会議')).toEqual([]);
    expect(await restIds(w.token.outsider, '総務')).toEqual([]);
    // 管理者 (a member of all three) also sees the scheduled post and the board's, never another's draft.
    const admin = await ids(w.token.admin, '会議');
    expect(admin).toEqual(expect.arrayContaining([id.board, id.scheduled, id.title, id.body, id.comment]));
    expect(admin).not.toContain(id.draft);
    expect(admin).not.toContain(id.ownDraft);
    expect(await ids(w.token.colleague, '下書き')).toEqual([id.draft]);
  });

  it('REST answers the records of GET /blogs with matched_in and snippets', async () => {
    const r = await api(w.p.url, 'GET', `/blog_search?q=${encodeURIComponent('AI')}&limit=1`, { token: w.token.staff });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      expect.objectContaining({
        blog_id: id.wide,
        title: 'ＡＩ活用の事例',
        matched_in: 'TITLE',
        snippets: [{ source: 'TITLE', text: 'ＡＩ活用の事例', highlights: [{ start: 0, length: 2 }] }],
      }),
    ]);
    const next = r.headers.get('x-next-cursor');
    expect(next).toBeTruthy();
    const rest = await api(w.p.url, 'GET', `/blog_search?q=AI&limit=1&cursor=${next}`, { token: w.token.staff });
    expect((rest.body as { blog_id: number }[]).map((p) => p.blog_id)).toEqual([id.body]);
  });

  it('an empty or too long query is refused with its Japanese message, in both channels', async () => {
    const empty = await gql(w.p.url, SEARCH, { q: ' 　' }, { token: w.token.staff });
    expect(empty.body.errors[0]).toMatchObject({
      message: '検索する言葉を入力してください。',
      extensions: { code: 'BAD_USER_INPUT', fieldErrors: [{ field: 'query' }] },
    });
    const long = await gql(w.p.url, SEARCH, { q: 'あ'.repeat(51) }, { token: w.token.staff });
    expect(long.body.errors[0]).toMatchObject({
      message: '検索する言葉は50文字以内にしてください。',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect((await search(w.token.staff, 'あ'.repeat(50))).items).toEqual([]);
    const rest = await api(w.p.url, 'GET', '/blog_search?q=', { token: w.token.staff });
    expect(rest.status).toBe(400);
    const cursor = await gql(w.p.url, SEARCH, { q: '会議', after: 'garbage' }, { token: w.token.staff });
    expect(cursor.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('pages continue in rank order, through the index path and the dense path (a common word among the newest posts) alike', async () => {
    const many: number[] = [];
    for (let i = 0; i < 12; i++)
      many.push(
        (await w.post(w.token.staff, { categoryId: w.cat.news, title: `連番${i} 朝礼`, publishStart: w.day(-10 - i) }))
          .id,
      );
    // A body hit newer than every title hit ranks after them all.
    const body = (
      await w.post(w.token.colleague, {
        categoryId: w.cat.news,
        title: '連絡',
        content: doc('明日の朝礼は中止'),
        publishStart: w.day(-1),
      })
    ).id;
    const pages = async (q: string, size: number) => {
      const seen: [number, string][] = [];
      let after: string | null = null;
      do {
        const page: { items: Hit[]; nextCursor: string | null } = await search(w.token.staff, q, size, after);
        seen.push(...page.items.map((h): [number, string] => [h.post.id, h.matchedIn]));
        after = page.nextCursor;
      } while (after);
      return seen;
    };
    const expected = [...many.map((n): [number, string] => [n, 'TITLE']), [body, 'CONTENT'] as [number, string]];
    expect(await pages('朝', 5)).toEqual(expected);
    const saved = { ...SEARCH_PATHS };
    try {
      // Every word is common and the window small: the dense path answers the pages it can fill.
      Object.assign(SEARCH_PATHS, { common: 1 });
      expect(await pages('朝', 5)).toEqual(expected);
      expect(await pages('朝礼', 3)).toEqual(expected);
      expect(await ids(w.token.staff, '会議')).toEqual([id.ownDraft, id.title, id.body, id.comment]);
    } finally {
      Object.assign(SEARCH_PATHS, saved);
    }
  });

  it('a next cursor tells nothing of where it stopped (maybe a post the caller cannot see) and cannot be forged: sealed, and an altered or hand-made one is a 400', async () => {
    const first = await search(w.token.staff, '朝', 2);
    const cursor = first.nextCursor!;
    expect(cursor).toMatch(/^[\w-]{40,}$/);
    // An unsealed cursor would read `s|<level>|<date>|<id>`.
    const inside = Buffer.from(cursor, 'base64url').toString('latin1');
    expect(inside).not.toMatch(/^s\||\d{4}-\d{2}-\d{2}\|\d+/);
    expect((await search(w.token.staff, '朝', 2, cursor)).items.length).toBeGreaterThan(0);
    // One character changed (never to itself: a cursor whose next-to-last character is A gets B).
    const altered = cursor.slice(0, -2) + (cursor.at(-2) === 'A' ? 'B' : 'A') + cursor.slice(-1);
    const handMade = encodeCursor('s', [0, '2026-01-01', first.items[0]!.post.id]);
    for (const after of [altered, handMade, 'x']) {
      const r = await gql(
        w.p.url,
        `query($q: String!, $a: String) { blogSearch(query: $q, first: 2, after: $a) { nextCursor } }`,
        { q: '朝', a: after },
        { token: w.token.staff },
      );
      expect(r.body.errors?.[0]?.extensions?.code, after).toBe('BAD_USER_INPUT');
    }
  });

  it('the index follows edits of titles and bodies, comment deletions and post deletions', async () => {
    const post = await w.post(w.token.staff, {
      categoryId: w.cat.news,
      title: '稟議の手順',
      content: doc('申請は月末まで'),
      publishStart: w.day(-1),
    });
    expect(await ids(w.token.staff, '稟議')).toEqual([post.id]);
    const UPDATE = `mutation($id: Int!, $i: BlogPostInput!) { updateBlogPost(id: $id, input: $i) { id } }`;
    const u = await gql(
      w.p.url,
      UPDATE,
      {
        id: post.id,
        i: { title: '申請の手順', content: doc('稟議書は月末まで'), categoryId: w.cat.news, version: post.version },
      },
      { token: w.token.staff },
    );
    expect(u.body.errors).toBeUndefined();
    expect((await search(w.token.staff, '稟議')).items.map((h) => [h.post.id, h.matchedIn])).toEqual([
      [post.id, 'CONTENT'],
    ]);
    expect(await ids(w.token.staff, '月末')).toEqual([post.id]);
    const del = await gql(
      w.p.url,
      `mutation($id: Int!) { deleteBlogComment(id: $id) }`,
      { id: id.commentRow },
      { token: w.token.colleague },
    );
    expect(del.body.errors).toBeUndefined();
    expect(await ids(w.token.staff, '予約')).toEqual([]);
    await gql(w.p.url, `mutation($id: Int!) { deleteBlogPost(id: $id) }`, { id: post.id }, { token: w.token.staff });
    expect(await ids(w.token.staff, '月末')).toEqual([]);
    expect((await w.sql(`select count(*)::int as n from blog_search_doc where post_id = ?`, [post.id]))[0].n).toBe(0);
  });

  it('a post moved to a category the viewer is not in leaves their results, its comments too', async () => {
    const post = await w.post(w.token.admin, { categoryId: w.cat.news, title: '異動の内示', publishStart: w.day(-1) });
    const c = await gql(
      w.p.url,
      `mutation($i: BlogCommentInput!) { addBlogComment(input: $i) { id } }`,
      { i: { postId: post.id, content: '送別会の幹事' } },
      { token: w.token.colleague },
    );
    expect(c.body.errors).toBeUndefined();
    expect(await ids(w.token.staff, '内示')).toEqual([post.id]);
    expect(await ids(w.token.staff, '幹事')).toEqual([post.id]);
    const UPDATE = `mutation($id: Int!, $i: BlogPostInput!) { updateBlogPost(id: $id, input: $i) { id } }`;
    const u = await gql(
      w.p.url,
      UPDATE,
      { id: post.id, i: { title: '異動の内示', content: doc('本文'), categoryId: w.cat.board, version: post.version } },
      { token: w.token.admin },
    );
    expect(u.body.errors).toBeUndefined();
    expect(await ids(w.token.staff, '内示')).toEqual([]);
    expect(await restIds(w.token.staff, '幹事')).toEqual([]);
    expect(await ids(w.token.admin, '幹事')).toEqual([post.id]);
  });
});

describe('blog search: order, filters and the count', () => {
  // Posts of their own (the tests above edit and delete theirs): 棚卸 in a title, a body and a comment.
  const own: Record<string, number> = {};
  beforeAll(async () => {
    const news = { categoryId: w.cat.news };
    own.title = (await w.post(w.token.staff, { ...news, title: '倉庫の棚卸', publishStart: w.day(-3) })).id;
    own.body = (
      await w.post(w.token.colleague, {
        ...news,
        title: '週の予定',
        content: doc('金曜は棚卸です'),
        publishStart: w.day(-1),
      })
    ).id;
    own.comment = (await w.post(w.token.staff, { ...news, title: '備品', publishStart: w.day(-2) })).id;
    const r = await gql(
      w.p.url,
      `mutation($i: BlogCommentInput!) { addBlogComment(input: $i) { id } }`,
      { i: { postId: own.comment, content: '棚卸の日に数えます' } },
      { token: w.token.colleague },
    );
    if (r.body.errors) throw new Error(JSON.stringify(r.body.errors));
    own.board = (
      await w.post(w.token.admin, { categoryId: w.cat.board, title: '役員の棚卸', publishStart: w.day(-1) })
    ).id;
  });
  const FULL = `query($q: String!, $after: String, $first: Int, $filter: BlogSearchFilter, $order: BlogSearchOrder) {
    blogSearch(query: $q, after: $after, first: $first, filter: $filter, order: $order) { items { matchedIn post { id } } nextCursor totalCount } }`;
  const run = async (vars: Record<string, unknown>, token = w.token.staff) => {
    const r = await gql(w.p.url, FULL, vars, { token });
    if (r.body.errors) throw new Error(JSON.stringify(r.body.errors));
    return r.body.data.blogSearch as {
      items: { matchedIn: string; post: { id: number } }[];
      nextCursor: string | null;
      totalCount: number | null;
    };
  };
  /** Every page in `order`, `size` at a time, with the common-word path forced when `dense`. */
  const all = async (vars: Record<string, unknown>, size: number, dense = false) => {
    const saved = { ...SEARCH_PATHS };
    if (dense) Object.assign(SEARCH_PATHS, { common: 1 });
    try {
      const seen: [number, string][] = [];
      let after: string | null = null;
      do {
        const page: Awaited<ReturnType<typeof run>> = await run({ ...vars, first: size, after });
        seen.push(...page.items.map((h): [number, string] => [h.post.id, h.matchedIn]));
        after = page.nextCursor;
      } while (after);
      return seen;
    } finally {
      Object.assign(SEARCH_PATHS, saved);
    }
  };

  it('NEWEST lists every hit newest first whatever it matched in, each still saying where, through both paths and pages', async () => {
    const newest: [number, string][] = [
      [own.body, 'CONTENT'],
      [own.comment, 'COMMENT'],
      [own.title, 'TITLE'],
    ];
    expect(await all({ q: '棚卸', order: 'NEWEST' }, 2)).toEqual(newest);
    expect(await all({ q: '棚卸', order: 'NEWEST' }, 1, true)).toEqual(newest);
    expect((await all({ q: '棚卸' }, 2)).map(([p]) => p)).toEqual([own.title, own.body, own.comment]);
    const first = await run({ q: '棚卸' });
    expect(first.totalCount).toBe(3);
    // Counted beyond a page while the candidates are few; not guessed when they are many.
    expect((await run({ q: '棚卸', first: 1 })).totalCount).toBe(3);
    const saved = { ...SEARCH_PATHS };
    try {
      Object.assign(SEARCH_PATHS, { common: 1 });
      expect((await run({ q: '棚卸', first: 1 })).totalCount).toBeNull();
      expect((await run({ q: '棚卸' })).totalCount).toBe(3);
    } finally {
      Object.assign(SEARCH_PATHS, saved);
    }
    // Later pages, and a word whose candidates are many, do not count.
    expect(
      (await run({ q: '棚卸', first: 1, after: (await run({ q: '棚卸', first: 1 })).nextCursor })).totalCount,
    ).toBeNull();
  });

  it('a category, an author and a period narrow the hits (all that are given), in REST too; the count follows', async () => {
    const byColleague = await run({ q: '棚卸', filter: { authorId: w.id.colleague } });
    expect(byColleague.items.map((h) => h.post.id)).toEqual([own.body]);
    expect(byColleague.totalCount).toBe(1);
    const period = await run({ q: '棚卸', filter: { from: w.day(-3), to: w.day(-2) } });
    expect(period.items.map((h) => h.post.id)).toEqual([own.title, own.comment]);
    // Through the walk of a common word too, by relevance and newest first.
    const span = { from: w.day(-3), to: w.day(-2) };
    expect((await all({ q: '棚卸', filter: span }, 1, true)).map(([p]) => p)).toEqual([own.title, own.comment]);
    expect((await all({ q: '棚卸', order: 'NEWEST', filter: span }, 1, true)).map(([p]) => p)).toEqual([
      own.comment,
      own.title,
    ]);
    const board = await run({ q: '棚卸', filter: { categoryId: w.cat.board } }, w.token.admin);
    expect(board.items.map((h) => h.post.id)).toEqual([own.board]);
    // A category one does not read finds nothing (not the posts of it).
    expect((await run({ q: '棚卸', filter: { categoryId: w.cat.board } })).items).toEqual([]);
    const rest = await api(
      w.p.url,
      'GET',
      `/blog_search?q=${encodeURIComponent('棚卸')}&author_id=${w.id.colleague}&order=newest`,
      { token: w.token.staff },
    );
    expect(rest.status).toBe(200);
    expect(rest.body.map((p: { blog_id: number }) => p.blog_id)).toEqual([own.body]);
    expect(rest.headers.get('x-total-count')).toBe('1');
  });

  it('a bad filter or order, or a cursor of the other order, is a 400 naming it, in both channels', async () => {
    const reversed = await gql(
      w.p.url,
      FULL,
      { q: '会議', filter: { from: w.day(0), to: w.day(-1) } },
      { token: w.token.staff },
    );
    expect(reversed.body.errors[0].message).toBe('期間の開始日は終了日以前の日付にしてください。');
    const badDate = await api(w.p.url, 'GET', `/blog_search?q=a&from=2026-02-30`, { token: w.token.staff });
    expect(badDate.status).toBe(400);
    expect(badDate.body.fieldErrors).toEqual([{ field: 'from', message: expect.any(String) }]);
    expect((await api(w.p.url, 'GET', `/blog_search?q=a&order=oldest`, { token: w.token.staff })).status).toBe(400);
    expect((await api(w.p.url, 'GET', `/blog_search?q=a&author_id=x`, { token: w.token.staff })).status).toBe(400);
    const first = await run({ q: '会議', first: 1 });
    const crossed = await gql(
      w.p.url,
      FULL,
      { q: '会議', after: first.nextCursor, order: 'NEWEST' },
      { token: w.token.staff },
    );
    expect(crossed.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});
