import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../test/db.js';
import { api, gql, loginToken } from '../../test/http.js';

let p: TestPlatform;
let admin: string;
let staff: string;
let other: string;
beforeAll(async () => {
  p = await startTestPlatform();
  [admin, staff, other] = await Promise.all([
    loginToken(p.url, 'admin'),
    loginToken(p.url, 'staff'),
    loginToken(p.url, 'devadmin'),
  ]);
});
afterAll(async () => p?.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of ad-hoc test SQL, read by column name
const sql = (q: string, params: unknown[] = []): Promise<any[]> =>
  p.db.orm.em.fork().getConnection().execute(q, params);

describe('blog tags', () => {
  it('any employee creates one; POST answers its tag_id; the event is recorded', async () => {
    const r = await api(p.url, 'POST', '/blog_tags', { token: staff, body: { tag_content: '  新製品  ' } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ tag_id: expect.any(Number), tag_content: '新製品', can_edit: true });
    const list = await api(p.url, 'GET', '/blog_tags', { token: other });
    expect(list.body.find((t: { tag_id: number }) => t.tag_id === r.body.tag_id)).toMatchObject({
      tag_content: '新製品',
      can_edit: false,
    });
    const [e] = await sql(
      `select type, payload from outbox_all where aggregate_type = 'blog_tag' and aggregate_id = ?`,
      [String(r.body.tag_id)],
    );
    expect(e).toMatchObject({ type: 'blog.tag.created', payload: { tag: { content: '新製品' } } });
  });

  it.each([
    ['empty', '', 'TAG_CONTENT_EMPTY', 'タグの内容を入力してください。'],
    ['blank after trimming', ' \t ', 'TAG_CONTENT_EMPTY', 'タグの内容を入力してください。'],
    ['missing', undefined, 'TAG_CONTENT_EMPTY', 'タグの内容を入力してください。'],
    ['too long', 'あ'.repeat(51), 'TAG_CONTENT_TOO_LONG', 'タグの内容は50文字以内で入力してください。'],
    ['taken, whatever its case', '新製品', 'TAG_CONTENT_TAKEN', 'このタグはすでに登録されています。'],
  ])('refuses content that is %s with its reason and the field as sent', async (_, content, reason, message) => {
    const r = await api(p.url, 'POST', '/blog_tags', { token: staff, body: { tag_content: content } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      code: 'BAD_USER_INPUT',
      reason,
      error: message,
      fieldErrors: [{ field: 'tag_content', message }],
    });
    const g = await gql(
      p.url,
      `mutation($c:String!){ createBlogTag(input:{ content: $c }) { id } }`,
      { c: content ?? '' },
      { token: staff },
    );
    expect(g.body.errors[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      reason: content === undefined ? 'TAG_CONTENT_EMPTY' : reason,
    });
  });

  it('case-insensitive uniqueness holds for Latin letters too', async () => {
    expect((await api(p.url, 'POST', '/blog_tags', { token: staff, body: { tag_content: 'TypeScript' } })).status).toBe(
      201,
    );
    const r = await api(p.url, 'POST', '/blog_tags', { token: admin, body: { tag_content: 'typescript' } });
    expect(r.body.reason).toBe('TAG_CONTENT_TAKEN');
  });

  it('its creator and 管理者 rename it; others may not', async () => {
    const [t] = (await api(p.url, 'GET', '/blog_tags', { token: staff })).body.filter(
      (x: { tag_content: string }) => x.tag_content === '新製品',
    );
    const no = await api(p.url, 'PUT', `/blog_tags/${t.tag_id}`, { token: other, body: { tag_content: '新商品' } });
    expect(no.status).toBe(403);
    const yes = await api(p.url, 'PUT', `/blog_tags/${t.tag_id}`, { token: staff, body: { tag_content: '新商品' } });
    expect(yes.status).toBe(200);
    expect(yes.body).toMatchObject({ tag_content: '新商品', version: t.version + 1 });
    const byAdmin = await api(p.url, 'PUT', `/blog_tags/${t.tag_id}`, {
      token: admin,
      body: { tag_content: '新製品' },
    });
    expect(byAdmin.status).toBe(200);
    const empty = await api(p.url, 'PUT', `/blog_tags/${t.tag_id}`, { token: admin, body: { tag_content: '' } });
    expect(empty.body.reason).toBe('TAG_CONTENT_EMPTY');
    const clash = await api(p.url, 'PUT', `/blog_tags/${t.tag_id}`, {
      token: admin,
      body: { tag_content: 'TYPESCRIPT' },
    });
    expect(clash.body.reason).toBe('TAG_CONTENT_TAKEN');
    const stale = await api(p.url, 'PUT', `/blog_tags/${t.tag_id}`, {
      token: admin,
      body: { tag_content: '旧製品', version: t.version },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.current).toMatchObject({ tag_content: '新製品' });
    expect((await api(p.url, 'PUT', `/blog_tags/999999`, { token: admin, body: { tag_content: 'x' } })).status).toBe(
      404,
    );
  });

  it("deleting needs at least one selected tag; every selected tag must be the caller's; nothing is deleted otherwise", async () => {
    const none = await gql(p.url, `mutation { deleteBlogTags(ids: []) }`, {}, { token: staff });
    expect(none.body.errors[0]).toMatchObject({
      message: '削除するタグを1つ以上選択してください。',
      extensions: { code: 'BAD_USER_INPUT', reason: 'TAGS_NONE_SELECTED' },
    });
    const mine = (await api(p.url, 'POST', '/blog_tags', { token: other, body: { tag_content: '社内イベント' } })).body;
    const staffs = (await api(p.url, 'GET', '/blog_tags', { token: staff })).body.find(
      (x: { tag_content: string }) => x.tag_content === 'TypeScript',
    );
    const mixed = await gql(
      p.url,
      `mutation($ids:[Int!]!){ deleteBlogTags(ids: $ids) }`,
      { ids: [mine.tag_id, staffs.tag_id] },
      { token: other },
    );
    expect(mixed.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(
      await sql(`select count(*)::int as n from blog_tag where id in (?, ?)`, [mine.tag_id, staffs.tag_id]),
    ).toEqual([{ n: 2 }]);
    const ok = await api(p.url, 'DELETE', `/blog_tags/${mine.tag_id}`, { token: other });
    expect(ok.status).toBe(200);
    expect((await api(p.url, 'DELETE', `/blog_tags/${mine.tag_id}`, { token: other })).status).toBe(404);
    const byAdmin = await gql(
      p.url,
      `mutation($ids:[Int!]!){ deleteBlogTags(ids: $ids) }`,
      { ids: [staffs.tag_id] },
      { token: admin },
    );
    expect(byAdmin.body.data.deleteBlogTags).toEqual([staffs.tag_id]);
    const events = await sql(
      `select type from outbox_all where aggregate_type = 'blog_tag' and aggregate_id in (?, ?) and type = 'blog.tag.deleted'`,
      [String(mine.tag_id), String(staffs.tag_id)],
    );
    expect(events.length).toBe(2);
  });
});

describe('blog tags, paged', () => {
  it('pages in content order with the total, narrows by a word in both channels, and refuses a page over 200', async () => {
    const stamp = Date.now().toString(36);
    for (const c of ['D', 'a', 'e', 'B', 'c'].map((x) => `頁${stamp}${x}`))
      expect((await api(p.url, 'POST', '/blog_tags', { token: staff, body: { tag_content: c } })).status).toBe(201);
    const all = await api(p.url, 'GET', '/blog_tags', { token: staff });
    expect(Number(all.headers.get('x-total-count'))).toBe(all.body.length);
    const q = encodeURIComponent(`頁${stamp}`);
    const first = await api(p.url, 'GET', `/blog_tags?q=${q}&limit=2`, { token: staff });
    const rest = await api(p.url, 'GET', `/blog_tags?q=${q}&offset=2&limit=10`, { token: staff });
    const past = await api(p.url, 'GET', `/blog_tags?q=${q}&offset=10&limit=10`, { token: staff });
    expect(first.body.length).toBe(2);
    expect(rest.body.length).toBe(3);
    expect(past.body).toEqual([]);
    for (const r of [first, rest, past]) expect(r.headers.get('x-total-count')).toBe('5');
    const contents = [...first.body, ...rest.body].map((t: { tag_content: string }) => t.tag_content);
    expect(contents).toEqual(['a', 'B', 'c', 'D', 'e'].map((x) => `頁${stamp}${x}`));
    const g = await gql(
      p.url,
      `query($q: String) { blogTags(query: $q, limit: 3) { content } blogTagCount(query: $q) }`,
      { q: `頁${stamp}` },
      { token: other },
    );
    expect(g.body.data.blogTags.map((t: { content: string }) => t.content)).toEqual(contents.slice(0, 3));
    expect(g.body.data.blogTagCount).toBe(5);
    expect((await api(p.url, 'GET', '/blog_tags?limit=201', { token: staff })).status).toBe(400);
    const wild = await api(p.url, 'GET', `/blog_tags?q=${encodeURIComponent('%')}`, { token: staff });
    expect(wild.body).toEqual([]);
  });
});
