import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql } from '../../../test/http.js';
import { blogWorld, type BlogWorld } from '../blog.test-fixture.js';
import { liveWatch } from '../blog.live.test-support.js';

let w: BlogWorld;
beforeAll(async () => {
  w = await blogWorld();
});
afterAll(async () => w?.p.close());

const SUB = `subscription { blogChanged { kind postId post { id likeCount likedByMe seenCount isNew saved } categoryId category { id name color } } }`;
type Engaged = { likeCount: number; likedByMe: boolean; seenCount: number; isNew: boolean; saved: boolean };

describe('likes, seen marks and saves, live', () => {
  it('a like and a first opening reach every viewer who may see the post, each with their own flags; a save only its saver; outsiders nothing', async () => {
    const post = await w.post(w.token.staff, { title: 'ライブのいいね', categoryId: w.cat.news, publishStart: w.day(-1) });
    const live = liveWatch(w);
    const [author, member, outsider] = await Promise.all([live.watch(w.token.staff, SUB), live.watch(w.token.colleague, SUB), live.watch(w.token.outsider, SUB)]);
    const engaged = (c: { kind: string; postId: number | null }) => c.kind === 'ENGAGEMENT_CHANGED' && c.postId === post.id;
    const lastFor = (v: typeof author) => v.changes.filter(engaged).at(-1)!.post as unknown as Engaged;

    const like = await gql(w.p.url, `mutation($id: Int!) { likeBlogPost(id: $id, liked: true) { id } }`, { id: post.id }, { token: w.token.admin });
    expect(like.body.errors).toBeUndefined();
    await author.until((c) => engaged(c) && (c.post as unknown as Engaged)?.likeCount === 1);
    await member.until((c) => engaged(c) && (c.post as unknown as Engaged)?.likeCount === 1);
    expect(lastFor(member)).toMatchObject({ likeCount: 1, likedByMe: false, isNew: true });

    await gql(w.p.url, `mutation($id: Int!) { markBlogPostSeen(id: $id) { id } }`, { id: post.id }, { token: w.token.colleague });
    await author.until((c) => engaged(c) && (c.post as unknown as Engaged)?.seenCount === 1);
    await member.until((c) => engaged(c) && (c.post as unknown as Engaged)?.isNew === false);

    const authorBefore = author.changes.filter(engaged).length;
    await gql(w.p.url, `mutation($id: Int!) { saveBlogPost(id: $id, saved: true) { id } }`, { id: post.id }, { token: w.token.colleague });
    await member.until((c) => engaged(c) && (c.post as unknown as Engaged)?.saved === true);

    await live.drained(author, w.token.staff);
    expect(author.changes.filter(engaged)).toHaveLength(authorBefore);
    await live.drained(outsider, w.token.outsider);
    expect(outsider.changes.filter((c) => c.postId === post.id)).toEqual([]);
    await Promise.all([author, member, outsider].map((v) => v.close()));
  });
});
