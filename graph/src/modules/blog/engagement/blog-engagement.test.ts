import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, gql } from '../../../test/http.js';
import { blogWorld, type BlogWorld } from '../blog.test-support.js';

let w: BlogWorld;
const posts: Record<string, number> = {};
beforeAll(async () => {
  w = await blogWorld();
  posts.open = (
    await w.post(w.token.staff, { title: 'いいね歓迎', categoryId: w.cat.news, publishStart: w.day(-2) })
  ).id;
  posts.noLikes = (
    await w.post(w.token.staff, {
      title: 'いいねなし',
      categoryId: w.cat.news,
      publishStart: w.day(-1),
      allowLikes: false,
    })
  ).id;
  posts.board = (
    await w.post(w.token.admin, { title: '役員だけ', categoryId: w.cat.board, publishStart: w.day(-1) })
  ).id;
  posts.older = (
    await w.post(w.token.staff, { title: '先月の話', categoryId: w.cat.news, publishStart: w.day(-30) })
  ).id;
});
afterAll(async () => w?.p.close());

const FIELDS = `id likeCount likedByMe likers { id name } seenCount isNew saved`;
const view = async (token: string, id: number) => {
  const r = await gql(w.p.url, `query($id: Int!) { blogPost(id: $id) { ${FIELDS} } }`, { id }, { token });
  if (r.body.errors) throw new Error(JSON.stringify(r.body.errors));
  return r.body.data.blogPost;
};
const mutate = (token: string, m: string, vars: Record<string, unknown>) => gql(w.p.url, m, vars, { token });
const LIKE = `mutation($id: Int!, $on: Boolean!) { likeBlogPost(id: $id, liked: $on) { ${FIELDS} } }`;
const SEEN = `mutation($id: Int!) { markBlogPostSeen(id: $id) { ${FIELDS} } }`;
const SAVE = `mutation($id: Int!, $on: Boolean!) { saveBlogPost(id: $id, saved: $on) { ${FIELDS} } }`;
const events = async (type: string, postId: number) =>
  (
    await w.sql(
      `select payload from outbox_event where type = ? and aggregate_id = ? union all select payload from outbox_sent where type = ? and aggregate_id = ?`,
      [type, String(postId), type, String(postId)],
    )
  ).length;

describe('likes', () => {
  it('each employee likes once; the count, the likers in order and the own flag follow; unliking takes it back; one event per change', async () => {
    const a = await mutate(w.token.colleague, LIKE, { id: posts.open, on: true });
    expect(a.body.errors).toBeUndefined();
    expect(a.body.data.likeBlogPost).toMatchObject({ likeCount: 1, likedByMe: true, likers: [{ id: w.id.colleague }] });
    // Liking again changes nothing and records nothing.
    await mutate(w.token.colleague, LIKE, { id: posts.open, on: true });
    await mutate(w.token.admin, LIKE, { id: posts.open, on: true });
    const forStaff = await view(w.token.staff, posts.open);
    expect(forStaff).toMatchObject({ likeCount: 2, likedByMe: false });
    expect(forStaff.likers.map((l: { id: number }) => l.id)).toEqual([w.id.colleague, w.id.admin]);
    expect(await events('blog.post.like_changed', posts.open)).toBe(2);
    const back = await mutate(w.token.admin, LIKE, { id: posts.open, on: false });
    expect(back.body.data.likeBlogPost).toMatchObject({ likeCount: 1, likedByMe: false });
    expect(await events('blog.post.like_changed', posts.open)).toBe(3);
  });

  it('a post whose author turned likes off refuses a like (FORBIDDEN in GraphQL, 403 on /api) and stores nothing', async () => {
    const r = await mutate(w.token.colleague, LIKE, { id: posts.noLikes, on: true });
    expect(r.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const t = await api(w.p.url, 'GET', `/blogs/${posts.noLikes}/toggle_like/${w.id.colleague}`, {
      token: w.token.colleague,
    });
    expect(t.status).toBe(403);
    expect((await view(w.token.staff, posts.noLikes)).likeCount).toBe(0);
  });

  it("/api toggle_like flips the caller's like and answers likes_employee_ids; another employee's id is 403 and changes nothing", async () => {
    const on = await api(w.p.url, 'GET', `/blogs/${posts.older}/toggle_like/${w.id.staff}`, { token: w.token.staff });
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ blog_id: posts.older, likes_employee_ids: String(w.id.staff) });
    const other = await api(w.p.url, 'GET', `/blogs/${posts.older}/toggle_like/${w.id.colleague}`, {
      token: w.token.staff,
    });
    expect(other.status).toBe(403);
    expect(other.body.code).toBe('FORBIDDEN');
    const off = await api(w.p.url, 'GET', `/blogs/${posts.older}/toggle_like/${w.id.staff}`, { token: w.token.staff });
    expect(off.body.likes_employee_ids).toBe('');
    const bad = await api(w.p.url, 'GET', `/blogs/${posts.older}/toggle_like/abc`, { token: w.token.staff });
    expect(bad.status).toBe(400);
  });
});

