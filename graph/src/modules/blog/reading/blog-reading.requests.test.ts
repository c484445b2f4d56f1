import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogWorld, type BlogWorld } from '../blog.test-support.js';
import { fireDueTransitions } from '../blog-post.schedule.js';
import { ask, bell, watchBell } from '../../notifications/notification.test-support.js';

/** When the readers of a post asking for confirmation are asked: at its publishing (also by the scheduler) and on a move to another category, each reader once. */
let w: BlogWorld;
beforeAll(async () => {
  w = await blogWorld();
});
afterAll(async () => w?.p.close());

const UPDATE = `mutation($id: Int!, $i: BlogPostInput!) { updateBlogPost(id: $id, input: $i) { id version } }`;
const requests = async (token: string, postId: number) =>
  (await bell(w, token)).items.filter((n) => n.postId === postId && n.kind === 'READ_REQUEST');
const asked = async (postId: number) =>
  (
    await w.sql(
      `select recipient_id from notification where post_id = ? and kind = 'READ_REQUEST' order by recipient_id`,
      [postId],
    )
  ).map((r) => r.recipient_id as number);

/** The colleague's bell, live once a like of their own post (taken back at once) has come back. */
async function colleagueBell() {
  const own = await w.post(w.token.colleague, {
    title: `同僚の投稿 ${Math.random()}`,
    categoryId: w.cat.news,
    publishStart: w.day(-1),
  });
  const LIKE = `mutation($id: Int!, $on: Boolean!) { likeBlogPost(id: $id, liked: $on) { id } }`;
  return watchBell(w, w.token.colleague, async () => {
    await ask(w, w.token.staff, LIKE, { id: own.id, on: true });
    await ask(w, w.token.staff, LIKE, { id: own.id, on: false });
    return own.id;
  });
}

describe('reading requests', () => {
  it('a post scheduled for later asks its readers when the scheduler publishes it, live, once', async () => {
    const post = await w.post(w.token.staff, {
      title: '必読: 明日公開',
      categoryId: w.cat.news,
      publishStart: w.day(1),
      isPin: true,
      pinStart: w.day(1),
      pinEnd: w.day(3),
      requireConfirmation: true,
    });
    expect(await requests(w.token.colleague, post.id)).toEqual([]);
    const live = await colleagueBell();
    // Its day arrives: the post now starts today and the scheduler last fired yesterday.
    await w.sql(`update blog_post set publish_start = ?::date, pin_start = ?::date where id = ?`, [
      w.today,
      w.today,
      post.id,
    ]);
    await w.sql(
      `insert into blog_scheduler (id, fired_day) values (true, ?::date) on conflict (id) do update set fired_day = excluded.fired_day`,
      [w.day(-1)],
    );
    const fired = await fireDueTransitions(w.p.db.orm.em.fork(), w.today);
    expect(fired.events).toContainEqual({ type: 'blog.post.published', postId: post.id });
    await live.until((c) => c.postId === post.id);
    expect((await requests(w.token.colleague, post.id)).map((n) => n.read)).toEqual([false]);
    expect(await asked(post.id)).toEqual(expect.arrayContaining([w.id.colleague, w.id.admin]));
    expect(await asked(post.id)).not.toContain(w.id.staff);
    expect(new Set(await asked(post.id)).size).toBe((await asked(post.id)).length);
    await live.close();
  });

  it('a move into another category asks its new readers, each once; readers of the old one who may no longer see it stop seeing the request', async () => {
    const fields = {
      content: { blocks: [] },
      publishStart: w.day(-1),
      isPin: true,
      pinStart: w.day(-1),
      pinEnd: w.day(3),
      requireConfirmation: true,
    };
    let post = await w.post(w.token.admin, { title: '必読: 移動', categoryId: w.cat.board, ...fields });
    expect(await asked(post.id)).toEqual([]); // 役員会: its only member wrote it
    const move = async (categoryId: number) =>
      (post = (
        await ask<{ updateBlogPost: typeof post }>(w, w.token.admin, UPDATE, {
          id: post.id,
          i: { title: '必読: 移動', categoryId, version: post.version, ...fields },
        })
      ).updateBlogPost);
    await move(w.cat.news);
    expect(await asked(post.id)).toEqual(expect.arrayContaining([w.id.staff, w.id.colleague]));
    const once = await asked(post.id);
    expect(new Set(once).size).toBe(once.length);
    expect(await requests(w.token.colleague, post.id)).toHaveLength(1);

    await move(w.cat.board);
    expect(await requests(w.token.colleague, post.id)).toEqual([]);
    expect(await requests(w.token.staff, post.id)).toEqual([]);
    await move(w.cat.notice); // 営業通達: the staff only (already asked)
    expect(await requests(w.token.staff, post.id)).toHaveLength(1);
    expect(await requests(w.token.colleague, post.id)).toEqual([]);
    await move(w.cat.news);
    expect(await asked(post.id)).toEqual(once);
    expect(await requests(w.token.colleague, post.id)).toHaveLength(1);
  });
});
