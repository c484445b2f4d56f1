import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../test/http.js';
import { blogWorld, type BlogWorld } from '../blog/blog.test-support.js';
import { ask, bell, watchBell, type NotificationItem } from './notification.test-support.js';

/** The bell tells a profile's owner of likes and comments on it, and a commenter of replies. */
let w: BlogWorld;
let staffProfile: number;
beforeAll(async () => {
  w = await blogWorld();
  const mine = await ask<{ employeeProfile: { id: number } | null }>(
    w,
    w.token.staff,
    `query { employeeProfile { id } }`,
  );
  staffProfile =
    mine.employeeProfile?.id ??
    (await ask<{ createProfile: { id: number } }>(w, w.token.staff, `mutation { createProfile(input: {}) { id } }`))
      .createProfile.id;
});
afterAll(async () => w?.p.close());

const like = (token: string, id: number, liked = true) =>
  ask(w, token, `mutation($id: Int!, $liked: Boolean!) { likeProfile(id: $id, liked: $liked) { id } }`, { id, liked });
const comment = async (token: string, profileId: number, content: string, parentId?: number) =>
  (
    await ask<{ addProfileComment: { id: number } }>(
      w,
      token,
      `mutation($i: ProfileCommentInput!) { addProfileComment(input: $i) { id } }`,
      { i: { profileId, content, parentId } },
    )
  ).addProfileComment.id;
const PROFILE_LIST = `query { notifications(limit: 200) { unreadCount items { id kind postId postTitle profileId commentId excerpt read actor { id } actorCount } } }`;
const profileItems = async (token: string) =>
  (
    await ask<{ notifications: { items: (NotificationItem & { profileId: number | null })[] } }>(w, token, PROFILE_LIST)
  ).notifications.items.filter((n) => n.profileId !== null);

describe('notifications about a profile', () => {
  it("a like tells the owner (never the owner's own), grouped with the others; an unlike withdraws it", async () => {
    await like(w.token.staff, staffProfile);
    expect(await profileItems(w.token.staff)).toEqual([]);
    await like(w.token.colleague, staffProfile);
    await like(w.token.admin, staffProfile);
    const [n, ...rest] = await profileItems(w.token.staff);
    expect(rest).toEqual([]);
    expect(n).toMatchObject({
      kind: 'LIKE',
      postId: null,
      postTitle: null,
      profileId: staffProfile,
      actor: { id: w.id.admin },
      actorCount: 2,
      read: false,
    });
    await like(w.token.admin, staffProfile, false);
    await like(w.token.colleague, staffProfile, false);
    expect(await profileItems(w.token.staff)).toEqual([]);
  });

  it('a comment tells the owner, a reply the commenter it answers; deleting the comment takes them back; marking read works as for posts', async () => {
    const top = await comment(w.token.colleague, staffProfile, 'プロフィール拝見しました');
    const [c] = await profileItems(w.token.staff);
    expect(c).toMatchObject({
      kind: 'COMMENT',
      profileId: staffProfile,
      commentId: top,
      excerpt: 'プロフィール拝見しました',
    });
    // The owner answers: the commenter hears of the reply, the owner of nothing new.
    const reply = await comment(w.token.staff, staffProfile, 'ありがとうございます', top);
    const [r] = await profileItems(w.token.colleague);
    expect(r).toMatchObject({ kind: 'REPLY', profileId: staffProfile, commentId: reply, actor: { id: w.id.staff } });
    expect((await profileItems(w.token.staff)).length).toBe(1);

    const before = (await bell(w, w.token.staff)).unreadCount;
    await ask(w, w.token.staff, `mutation($ids: [Int!]!) { markNotificationsRead(ids: $ids) }`, { ids: [c!.id] });
    expect((await bell(w, w.token.staff)).unreadCount).toBe(before - 1);

    await ask(w, w.token.colleague, `mutation($id: Int!) { deleteProfileComment(id: $id) }`, { id: top });
    expect(await profileItems(w.token.staff)).toEqual([]);
    expect(await profileItems(w.token.colleague)).toEqual([]);
  });

  it('reaches the owner live, and /api/notifications names the profile', async () => {
    const bellOfStaff = await watchBell(w, w.token.staff, async () => {
      const post = await w.post(w.token.staff, {
        title: '通知の準備',
        categoryId: w.cat.news,
        publishStart: w.day(-1),
      });
      await ask(w, w.token.colleague, `mutation($id: Int!) { likeBlogPost(id: $id, liked: true) { id } }`, {
        id: post.id,
      });
      return post.id;
    });
    try {
      await like(w.token.colleague, staffProfile);
      await bellOfStaff.until((c) => c.postId === null && c.unreadCount > 0);
    } finally {
      await bellOfStaff.close();
    }
    const rest = await api(w.p.url, 'GET', '/notifications?limit=50', { token: w.token.staff });
    expect(rest.status).toBe(200);
    const item = rest.body.find((n: { profile_id: number | null }) => n.profile_id === staffProfile);
    expect(item).toMatchObject({ kind: 'LIKE', blog_id: null, blog_title: null, profile_id: staffProfile });
  });
});