describe('likes at the same moment', () => {
  it('several people liking and unliking one post at once all succeed, each counted once (no deadlock between their locks)', async () => {
    const id = (await w.post(w.token.staff, { title: '同時のいいね', categoryId: w.cat.news, publishStart: w.day(-1) }))
      .id;
    const tokens = [w.token.admin, w.token.staff, w.token.colleague];
    for (let round = 0; round < 15; round++) {
      const on = round % 2 === 0;
      const answers = await Promise.all([
        ...tokens.map((t) => mutate(t, LIKE, { id, on })),
        // The REST toggle takes the same lock, beside them.
        api(w.p.url, 'GET', `/blogs/${id}/toggle_like/${w.id.admin}`, { token: w.token.admin }),
      ]);
      for (const a of answers.slice(0, tokens.length)) expect(a.body.errors, `round ${round}`).toBeUndefined();
      expect(answers[tokens.length]!.status, `round ${round}`).toBe(200);
    }
    const likes = await w.sql(`select employee_id from blog_like where post_id = ?`, [id]);
    expect(new Set(likes.map((l) => l.employee_id)).size).toBe(likes.length);
  });
});

describe('a post many people liked', () => {
  it('the card names the first 20 likers and counts them all; blogPostLikers and /api/blogs/{id}/likers page through every one in the order they liked', async () => {
    const id = (await w.post(w.token.staff, { title: '全社で人気', categoryId: w.cat.news, publishStart: w.day(-1) }))
      .id;
    // 30 likes, one a minute apart; the viewer (colleague) is the 25th, beyond the card's names.
    const others: { id: number }[] = await w.sql(
      `select id from employee where status = 'ACTIVE' and id <> ? order by id limit 29`,
      [w.id.colleague],
    );
    const order = [...others.slice(0, 24).map((e) => e.id), w.id.colleague, ...others.slice(24).map((e) => e.id)];
    await w.sql(
      `insert into blog_like (post_id, employee_id, created_at)
       select ?, u.id, now() - interval '1 hour' + u.k * interval '1 minute' from unnest(?::int[]) with ordinality u(id, k)`,
      [id, `{${order.join(',')}}`],
    );
    const card = await view(w.token.colleague, id);
    expect(card.likeCount).toBe(30);
    expect(card.likedByMe).toBe(true);
    expect(card.likers.map((l: { id: number }) => l.id)).toEqual(order.slice(0, 20));

    const PAGE = `query($id: Int!, $offset: Int!, $limit: Int!) { blogPostLikers(id: $id, offset: $offset, limit: $limit) { id name departmentName } }`;
    const pages: number[] = [];
    for (let offset = 0; offset < 40; offset += 12) {
      const r = await gql(w.p.url, PAGE, { id, offset, limit: 12 }, { token: w.token.staff });
      expect(r.body.errors).toBeUndefined();
      pages.push(...r.body.data.blogPostLikers.map((l: { id: number }) => l.id));
    }
    expect(pages).toEqual(order);
    const rest = await api(w.p.url, 'GET', `/blogs/${id}/likers?offset=20&limit=5`, { token: w.token.staff });
    expect(rest.status).toBe(200);
    expect(rest.body.map((l: { employee_id: number }) => l.employee_id)).toEqual(order.slice(20, 25));
    expect(Object.keys(rest.body[0]).sort()).toEqual(['department', 'employee_id', 'name']);
    const bad = await api(w.p.url, 'GET', `/blogs/${id}/likers?limit=0`, { token: w.token.staff });
    expect(bad.status).toBe(400);

    // A like's event carries the count and the card's 20 names, not every liker.
    expect((await mutate(w.token.colleague, LIKE, { id, on: false })).body.errors).toBeUndefined();
    expect((await mutate(w.token.colleague, LIKE, { id, on: true })).body.errors).toBeUndefined();
    const [event] = await w.sql(
      `select payload from (select payload, seq from outbox_event where type = 'blog.post.like_changed' and aggregate_id = ?
        union all select payload, seq from outbox_sent where type = 'blog.post.like_changed' and aggregate_id = ?) e order by seq desc limit 1`,
      [String(id), String(id)],
    );
    expect(event.payload.likeCount).toBe(30);
    expect(event.payload.likerIds).toEqual(order.slice(0, 20));
  });
});

