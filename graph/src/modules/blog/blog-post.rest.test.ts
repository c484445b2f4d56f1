import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../test/http.js';
import { blogWorld, type BlogWorld } from './blog.test-support.js';

let w: BlogWorld;
beforeAll(async () => {
  w = await blogWorld();
});
afterAll(async () => w?.p.close());

describe("/api/blogs with the spec's names", () => {
  it('POST takes options, hasPublishEnd, blog_tags as text and HTML content (sanitized and converted); author_id must be the signed-in user', async () => {
    const tag = (await api(w.p.url, 'POST', '/blog_tags', { token: w.token.staff, body: { tag_content: 'REST' } })).body
      .tag_id;
    const body = {
      title: 'REST からの投稿',
      content:
        '<h2 onclick="x()">見出し</h2><p>本文<img src=x onerror=alert(1)><a href="javascript:alert(1)">リンク</a></p>',
      category_id: String(w.cat.news),
      author_id: w.id.staff,
      likes_employee_ids: '',
      options: 'comment',
      publish_start_date: w.day(-1),
      hasPublishEnd: false,
      publish_end_date: w.day(-1),
      is_pin: 1,
      pin_start_dt: null,
      pin_end_dt: null,
      blog_tags: String(tag),
    };
    const r = await api(w.p.url, 'POST', '/blogs', { token: w.token.staff, body });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({
      title: 'REST からの投稿',
      category_id: w.cat.news,
      author_id: w.id.staff,
      options: 'comment',
      publish_start: w.day(-1),
      publish_end: null,
      has_publish_end: false,
      is_pin: 1,
      pin_start_dt: w.today,
      pin_end_dt: w.day(7),
      pinned: true,
      blog_tags: String(tag),
      upload_files: null,
    });
    expect(r.body.content).toContain('<h2>見出し</h2>');
    expect(r.body.content).not.toMatch(/onclick|onerror|javascript:|<img/);
    const forged = await api(w.p.url, 'POST', '/blogs', {
      token: w.token.staff,
      body: { ...body, author_id: w.id.colleague },
    });
    expect(forged.status).toBe(403);
    const badOptions = await api(w.p.url, 'POST', '/blogs', {
      token: w.token.staff,
      body: { ...body, options: 'comment,share' },
    });
    expect([badOptions.status, badOptions.body.fieldErrors[0].field]).toEqual([400, 'options']);
    const badDate = await api(w.p.url, 'POST', '/blogs', {
      token: w.token.staff,
      body: { ...body, publish_start_date: '2026/13/01' },
    });
    expect([badDate.status, badDate.body.fieldErrors[0].field]).toEqual([400, 'publish_start_date']);
    const got = await api(w.p.url, 'GET', `/blogs/${r.body.blog_id}`, { token: w.token.colleague });
    expect(got.body).toEqual({ ...r.body, can_edit: false, can_delete: false, is_new: 1 }); // New! for the colleague, not for its author
  });

  it('PUT needs the version and answers a stale one with the current record; DELETE removes it', async () => {
    const made = (
      await api(w.p.url, 'POST', '/blogs', {
        token: w.token.staff,
        body: { title: '更新テスト', content: '<p>a</p>', category_id: w.cat.news },
      })
    ).body;
    const noVersion = await api(w.p.url, 'PUT', `/blogs/${made.blog_id}`, {
      token: w.token.staff,
      body: { title: '更新テスト2', category_id: w.cat.news },
    });
    expect(noVersion.status).toBe(400);
    const saved = await api(w.p.url, 'PUT', `/blogs/${made.blog_id}`, {
      token: w.token.staff,
      body: { title: '更新テスト2', content: '<p>b</p>', category_id: w.cat.news, version: made.version },
    });
    expect([saved.status, saved.body.version, saved.body.content]).toEqual([200, made.version + 1, '<p>b</p>']);
    const stale = await api(w.p.url, 'PUT', `/blogs/${made.blog_id}`, {
      token: w.token.staff,
      body: { title: '更新テスト3', category_id: w.cat.news, version: made.version },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.current).toEqual(
      (await api(w.p.url, 'GET', `/blogs/${made.blog_id}`, { token: w.token.staff })).body,
    );
    expect((await api(w.p.url, 'DELETE', `/blogs/${made.blog_id}`, { token: w.token.staff })).body).toEqual({
      blog_id: made.blog_id,
      deleted: true,
    });
    expect((await api(w.p.url, 'GET', `/blogs/${made.blog_id}`, { token: w.token.staff })).status).toBe(404);
  });

  it('a post record carries what a tool needs without a second call: comment_count, is_new for the caller, confirmed_count and is_confirmed', async () => {
    const created = (
      await api(w.p.url, 'POST', '/blogs', {
        token: w.token.staff,
        body: {
          title: 'REST の一件',
          content: '<p>本文</p>',
          category_id: w.cat.news,
          options: 'comment,like',
          publish_start_date: w.day(-1),
        },
      })
    ).body;
    const read = (token: string) => api(w.p.url, 'GET', `/blogs/${created.blog_id}`, { token }).then((r) => r.body);
    expect(await read(w.token.staff)).toMatchObject({
      comment_count: 0,
      is_new: 0,
      confirmed_count: 0,
      is_confirmed: 0,
    }); // one's own post is never New!
    expect((await read(w.token.colleague)).is_new).toBe(1);
    await api(w.p.url, 'POST', '/comments', {
      token: w.token.colleague,
      body: { blog_id: created.blog_id, content: '読みました' },
    });
    expect(await read(w.token.colleague)).toMatchObject({ comment_count: 1, is_new: 0 }); // commented: New! is over
    expect(await read(w.token.admin)).toMatchObject({ comment_count: 1, is_new: 1 });
  });
});
