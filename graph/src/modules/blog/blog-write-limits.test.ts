/**
 * Per-person write limits on the blog (platform/write-throttle.ts), with small limits so a test can
 * reach them: over the minute's limit a write is a 429 with Retry-After (TOO_MANY_REQUESTS in
 * GraphQL) and writes nothing; another person is not affected; aliases count one by one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, gql } from '../../test/http.js';
import { png } from '../../lib/files/test-files.js';
import { blogWorld, doc, type BlogWorld } from './blog.test-support.js';

let w: BlogWorld;
let post: number;
beforeAll(async () => {
  w = await blogWorld({
    THROTTLE_COMMENTS_PER_MINUTE: '3',
    THROTTLE_LIKES_PER_MINUTE: '2',
    THROTTLE_POSTS_PER_MINUTE: '2',
    THROTTLE_UPLOADS_PER_MINUTE: '1',
  });
  post = (await w.post(w.token.admin, { title: '制限の確認', categoryId: w.cat.news, publishStart: w.day(-1) })).id;
});
afterAll(async () => w?.p.close());

const ADD = `mutation($i: BlogCommentInput!) { addBlogComment(input: $i) { id } }`;
const comments = async () =>
  (await w.sql(`select count(*)::int as n from blog_comment where post_id = ?`, [post]))[0].n as number;

describe('per-person write limits', () => {
  it('comments: the fourth in a minute is refused in both channels, nothing written; aliases count each; others still comment', async () => {
    const aliases = `mutation { ${[1, 2, 3, 4].map((i) => `c${i}: addBlogComment(input: { postId: ${post}, content: "連投 ${i}" }) { id }`).join(' ')} }`;
    const r = await gql(w.p.url, aliases, {}, { token: w.token.colleague });
    // The fields are non-null, so one refusal nulls the answer's data; the first three were written.
    expect(r.body.errors).toHaveLength(1);
    expect(r.body.errors[0]).toMatchObject({
      path: ['c4'],
      extensions: { code: 'TOO_MANY_REQUESTS', retryAfterSeconds: expect.any(Number) },
    });
    expect(r.body.errors[0].message).toMatch(/コメント・返信が短時間に多すぎます（1分間に3件まで）/);
    const rest = await api(w.p.url, 'POST', '/comments', {
      token: w.token.colleague,
      body: { blog_id: post, content: 'もう一つ' },
    });
    expect(rest.status).toBe(429);
    expect(rest.body.code).toBe('TOO_MANY_REQUESTS');
    expect(Number(rest.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(rest.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(await comments()).toBe(3);
    expect(
      (await gql(w.p.url, ADD, { i: { postId: post, content: '別の人' } }, { token: w.token.staff })).body.errors,
    ).toBeUndefined();
    // A new window starts a minute after the first write.
    await w.sql(`update write_throttle set window_started_at = window_started_at - interval '61 seconds'`);
    expect(
      (await gql(w.p.url, ADD, { i: { postId: post, content: '一分後' } }, { token: w.token.colleague })).body.errors,
    ).toBeUndefined();
  });

  it('likes and saves share one limit; seen marks are not limited', async () => {
    const like = (on: boolean) =>
      gql(
        w.p.url,
        `mutation($id: Int!, $on: Boolean!) { likeBlogPost(id: $id, liked: $on) { id } }`,
        { id: post, on },
        { token: w.token.staff },
      );
    expect((await like(true)).body.errors).toBeUndefined();
    expect((await like(false)).body.errors).toBeUndefined();
    expect((await like(true)).body.errors[0].extensions.code).toBe('TOO_MANY_REQUESTS');
    expect(
      (await api(w.p.url, 'GET', `/blogs/${post}/toggle_like/${w.id.staff}`, { token: w.token.staff })).status,
    ).toBe(429);
    for (let i = 0; i < 4; i++)
      expect(
        (await api(w.p.url, 'GET', `/blogs/${post}/toggle_seen/${w.id.staff}`, { token: w.token.staff })).status,
      ).toBe(200);
  });

  it('posts, their edits and restores (each keeps a whole revision), and body images', async () => {
    const first = await w.post(w.token.staff, { title: '一つ目', categoryId: w.cat.news });
    await w.post(w.token.staff, { title: '二つ目', categoryId: w.cat.news });
    await expect(w.post(w.token.staff, { title: '三つ目', categoryId: w.cat.news })).rejects.toThrow(
      /TOO_MANY_REQUESTS/,
    );
    const edit = await gql(
      w.p.url,
      `mutation($id: Int!, $i: BlogPostInput!) { updateBlogPost(id: $id, input: $i) { version } }`,
      {
        id: first.id,
        i: { title: '一つ目（直し）', content: doc('本文'), categoryId: w.cat.news, version: first.version },
      },
      { token: w.token.staff },
    );
    expect(edit.body.errors[0].extensions.code).toBe('TOO_MANY_REQUESTS');
    const restore = await api(w.p.url, 'POST', `/blogs/${first.id}/revisions/${first.version}/restore`, {
      token: w.token.staff,
      body: { version: first.version },
    });
    expect(restore.status).toBe(429);
    expect((await w.sql(`select title from blog_post where id = ?`, [first.id]))[0].title).toBe('一つ目');
    const image = { name: 'a.png', data_url: `data:image/png;base64,${(await png(32, 32)).toString('base64')}` };
    expect((await api(w.p.url, 'POST', '/blog_images', { token: w.token.staff, body: image })).status).toBe(201);
    expect((await api(w.p.url, 'POST', '/blog_images', { token: w.token.staff, body: image })).status).toBe(429);
  });

  it('every counted answer says where the person stands (RateLimit-Limit, -Remaining, -Reset), in both channels and on the 429; sign-in too', async () => {
    await w.sql(`delete from write_throttle`); // a fresh window for this test
    const limits = (h: Headers) =>
      [h.get('ratelimit-limit'), h.get('ratelimit-remaining'), Number(h.get('ratelimit-reset'))] as const;
    const first = await gql(
      w.p.url,
      `mutation($id: Int!) { saveBlogPost(id: $id, saved: true) { id } }`,
      { id: post },
      { token: w.token.staff },
    );
    expect(first.body.errors).toBeUndefined();
    const [limit, remaining, reset] = limits(first.headers);
    expect([limit, remaining]).toEqual(['2', '1']);
    expect(reset).toBeGreaterThanOrEqual(1);
    expect(reset).toBeLessThanOrEqual(60);
    const second = await api(w.p.url, 'GET', `/blogs/${post}/toggle_like/${w.id.staff}`, { token: w.token.staff });
    expect(second.status).toBe(200);
    expect(limits(second.headers).slice(0, 2)).toEqual(['2', '0']);
    const refused = await api(w.p.url, 'GET', `/blogs/${post}/toggle_like/${w.id.staff}`, { token: w.token.staff });
    expect(refused.status).toBe(429);
    expect(limits(refused.headers).slice(0, 2)).toEqual(['2', '0']);
    expect(Number(refused.headers.get('retry-after'))).toBe(limits(refused.headers)[2]);
    // An answer no limit counted says nothing of limits.
    expect(
      (await api(w.p.url, 'GET', `/blogs/${post}`, { token: w.token.staff })).headers.get('ratelimit-limit'),
    ).toBeNull();
    // Sign-in: the failures this address may still make for this account before it is refused.
    const wrong = await api(w.p.url, 'POST', '/auth/login', {
      body: { loginId: 'no-such-person', password: 'wrong password' },
    });
    expect(wrong.status).toBe(401);
    expect(Number(wrong.headers.get('ratelimit-remaining'))).toBe(Number(wrong.headers.get('ratelimit-limit')) - 1);
  });
});