describe('seen and New!', () => {
  it("a post is New! until the viewer opens it; opening never un-sees; toggle_seen keeps the spec's toggle for tools", async () => {
    expect((await view(w.token.colleague, posts.older)).isNew).toBe(true);
    const seen = await mutate(w.token.colleague, SEEN, { id: posts.older });
    expect(seen.body.data.markBlogPostSeen).toMatchObject({ isNew: false, seenCount: 1 });
    await mutate(w.token.colleague, SEEN, { id: posts.older });
    expect((await view(w.token.colleague, posts.older)).seenCount).toBe(1);
    expect((await view(w.token.admin, posts.older)).isNew).toBe(true);

    const t = await api(w.p.url, 'GET', `/blogs/${posts.older}/toggle_seen/${w.id.staff}`, { token: w.token.staff });
    expect(t.body).toEqual({ blog_id: posts.older, seen_employee_ids: `${w.id.colleague},${w.id.staff}` });
    const rec = await api(w.p.url, 'GET', `/blogs/${posts.older}`, { token: w.token.staff });
    expect(rec.body).toMatchObject({
      seen_employee_ids: `${w.id.colleague},${w.id.staff}`,
      likes_employee_ids: '',
      is_save: 0,
    });
  });

  it('New! is for what others published: never on one’s own post, a draft or a scheduled post; a comment or a confirmation ends it as opening does', async () => {
    expect((await view(w.token.staff, posts.older)).isNew).toBe(false); // the author's own
    const draft = await w.post(w.token.staff, { title: '下書き', categoryId: w.cat.news, isDraft: true });
    const scheduled = await w.post(w.token.staff, {
      title: '来週の話',
      categoryId: w.cat.news,
      publishStart: w.day(7),
    });
    expect((await view(w.token.staff, draft.id)).isNew).toBe(false);
    expect((await view(w.token.admin, scheduled.id)).isNew).toBe(false); // 管理者 sees it, marked 公開予定

    const commented = (
      await w.post(w.token.staff, { title: 'コメントで既読', categoryId: w.cat.news, publishStart: w.day(-1) })
    ).id;
    expect((await view(w.token.colleague, commented)).isNew).toBe(true);
    const c = await mutate(w.token.colleague, `mutation($i: BlogCommentInput!) { addBlogComment(input: $i) { id } }`, {
      i: { postId: commented, content: '拝見しました' },
    });
    expect(c.body.errors).toBeUndefined();
    expect((await view(w.token.colleague, commented)).isNew).toBe(false);

    const required = (
      await w.post(w.token.staff, {
        title: '必読',
        categoryId: w.cat.news,
        publishStart: w.day(-1),
        isPin: true,
        pinStart: w.day(-1),
        pinEnd: w.day(3),
        requireConfirmation: true,
      })
    ).id;
    expect((await view(w.token.colleague, required)).isNew).toBe(true);
    const confirmed = await mutate(
      w.token.colleague,
      `mutation($id: Int!) { confirmBlogPostReading(id: $id) { ${FIELDS} } }`,
      { id: required },
    );
    expect(confirmed.body.data.confirmBlogPostReading.isNew).toBe(false);
  });
});

describe('saves', () => {
  it('the star per employee, the Saved blogs filter (GraphQL and /api) and /api blog_save for the caller only', async () => {
    const s = await mutate(w.token.colleague, SAVE, { id: posts.older, on: true });
    expect(s.body.data.saveBlogPost.saved).toBe(true);
    expect((await view(w.token.staff, posts.older)).saved).toBe(false);
    const feed = await gql(
      w.p.url,
      `{ blogFeed(filter: { scope: SAVED }) { items { id saved } } }`,
      {},
      { token: w.token.colleague },
    );
    expect(feed.body.data.blogFeed.items).toEqual([{ id: posts.older, saved: true }]);
    const restFeed = await api(w.p.url, 'GET', '/blogs?saved=1', { token: w.token.colleague });
    expect(restFeed.body.map((b: { blog_id: number; is_save: number }) => [b.blog_id, b.is_save])).toEqual([
      [posts.older, 1],
    ]);

    const post = await api(w.p.url, 'POST', '/blog_save', {
      token: w.token.colleague,
      body: { blog_id: posts.open, employee_id: w.id.colleague, is_save: 1 },
    });
    expect(post.body).toEqual({ blog_id: posts.open, employee_id: w.id.colleague, is_save: 1 });
    const list = await api(w.p.url, 'GET', `/blog_save?employee_id=${w.id.colleague}`, { token: w.token.colleague });
    expect(list.body.map((x: { blog_id: number }) => x.blog_id)).toEqual([posts.open, posts.older]);
    expect(
      (await api(w.p.url, 'GET', `/blog_save?employee_id=${w.id.colleague}`, { token: w.token.staff })).status,
    ).toBe(403);
    const forOther = await api(w.p.url, 'POST', '/blog_save', {
      token: w.token.staff,
      body: { blog_id: posts.open, employee_id: w.id.colleague, is_save: 0 },
    });
    expect(forOther.status).toBe(403);
    const badFlag = await api(w.p.url, 'POST', '/blog_save', {
      token: w.token.colleague,
      body: { blog_id: posts.open, employee_id: w.id.colleague, is_save: 'yes' },
    });
    expect(badFlag.status).toBe(400);
    expect(badFlag.body.code).toBe('BAD_USER_INPUT');
    const off = await api(w.p.url, 'POST', '/blog_save', {
      token: w.token.colleague,
      body: { blog_id: posts.open, employee_id: w.id.colleague, is_save: 0 },
    });
    expect(off.body.is_save).toBe(0);
    expect(
      (await api(w.p.url, 'GET', '/blog_save', { token: w.token.colleague })).body.map(
        (x: { blog_id: number }) => x.blog_id,
      ),
    ).toEqual([posts.older]);
  });
});

