import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginToken } from '../../test/http.js';
import { blogWorld, type BlogWorld } from '../blog/blog.test-support.js';
import { ask, bell, watchBell, type NotificationItem } from './notification.test-support.js';

/** The bell's grouping: one item per post's likes, per post's comments, per thread's replies. */
let w: BlogWorld;
let third: { id: number; token: string };
beforeAll(async () => {
  w = await blogWorld();
  const [row] = await w.sql(
    `select e.id, e.login_id from employee e join employee s on s.login_id = 'staff' where e.department_id = s.department_id and e.status = 'ACTIVE' and e.role = 'GENERAL' and e.id not in (?, ?) order by e.id limit 1`,
    [w.id.staff, w.id.colleague],
  );
  third = { id: row.id, token: await loginToken(w.p.url, row.login_id) };
});
afterAll(async () => w?.p.close());

const LIKE = `mutation($id: Int!, $on: Boolean!) { likeBlogPost(id: $id, liked: $on) { id } }`;
const COMMENT = `mutation($i: BlogCommentInput!) { addBlogComment(input: $i) { id } }`;
const MARK = `mutation($ids: [Int!]!) { markNotificationsRead(ids: $ids) }`;
const like = (token: string, id: number, on = true) => ask(w, token, LIKE, { id, on });
const comment = async (token: string, postId: number, content: string, parentId?: number) =>
  (await ask<{ addBlogComment: { id: number } }>(w, token, COMMENT, { i: { postId, content, parentId } }))
    .addBlogComment.id;
const published = (who: string, title: string) =>
  w.post(who, { title, categoryId: w.cat.news, publishStart: w.day(-1) });
const about = async (token: string, postId: number): Promise<NotificationItem[]> =>
  (await bell(w, token)).items.filter((n) => n.postId === postId);
const names = (n: NotificationItem) => n.actors.map((a) => a.id);

describe('grouped notifications', () => {
  it('the likes of one post are one item: newest actor first, unread while a part is unread, its time the newest; marking it reads the group; an unlike takes its actor out, the last one the item', async () => {
    const post = await published(w.token.staff, '通知: いいねのまとめ');
    const unread = (await bell(w, w.token.staff)).unreadCount;
    await like(w.token.colleague, post.id);
    await like(w.token.admin, post.id);
    const [two, ...rest] = await about(w.token.staff, post.id);
    expect(rest).toEqual([]);
    expect(two).toMatchObject({ kind: 'LIKE', actorCount: 2, read: false, actor: { id: w.id.admin } });
    expect(names(two!)).toEqual([w.id.admin, w.id.colleague]);
    expect((await bell(w, w.token.staff)).unreadCount).toBe(unread + 1);

    expect(
      (await ask<{ markNotificationsRead: number }>(w, w.token.staff, MARK, { ids: [two!.id] })).markNotificationsRead,
    ).toBe(unread);
    expect(
      await w.sql(`select count(*)::int as n from notification where post_id = ? and read_at is null`, [post.id]),
    ).toEqual([{ n: 0 }]);
    expect((await about(w.token.staff, post.id)).map((n) => n.read)).toEqual([true]);

    await like(w.token.colleague, post.id, false);
    await like(w.token.colleague, post.id); // liked again: newest again, and unread
    await like(third.token, post.id);
    const [three, ...none] = await about(w.token.staff, post.id);
    expect(none).toEqual([]);
    expect(three).toMatchObject({ actorCount: 3, read: false });
    expect(names(three!)).toEqual([third.id, w.id.colleague, w.id.admin]);
    expect(new Date(three!.createdAt).getTime()).toBeGreaterThanOrEqual(new Date(two!.createdAt).getTime());
    const [{ t }] = await w.sql(`select max(created_at) as t from notification where post_id = ?`, [post.id]);
    expect(new Date(three!.createdAt).getTime()).toBe(new Date(t).getTime());

    await like(w.token.colleague, post.id, false);
    expect(names((await about(w.token.staff, post.id))[0]!)).toEqual([third.id, w.id.admin]);
    await like(third.token, post.id, false);
    await like(w.token.admin, post.id, false);
    expect(await about(w.token.staff, post.id)).toEqual([]);
  });

  it("the comments on one post are one item for its author, the replies in one thread one item for the comment's author; reading requests stay apart", async () => {
    const post = await published(w.token.staff, '通知: コメントのまとめ');
    const first = await comment(w.token.colleague, post.id, '最初のスレッド');
    const second = await comment(third.token, post.id, '二つ目のスレッド');
    await comment(w.token.admin, post.id, '一つ目への返信', first);
    await comment(third.token, post.id, '一つ目へのもう一つの返信', first);
    await comment(w.token.admin, post.id, '二つ目への返信', second);
    const [group, ...rest] = await about(w.token.staff, post.id);
    expect(rest).toEqual([]);
    expect(group).toMatchObject({ kind: 'COMMENT', actorCount: 3, excerpt: '二つ目への返信' });
    expect(names(group!)).toEqual([w.id.admin, third.id, w.id.colleague]);
    const replies = await about(w.token.colleague, post.id);
    expect(replies.map((n) => [n.kind, n.actorCount, names(n)])).toEqual([['REPLY', 2, [third.id, w.id.admin]]]);
    const secondThread = await about(third.token, post.id);
    expect(secondThread.map((n) => [n.kind, n.excerpt])).toEqual([['REPLY', '二つ目への返信']]);

    const required = await w.post(w.token.staff, {
      title: '通知: 必読はまとめない',
      categoryId: w.cat.news,
      publishStart: w.day(-1),
      isPin: true,
      requireConfirmation: true,
    });
    await ask(w, w.token.staff, `mutation($id: Int!) { remindBlogPostReading(postId: $id) }`, { id: required.id });
    expect((await about(w.token.colleague, required.id)).map((n) => n.kind)).toEqual(['READ_REQUEST', 'READ_REQUEST']);
  });

  it("a new like updates the recipient's item live (one item, one more actor), never a new row", async () => {
    const post = await published(w.token.staff, '通知: ライブのまとめ');
    await like(w.token.colleague, post.id);
    const live = await watchBell(w, w.token.staff, async () => {
      await like(w.token.admin, post.id);
      await like(w.token.admin, post.id, false);
      return post.id;
    });
    await like(third.token, post.id);
    await live.until((c) => c.postId === post.id);
    const items = await about(w.token.staff, post.id);
    expect(items.map((n) => [n.actorCount, names(n)])).toEqual([[2, [third.id, w.id.colleague]]]);
    await live.close();
  });
});
