import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, gql } from '../../../test/http.js';
import { blogWorld, doc, type BlogWorld } from '../blog.test-support.js';
import { SEARCH_PATHS } from './blog-search.queries.js';

/**
 * Search with several words (issue 26): words separated by spaces (half-width or full-width) must
 * all be found, each anywhere in the post (title, body or a comment); the post ranks by where it
 * has them all (title, then body, then comments); every word is marked in the snippets; "..." keeps
 * a phrase; the same answer by both paths and in both channels, and a walk that stops on its budget
 * continues through the cursor.
 */
let w: BlogWorld;
const id: Record<string, number> = {};

const SEARCH = `query($q: String!, $after: String, $first: Int) { blogSearch(query: $q, after: $after, first: $first) {
  items { matchedIn post { id } snippets { source text highlights { start length } } } nextCursor } }`;
type Hit = {
  matchedIn: string;
  post: { id: number };
  snippets: { source: string; text: string; highlights: { start: number; length: number }[] }[];
};
type Page = { items: Hit[]; nextCursor: string | null };

async function search(q: string, first?: number, after?: string | null, token = w.token.staff): Promise<Page> {
  const r = await gql(w.p.url, SEARCH, { q, first, after }, { token });
  if (r.body.errors) throw new Error(JSON.stringify(r.body.errors));
  return r.body.data.blogSearch;
}
const ranked = async (q: string) => (await search(q)).items.map((h) => [h.post.id, h.matchedIn]);
/** Every page until the end: [id, matchedIn] in order, and the pages' sizes. */
async function allPages(q: string, size: number): Promise<{ hits: [number, string][]; sizes: number[] }> {
  const hits: [number, string][] = [];
  const sizes: number[] = [];
  let after: string | null = null;
  do {
    const page: Page = await search(q, size, after);
    hits.push(...page.items.map((h): [number, string] => [h.post.id, h.matchedIn]));
    sizes.push(page.items.length);
    after = page.nextCursor;
  } while (after && sizes.length < 50);
  return { hits, sizes };
}
const comment = async (postId: number, content: string) => {
  const r = await gql(
    w.p.url,
    `mutation($i: BlogCommentInput!) { addBlogComment(input: $i) { id } }`,
    { i: { postId, content } },
    { token: w.token.colleague },
  );
  if (r.body.errors) throw new Error(JSON.stringify(r.body.errors));
};

beforeAll(async () => {
  w = await blogWorld();
  const news = { categoryId: w.cat.news };
  id.title = (
    await w.post(w.token.staff, {
      ...news,
      title: '総務と予約の手順',
      content: doc('本文です'),
      publishStart: w.day(-4),
    })
  ).id;
  id.body = (
    await w.post(w.token.colleague, {
      ...news,
      title: '予約のお願い',
      content: doc('総務部から連絡します'),
      publishStart: w.day(-1),
    })
  ).id;
  id.comment = (
    await w.post(w.token.staff, { ...news, title: '総務部の連絡', content: doc('来週の件'), publishStart: w.day(-2) })
  ).id;
  await comment(id.comment, '会議室を予約 しました');
  id.one = (
    await w.post(w.token.staff, { ...news, title: '総務だけの話', content: doc('ほかの言葉'), publishStart: w.day(-3) })
  ).id;
  id.phrase = (
    await w.post(w.token.colleague, {
      ...news,
      title: '会議室 予約の方法',
      content: doc('本文'),
      publishStart: w.day(-5),
    })
  ).id;
  // Another category the viewer is not in: never found, whatever the words.
  id.hidden = (
    await w.post(w.token.admin, { categoryId: w.cat.board, title: '総務 予約 会議室', publishStart: w.day(-1) })
  ).id;
});
afterAll(async () => w?.p.close());