describe('none of it leaks to those who may not see the post', () => {
  it('an outsider cannot like, mark, save or list the likers of a post outside their categories: NOT_FOUND / 404, nothing stored', async () => {
    await mutate(w.token.admin, LIKE, { id: posts.board, on: true });
    for (const [m, vars] of [
      [LIKE, { id: posts.board, on: true }],
      [SEEN, { id: posts.board }],
      [SAVE, { id: posts.board, on: true }],
    ] as const) {
      const r = await mutate(w.token.staff, m, vars);
      expect(r.body.errors[0].extensions.code).toBe('NOT_FOUND');
      expect(JSON.stringify(r.body)).not.toContain('役員');
    }
    for (const path of [
      `/blogs/${posts.board}/toggle_like/${w.id.staff}`,
      `/blogs/${posts.board}/toggle_seen/${w.id.staff}`,
    ]) {
      const r = await api(w.p.url, 'GET', path, { token: w.token.staff });
      expect(r.status, path).toBe(404);
      expect(JSON.stringify(r.body)).not.toContain(String(w.id.admin));
    }
    const save = await api(w.p.url, 'POST', '/blog_save', {
      token: w.token.staff,
      body: { blog_id: posts.board, employee_id: w.id.staff, is_save: 1 },
    });
    expect(save.status).toBe(404);
    const likers = await gql(
      w.p.url,
      `query($id: Int!) { blogPostLikers(id: $id) { id } }`,
      { id: posts.board },
      {
        token: w.token.staff,
      },
    );
    expect(likers.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const restLikers = await api(w.p.url, 'GET', `/blogs/${posts.board}/likers`, { token: w.token.staff });
    expect(restLikers.status).toBe(404);
    expect(JSON.stringify(restLikers.body)).not.toContain(String(w.id.admin));
    const [n] = await w.sql(
      `select (select count(*) from blog_like where post_id = ?)::int as likes, (select count(*) from blog_seen where post_id = ?)::int + (select count(*) from blog_save where post_id = ?)::int as other`,
      [posts.board, posts.board, posts.board],
    );
    expect(n).toEqual({ likes: 1, other: 0 });
  });

  it('a saved post that its saver may no longer read drops out of their saves and the Saved filter', async () => {
    const p = (await w.post(w.token.staff, { title: '移る記事', categoryId: w.cat.news, publishStart: w.day(-1) })).id;
    await mutate(w.token.colleague, SAVE, { id: p, on: true });
    await w.sql(`update blog_post set category_id = ? where id = ?`, [w.cat.board, p]);
    const list = await api(w.p.url, 'GET', '/blog_save', { token: w.token.colleague });
    expect(list.body.map((x: { blog_id: number }) => x.blog_id)).not.toContain(p);
    const feed = await gql(
      w.p.url,
      `{ blogFeed(filter: { scope: SAVED }) { items { id } } }`,
      {},
      { token: w.token.colleague },
    );
    expect(feed.body.data.blogFeed.items.map((i: { id: number }) => i.id)).not.toContain(p);
  });

  it('a toggle behind GET signed by the session cookie must come from the app (CSRF): a bare cross-site GET is refused', async () => {
    const cookie = `intranet_sid=${w.token.staff}`;
    const bare = await fetch(`${w.p.url}/api/blogs/${posts.open}/toggle_like/${w.id.staff}`, { headers: { cookie } });
    expect(bare.status).toBe(403);
    const fromApp = await fetch(`${w.p.url}/api/blogs/${posts.open}/toggle_like/${w.id.staff}`, {
      headers: { cookie, 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(fromApp.status).toBe(200);
  });
});
