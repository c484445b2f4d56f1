import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, gql } from '../../test/http.js';
import { blogWorld, type BlogWorld } from '../blog/blog.test-support.js';
import { ask, bell, watchBell, type NotificationItem } from './notification.test-support.js';

let w: BlogWorld;
beforeAll(async () => {
  w = await blogWorld();
});
afterAll(async () => w?.p.close());

const LIKE = `mutation($id: Int!, $on: Boolean!) { likeBlogPost(id: $id, liked: $on) { id } }`;
const COMMENT = `mutation($i: BlogCommentInput!) { addBlogComment(input: $i) { id } }`;
const like = (token: string, id: number, on = true) => ask(w, token, LIKE, { id, on });
const comment = async (token: string, postId: number, content: string, parentId?: number) =>
  (await ask<{ addBlogComment: { id: number } }>(w, token, COMMENT, { i: { postId, content, parentId } }))
    .addBlogComment.id;
const published = (who: string, title: string, categoryId = w.cat.news) =>
  w.post(who, { title, categoryId, publishStart: w.day(-1) });
const about = (items: NotificationItem[], postId: number) => items.filter((n) => n.postId === postId);

describe('notifications', () => {
  it('a like tells the post author (never the liker of their own post); an unlike withdraws it', async () => {
    const post = await published(w.token.staff, '通知: いいね');
    await like(w.token.staff, post.id);
    expect(about((await bell(w, w.token.staff)).items, post.id)).toEqual([]);

    await like(w.token.colleague, post.id);
    const [n] = about((await bell(w, w.token.staff)).items, post.id);
    expect(n).toMatchObject({
      kind: 'LIKE',
      postTitle: '通知: いいね',
      read: false,
      actor: { id: w.id.colleague },
      commentId: null,
    });

    await like(w.token.colleague, post.id, false);
    expect(about((await bell(w, w.token.staff)).items, post.id)).toEqual([]);
  });

  it('a comment tells the post author, a reply the comment author; nobody hears of their own', async () => {
    const post = await published(w.token.staff, '通知: コメント');
    const top = await comment(w.token.colleague, post.id, 'ご質問があります。詳細を教えてください。');
    await comment(w.token.staff, post.id, '作成者の返信', top); // the colleague hears of it, the staff (its writer, the post's author) not
    await comment(w.token.admin, post.id, '管理者の返信', top); // both hear of it
    const last = await comment(w.token.colleague, post.id, '自分のコメントへの返信', top); // the post author hears of it, the colleague not

    // One item each (notification.groups.test.ts): the post's comments for its author, the thread's replies for the comment's author.
    const staff = about((await bell(w, w.token.staff)).items, post.id);
    expect(staff.map((n) => [n.kind, n.actors.map((a) => a.id)])).toEqual([['COMMENT', [w.id.colleague, w.id.admin]]]);
    expect(staff[0]).toMatchObject({ commentId: last, excerpt: '自分のコメントへの返信', actorCount: 2 });
    const colleague = about((await bell(w, w.token.colleague)).items, post.id);
    expect(colleague.map((n) => [n.kind, n.actors.map((a) => a.id)])).toEqual([['REPLY', [w.id.admin, w.id.staff]]]);
    expect(colleague[0]).toMatchObject({ excerpt: '管理者の返信' });
    expect(about((await bell(w, w.token.admin)).items, post.id)).toEqual([]);
  });

  it("only the recipient reads and marks their notifications: another's id is NOT_FOUND and changes nothing", async () => {
    const post = await published(w.token.staff, '通知: 既読');
    await like(w.token.colleague, post.id);
    await like(w.token.admin, post.id);
    const mine = about((await bell(w, w.token.staff)).items, post.id);
    expect(mine).toHaveLength(1); // the post's likes are one item
    expect(about((await bell(w, w.token.colleague)).items, post.id)).toEqual([]);

    const stolen = await gql(
      w.p.url,
      `mutation($ids: [Int!]!) { markNotificationsRead(ids: $ids) }`,
      { ids: [mine[0]!.id] },
      { token: w.token.colleague },
    );
    expect(stolen.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect(about((await bell(w, w.token.staff)).items, post.id).every((n) => !n.read)).toBe(true);

    const before = (await bell(w, w.token.staff)).unreadCount;
    const after = await ask<{ markNotificationsRead: number }>(
      w,
      w.token.staff,
      `mutation($ids: [Int!]!) { markNotificationsRead(ids: $ids) }`,
      { ids: [mine[0]!.id] },
    );
    expect(after.markNotificationsRead).toBe(before - 1);
    expect(about((await bell(w, w.token.staff)).items, post.id).map((n) => n.read)).toEqual([true]);

    const empty = await gql(w.p.url, `mutation { markNotificationsRead(ids: []) }`, {}, { token: w.token.staff });
    expect(empty.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(
      (await ask<{ markAllNotificationsRead: number }>(w, w.token.staff, `mutation { markAllNotificationsRead }`))
        .markAllNotificationsRead,
    ).toBe(0);
    expect((await bell(w, w.token.staff)).unreadCount).toBe(0);
    expect(
      (await ask<{ notificationUnreadCount: number }>(w, w.token.staff, `{ notificationUnreadCount }`))
        .notificationUnreadCount,
    ).toBe(0);
  });

  it('deleting a comment or a post takes its notifications with it', async () => {
    const post = await published(w.token.staff, '通知: 削除');
    const top = await comment(w.token.colleague, post.id, '消えるコメント');
    await comment(w.token.admin, post.id, '消える返信', top);
    await like(w.token.admin, post.id);
    expect(about((await bell(w, w.token.staff)).items, post.id).map((n) => n.kind)).toEqual(['LIKE', 'COMMENT']);
    expect(about((await bell(w, w.token.colleague)).items, post.id)).toHaveLength(1);

    await ask(w, w.token.colleague, `mutation($id: Int!) { deleteBlogComment(id: $id) }`, { id: top });
    expect(about((await bell(w, w.token.staff)).items, post.id).map((n) => n.kind)).toEqual(['LIKE']);
    expect(about((await bell(w, w.token.colleague)).items, post.id)).toEqual([]);
    await ask(w, w.token.staff, `mutation($id: Int!) { deleteBlogPost(id: $id) }`, { id: post.id });
    expect(await w.sql(`select count(*)::int as n from notification where post_id = ?`, [post.id])).toEqual([{ n: 0 }]);
  });

  it('pages newest first on the cursor', async () => {
    // Three posts: comments on one post would be one item.
    for (const t of ['一', '二', '三'])
      await comment(w.token.colleague, (await published(w.token.staff, `通知: ページ${t}`)).id, t);
    const q = `query($after: String) { notifications(after: $after, limit: 2) { nextCursor items { id excerpt } } }`;
    const first = (
      await ask<{ notifications: { nextCursor: string; items: { id: number; excerpt: string }[] } }>(
        w,
        w.token.staff,
        q,
      )
    ).notifications;
    expect(first.items.map((n) => n.excerpt)).toEqual(['三', '二']);
    const second = (
      await ask<{ notifications: { items: { excerpt: string }[] } }>(w, w.token.staff, q, { after: first.nextCursor })
    ).notifications;
    expect(second.items[0]!.excerpt).toBe('一');
    const bad = await gql(w.p.url, q, { after: 'x' }, { token: w.token.staff });
    expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('a notification about a post the recipient may no longer see is neither listed, counted nor delivered live', async () => {
    const post = await published(w.token.admin, '通知: 見えなくなる');
    const top = await comment(w.token.colleague, post.id, '質問です');
    await comment(w.token.admin, post.id, '回答です', top);
    expect(about((await bell(w, w.token.colleague)).items, post.id)).toHaveLength(1);
    const unread = (await bell(w, w.token.colleague)).unreadCount;

    const own = await published(w.token.colleague, '通知: 自分の投稿');
    const armed = async () => {
      await like(w.token.staff, own.id);
      await like(w.token.staff, own.id, false);
      return own.id;
    };
    const live = await watchBell(w, w.token.colleague, armed);
    await w.sql(`update blog_post set category_id = ? where id = ?`, [w.cat.board, post.id]); // now 役員会's: the colleague is not a member
    await comment(w.token.admin, post.id, 'もう一つの回答', top);
    expect(
      await w.sql(`select count(*)::int as n from notification where post_id = ? and recipient_id = ?`, [
        post.id,
        w.id.colleague,
      ]),
    ).toEqual([{ n: 2 }]);
    const now = await bell(w, w.token.colleague);
    expect(about(now.items, post.id)).toEqual([]);
    expect(now.unreadCount).toBe(unread - 1);

    // Deliveries keep their order: once the later like of the colleague's own post arrived, the reply would have before it.
    await like(w.token.staff, own.id);
    await live.until((c) => c.postId === own.id && c.unreadCount === unread);
    expect(live.changes.filter((c) => c.postId === post.id)).toEqual([]);
    await live.close();
  });

  it('notificationsChanged reaches the recipient only, with their unread count', async () => {
    const post = await published(w.token.staff, '通知: ライブ');
    const arm = (owner: string) => async () => {
      await like(w.token.admin, post.id);
      await like(w.token.admin, post.id, false);
      return owner === 'staff' ? post.id : 0;
    };
    const staff = await watchBell(w, w.token.staff, arm('staff'));
    const ownOfColleague = await published(w.token.colleague, '通知: 同僚の投稿');
    const colleague = await watchBell(w, w.token.colleague, async () => {
      await like(w.token.admin, ownOfColleague.id);
      await like(w.token.admin, ownOfColleague.id, false);
      return ownOfColleague.id;
    });
    const unread = (await bell(w, w.token.staff)).unreadCount;
    await like(w.token.colleague, post.id);
    await staff.until((c) => c.postId === post.id && c.unreadCount === unread + 1);
    await ask(w, w.token.staff, `mutation { markAllNotificationsRead }`);
    await staff.until((c) => c.postId === null && c.unreadCount === 0);

    // The colleague's marker after the staff's changes: had they been sent to the colleague, they would have come first.
    await like(w.token.admin, ownOfColleague.id);
    await colleague.until((c) => c.postId === ownOfColleague.id);
    expect(colleague.changes.filter((c) => c.postId !== ownOfColleague.id)).toEqual([]);
    await Promise.all([staff.close(), colleague.close()]);
  });

  it("the REST face: GET /api/notifications pages the same items (X-Next-Cursor, X-Unread-Count), POST /api/notifications/read marks them; another's id is a 404", async () => {
    const post = await published(w.token.staff, '通知: REST');
    await comment(w.token.colleague, post.id, 'REST で読むコメント');
    const graph = await bell(w, w.token.staff);
    const page = await api(w.p.url, 'GET', '/notifications?limit=1', { token: w.token.staff });
    expect(page.status).toBe(200);
    expect(page.body).toHaveLength(1);
    expect(page.body[0]).toMatchObject({
      notification_id: graph.items[0]!.id,
      kind: 'COMMENT',
      blog_id: post.id,
      blog_title: '通知: REST',
      read: false,
      excerpt: 'REST で読むコメント',
    });
    expect(Number(page.headers.get('x-unread-count'))).toBe(graph.unreadCount);
    const next = page.headers.get('x-next-cursor');
    expect(next).toBeTruthy();
    const second = await api(w.p.url, 'GET', `/notifications?limit=1&cursor=${encodeURIComponent(next!)}`, {
      token: w.token.staff,
    });
    expect(second.body[0]?.notification_id).toBe(graph.items[1]?.id);
    const stolen = await api(w.p.url, 'POST', '/notifications/read', {
      token: w.token.colleague,
      body: { ids: [page.body[0].notification_id] },
    });
    expect(stolen.status).toBe(404);
    const read = await api(w.p.url, 'POST', '/notifications/read', {
      token: w.token.staff,
      body: { ids: [page.body[0].notification_id] },
    });
    expect(read.body).toEqual({ unread_count: graph.unreadCount - 1 });
    expect(
      (await api(w.p.url, 'POST', '/notifications/read', { token: w.token.staff, body: { ids: 'all' } })).status,
    ).toBe(400);
    expect(
      (await api(w.p.url, 'POST', '/notifications/read', { token: w.token.staff, body: { all: true, extra: 1 } }))
        .status,
    ).toBe(400); // found by Schemathesis
    expect(
      (await api(w.p.url, 'POST', '/notifications/read', { token: w.token.staff, body: { all: true } })).body,
    ).toEqual({ unread_count: 0 });
    expect((await api(w.p.url, 'GET', '/notifications')).status).toBe(401);
  });
});