describe('blog search with several words', () => {
  it('every word must be found, each in any of the post’s texts; ranked by where the post has them all', async () => {
    const expected = [
      [id.title, 'TITLE'],
      [id.body, 'CONTENT'],
      [id.comment, 'COMMENT'],
    ];
    expect(await ranked('総務 予約')).toEqual(expected);
    expect(await ranked('総務　予約')).toEqual(expected); // a full-width space separates too
    expect(await ranked('  予約   総務 ')).toEqual(expected);
    expect(await ranked('総務 予約 存在しない')).toEqual([]);
    const rest = await api(w.p.url, 'GET', `/blog_search?q=${encodeURIComponent('総務　予約')}`, {
      token: w.token.staff,
    });
    expect(rest.status).toBe(200);
    expect((rest.body as { blog_id: number; matched_in: string }[]).map((p) => [p.blog_id, p.matched_in])).toEqual(
      expected,
    );
  });

  it('every word is marked in the snippets', async () => {
    const hits = new Map((await search('予約 総務')).items.map((h) => [h.post.id, h.snippets]));
    expect(hits.get(id.title)).toEqual([
      {
        source: 'TITLE',
        text: '総務と予約の手順',
        highlights: [
          { start: 0, length: 2 },
          { start: 3, length: 2 },
        ],
      },
    ]);
    expect(hits.get(id.body)).toEqual([
      { source: 'TITLE', text: '予約のお願い', highlights: [{ start: 0, length: 2 }] },
      { source: 'CONTENT', text: '総務部から連絡します', highlights: [{ start: 0, length: 2 }] },
    ]);
    expect(hits.get(id.comment)).toEqual([
      { source: 'TITLE', text: '総務部の連絡', highlights: [{ start: 0, length: 2 }] },
      { source: 'COMMENT', text: '会議室を予約 しました', highlights: [{ start: 4, length: 2 }] },
    ]);
    // Overlapping words are one mark.
    expect((await search('会議室 会議')).items.find((h) => h.post.id === id.phrase)!.snippets[0]!.highlights).toEqual([
      { start: 0, length: 3 },
    ]);
  });

  it('quotes keep a phrase, spaces included', async () => {
    expect(await ranked('"会議室 予約"')).toEqual([[id.phrase, 'TITLE']]);
    expect(await ranked('＂会議室　予約＂')).toEqual([[id.phrase, 'TITLE']]);
    expect(await ranked('会議室 予約')).toEqual([
      [id.phrase, 'TITLE'],
      [id.comment, 'COMMENT'],
    ]);
    expect(await ranked('"総務 予約"')).toEqual([]);
    const [hit] = (await search('"会議室 予約" 方法')).items;
    expect(hit!.snippets[0]!.highlights).toEqual([
      { start: 0, length: 6 },
      { start: 7, length: 2 },
    ]);
  });

  it('more than five words, or only quotes, are refused with their Japanese message', async () => {
    const many = await gql(w.p.url, SEARCH, { q: 'あ い う え お か' }, { token: w.token.staff });
    expect(many.body.errors[0]).toMatchObject({
      message: '検索する言葉は5つまでにしてください（スペースで区切った言葉の数）。',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const quotes = await gql(w.p.url, SEARCH, { q: '"　"' }, { token: w.token.staff });
    expect(quotes.body.errors[0]).toMatchObject({
      message: '検索する言葉を入力してください。',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const rest = await api(w.p.url, 'GET', `/blog_search?q=${encodeURIComponent('あ い う え お か')}`, {
      token: w.token.staff,
    });
    expect(rest.status).toBe(400);
  });

  it('the walk over the newest posts answers as the index does, and a walk stopped by its budget continues through the cursor', async () => {
    const many: number[] = [];
    for (let i = 0; i < 9; i++)
      many.push(
        (await w.post(w.token.staff, { categoryId: w.cat.news, title: `朝礼${i} 連絡`, publishStart: w.day(-10 - i) }))
          .id,
      );
    const body = (
      await w.post(w.token.colleague, {
        categoryId: w.cat.news,
        title: '朝礼',
        content: doc('明日の連絡は中止'),
        publishStart: w.day(-1),
      })
    ).id;
    const expected = [...many.map((n): [number, string] => [n, 'TITLE']), [body, 'CONTENT'] as [number, string]];
    const byIndex = await allPages('朝礼 連絡', 4);
    expect(byIndex.hits).toEqual(expected);
    const saved = { ...SEARCH_PATHS };
    try {
      Object.assign(SEARCH_PATHS, { common: 0, budget: 1000 });
      expect((await allPages('朝礼 連絡', 4)).hits).toEqual(expected);
      expect(await ranked('総務 予約')).toEqual([
        [id.title, 'TITLE'],
        [id.body, 'CONTENT'],
        [id.comment, 'COMMENT'],
      ]);
      // Each request walks at most 4 posts: pages come short (some empty), never out of order or twice.
      Object.assign(SEARCH_PATHS, { common: 0, budget: 4 });
      const bounded = await allPages('朝礼 連絡', 4);
      expect(bounded.hits).toEqual(expected);
      expect(bounded.sizes.some((n) => n < 4)).toBe(true);
    } finally {
      Object.assign(SEARCH_PATHS, saved);
    }
  });
});
