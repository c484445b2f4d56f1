import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, gql } from '../../test/http.js';
import { blogWorld, doc, type BlogWorld } from './blog.test-support.js';

let w: BlogWorld;
beforeAll(async () => {
  w = await blogWorld();
});
afterAll(async () => w?.p.close());

const CREATE = `mutation($i: BlogPostInput!) { createBlogPost(input: $i) { id version title contentHtml content category { id name color } author { id name } tags { id content } allowComments allowLikes publishStart publishEnd state canEdit canDelete } }`;
const UPDATE = `mutation($id: Int!, $i: BlogPostInput!) { updateBlogPost(id: $id, input: $i) { id version title state publishStart } }`;
const create = (token: string, i: Record<string, unknown>) =>
  gql(w.p.url, CREATE, { i: { content: doc('本文'), ...i } }, { token });
const fieldsOf = (errors: { extensions: { fieldErrors?: { field: string }[] } }[]) =>
  (errors[0]!.extensions.fieldErrors ?? []).map((f) => f.field).sort();

describe('writing a post', () => {
  it('creates it as the signed-in author with its tags, renders the content and records the event', async () => {
    const tag = (await api(w.p.url, 'POST', '/blog_tags', { token: w.token.staff, body: { tag_content: 'お知らせ' } }))
      .body.tag_id;
    const r = await create(w.token.staff, {
      title: ' 新しいオフィスのご案内 ',
      content: {
        blocks: [
          { type: 'header', data: { text: '移転のお知らせ', level: 2 } },
          { type: 'paragraph', data: { text: '<b>来月</b>から新オフィスです。<script>alert(1)</script>' } },
        ],
      },
      categoryId: w.cat.news,
      tagIds: [tag],
      allowLikes: false,
    });
    expect(r.body.errors).toBeUndefined();
    const p = r.body.data.createBlogPost;
    expect(p).toMatchObject({
      title: '新しいオフィスのご案内',
      category: { id: w.cat.news, name: '営業ニュース', color: '#000000' },
      author: { id: w.id.staff },
      tags: [{ id: tag, content: 'お知らせ' }],
      allowComments: true,
      allowLikes: false,
      publishStart: w.today,
      publishEnd: null,
      state: 'PUBLISHED',
      canEdit: true,
      canDelete: true,
      version: 1,
    });
    expect(p.contentHtml).toContain('<h2>移転のお知らせ</h2>');
    expect(p.contentHtml).toContain('<b>来月</b>');
    expect(p.contentHtml).not.toContain('script');
    expect(JSON.stringify(p.content)).not.toContain('script');
    const [e] = await w.sql(
      `select type, actor_id, payload from outbox_all where aggregate_type = 'blog_post' and aggregate_id = ?`,
      [String(p.id)],
    );
    expect(e).toMatchObject({
      type: 'blog.post.created',
      actor_id: w.id.staff,
      payload: {
        post: {
          id: p.id,
          categoryId: w.cat.news,
          authorId: w.id.staff,
          tagIds: [tag],
          isDraft: false,
          publishStart: w.today,
        },
      },
    });
  });

  it.each([
    ['no title', { title: '  ' }, ['title'], 'タイトルを入力してください。'],
    [
      'no category for a post that is not a draft',
      { categoryId: null },
      ['categoryId'],
      'カテゴリを選択してください。',
    ],
    [
      'a date that is not a date',
      { publishStart: '2026-02-30' },
      ['publishStart'],
      '公開開始日は YYYY-MM-DD の形式で入力してください。',
    ],
    [
      'an end before the start',
      { publishStart: '2026-05-10', publishEnd: '2026-05-09' },
      ['publishEnd'],
      '公開終了日は公開開始日以降の日付にしてください。',
    ],
    [
      'a pin that ends before it starts',
      { isPin: true, pinStart: '2026-05-10', pinEnd: '2026-05-01' },
      ['pinEnd'],
      'ピン留め終了日は開始日以降の日付にしてください。',
    ],
    ['a tag that does not exist', { tagIds: [999999] }, ['tagIds'], '存在しないタグが含まれています（ID: 999999）。'],
    [
      'a block the blog does not have',
      { content: { blocks: [{ type: 'raw', data: { html: '<script>' } }] } },
      ['content'],
      '本文に使えないブロック（raw）が含まれています。',
    ],
    [
      'an image that is not one of our files',
      { content: { blocks: [{ type: 'image', data: { file: { url: 'https://evil.example/x.png' } } }] } },
      ['content'],
      '本文の画像は、この画面でアップロードしたものだけ使えます。',
    ],
  ])('refuses %s with a Japanese message naming the field, and writes nothing', async (_, patch, fields, message) => {
    const before = await w.sql(`select count(*)::int as n from blog_post`);
    const r = await create(w.token.staff, { title: '記事', categoryId: w.cat.news, ...patch });
    expect(r.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(fieldsOf(r.body.errors)).toEqual(fields);
    expect(JSON.stringify(r.body.errors[0])).toContain(message);
    expect(await w.sql(`select count(*)::int as n from blog_post`)).toEqual(before);
  });

  it("a draft needs no category, stays the author's, and is published later by an edit", async () => {
    const d = (await create(w.token.staff, { title: '下書きの記事', isDraft: true })).body.data.createBlogPost;
    expect(d).toMatchObject({ state: 'DRAFT', category: null });
    const published = await gql(
      w.p.url,
      UPDATE,
      {
        id: d.id,
        i: { title: '完成した記事', content: doc('完成'), categoryId: w.cat.news, isDraft: false, version: d.version },
      },
      { token: w.token.staff },
    );
    expect(published.body.data.updateBlogPost).toMatchObject({
      title: '完成した記事',
      state: 'PUBLISHED',
      version: d.version + 1,
    });
    const seen = await gql(
      w.p.url,
      `query($id: Int!) { blogPost(id: $id) { title } }`,
      { id: d.id },
      { token: w.token.colleague },
    );
    expect(seen.body.data.blogPost.title).toBe('完成した記事');
  });

  it('edits with optimistic locking; a save that changes nothing is no new version; an edit keeps the publish start it does not send', async () => {
    const p = (await create(w.token.staff, { title: '編集する記事', categoryId: w.cat.news, publishStart: w.day(-20) }))
      .body.data.createBlogPost;
    const same = await gql(
      w.p.url,
      UPDATE,
      {
        id: p.id,
        i: {
          title: '編集する記事',
          content: { time: Date.now(), ...doc('本文') },
          categoryId: w.cat.news,
          version: p.version,
        },
      },
      { token: w.token.staff },
    );
    expect(same.body.data.updateBlogPost).toMatchObject({ version: p.version, publishStart: w.day(-20) });
    const saved = await gql(
      w.p.url,
      UPDATE,
      { id: p.id, i: { title: '編集した記事', content: doc('本文'), categoryId: w.cat.news, version: p.version } },
      { token: w.token.staff },
    );
    expect(saved.body.data.updateBlogPost).toMatchObject({
      title: '編集した記事',
      version: p.version + 1,
      publishStart: w.day(-20),
    });
    const stale = await gql(
      w.p.url,
      UPDATE,
      { id: p.id, i: { title: '古い画面から', content: doc('本文'), categoryId: w.cat.news, version: p.version } },
      { token: w.token.staff },
    );
    // The same person on another device: said so, not named as someone else.
    expect(stale.body.errors[0].extensions).toMatchObject({
      code: 'CONFLICT',
      current: { title: '編集した記事' },
      updatedBySelf: true,
    });
    expect(stale.body.errors[0].message).toMatch(/^\S+ \S+ に別の画面（別の端末）でこのデータが保存されました。/);
    const [e] = await w.sql(`select payload from outbox_all where type = 'blog.post.updated' and aggregate_id = ?`, [
      String(p.id),
    ]);
    expect(e.payload).toMatchObject({
      changed: ['title'],
      previous: { title: '編集する記事' },
      post: { title: '編集した記事', version: p.version + 1 },
    });
  });
});

describe('the feed: order, keyset paging, filters', () => {
  it('pages through every visible post once, pinned first then newest publish start, with a cursor', async () => {
    for (let i = 0; i < 23; i++)
      await w.post(w.token.colleague, {
        title: `連載 第${i + 1}回`,
        categoryId: w.cat.news,
        publishStart: w.day(-(i % 9)),
      });
    await w.post(w.token.colleague, {
      title: '連載 速報',
      categoryId: w.cat.news,
      publishStart: w.day(-40),
      isPin: true,
    });
    const seen: { id: number; publishStart: string; pinned: boolean }[] = [];
    let after: string | null = null;
    for (let n = 0; n < 20; n++) {
      const r: { body: { data: { blogFeed: { items: typeof seen; nextCursor: string | null } } } } = await gql(
        w.p.url,
        `query($after: String) { blogFeed(filter: { title: "連載" }, after: $after, limit: 7) { items { id publishStart pinned } nextCursor } }`,
        { after },
        { token: w.token.staff },
      );
      seen.push(...r.body.data.blogFeed.items);
      after = r.body.data.blogFeed.nextCursor;
      if (!after) break;
    }
    expect(seen.length).toBe(24);
    expect(new Set(seen.map((s) => s.id)).size).toBe(24);
    expect(seen[0]!.pinned).toBe(true);
    const rest = seen.slice(1);
    for (let i = 1; i < rest.length; i++) {
      const [a, b] = [rest[i - 1]!, rest[i]!];
      expect(a.publishStart > b.publishStart || (a.publishStart === b.publishStart && a.id > b.id)).toBe(true);
    }
    const bad = await gql(w.p.url, `{ blogFeed(after: "not-a-cursor") { nextCursor } }`, {}, { token: w.token.staff });
    expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it("filters by title, tag, category and the author's department", async () => {
    const tag = (await api(w.p.url, 'POST', '/blog_tags', { token: w.token.staff, body: { tag_content: '絞り込み' } }))
      .body.tag_id;
    const tagged = await w.post(w.token.staff, { title: 'タグ付きの記事', categoryId: w.cat.news, tagIds: [tag] });
    const q = `query($f: BlogFeedFilter) { blogFeed(filter: $f, limit: 200) { items { id author { id } } } }`;
    const byTag = await gql(w.p.url, q, { f: { tagId: tag } }, { token: w.token.colleague });
    expect(byTag.body.data.blogFeed.items.map((i: { id: number }) => i.id)).toEqual([tagged.id]);
    const byTitle = await api(w.p.url, 'GET', `/blogs?title=${encodeURIComponent('タグ付き')}`, {
      token: w.token.colleague,
    });
    expect(byTitle.body.map((b: { blog_id: number }) => b.blog_id)).toEqual([tagged.id]);
    const [dev] = await w.sql(`select id from department where name = '開発'`);
    expect(
      (await gql(w.p.url, q, { f: { departmentId: dev.id } }, { token: w.token.colleague })).body.data.blogFeed.items,
    ).toEqual([]);
    const sales = (
      await gql(w.p.url, q, { f: { departmentId: w.id.sales, categoryId: w.cat.news } }, { token: w.token.colleague })
    ).body.data.blogFeed.items;
    expect(sales.length).toBeGreaterThan(0);
    expect(sales.every((i: { author: { id: number } }) => [w.id.staff, w.id.colleague].includes(i.author.id))).toBe(
      true,
    );
  });
});

describe('the body preview', () => {
  const PREVIEW = `query($c: JSONObject!) { blogContentPreview(content: $c) }`;
  it('renders a document as a save would, storing nothing; a document a save refuses is refused the same way', async () => {
    const before = (await w.sql(`select count(*)::int as n from blog_post`))[0].n;
    const ok = await gql(
      w.p.url,
      PREVIEW,
      {
        c: {
          blocks: [
            ...doc('<b>太字</b><script>x</script>').blocks,
            { type: 'header', data: { text: '見出し', level: 2 } },
          ],
        },
      },
      { token: w.token.colleague },
    );
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data.blogContentPreview).toContain('<b>太字</b>');
    expect(ok.body.data.blogContentPreview).toContain('<h2>見出し</h2>');
    expect(ok.body.data.blogContentPreview).not.toContain('script');
    const bad = await gql(
      w.p.url,
      PREVIEW,
      { c: { blocks: [{ type: 'image', data: { file: { url: 'https://example.com/x.png' } } }] } },
      { token: w.token.colleague },
    );
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', reason: 'POST_CONTENT' });
    expect((await w.sql(`select count(*)::int as n from blog_post`))[0].n).toBe(before);
    const anonymous = await gql(w.p.url, PREVIEW, { c: { blocks: [] } });
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});
