import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql } from '../../../test/http.js';
import { blogWorld, type BlogWorld } from '../blog.test-support.js';
import { liveWatch } from '../blog.live.test-support.js';

let w: BlogWorld;
beforeAll(async () => {
  w = await blogWorld();
});
afterAll(async () => w?.p.close());

const SUB = `subscription { blogChanged { kind postId post { id commentCount } categoryId category { id name color } } }`;
const count = (c: { post: unknown }) => (c.post as { commentCount: number } | null)?.commentCount;

describe('comments, live', () => {
  it('a comment, a reply, an edit and a deletion reach every viewer who may see the post with its commentCount; outsiders nothing', async () => {
    const post = await w.post(w.token.staff, {
      title: 'ライブのコメント',
      categoryId: w.cat.news,
      publishStart: w.day(-1),
    });
    const live = liveWatch(w);
    const [author, member, outsider] = await Promise.all([
      live.watch(w.token.staff, SUB),
      live.watch(w.token.colleague, SUB),
      live.watch(w.token.outsider, SUB),
    ]);
    const comments = (c: { kind: string; postId: number | null }) =>
      c.kind === 'COMMENTS_CHANGED' && c.postId === post.id;
    const add = (token: string, i: Record<string, unknown>) =>
      gql(w.p.url, `mutation($i: BlogCommentInput!) { addBlogComment(input: $i) { id } }`, { i }, { token });

    const top = await add(w.token.colleague, { postId: post.id, content: 'ライブで届く？' });
    expect(top.body.errors).toBeUndefined();
    await author.until((c) => comments(c) && count(c) === 1);
    await member.until((c) => comments(c) && count(c) === 1);

    await add(w.token.admin, { postId: post.id, content: '届きます', parentId: top.body.data.addBlogComment.id });
    await author.until((c) => comments(c) && count(c) === 2);
    await member.until((c) => comments(c) && count(c) === 2);

    // An edit changes no count: its own COMMENTS_CHANGED tells open dialogs to read the thread again.
    const before = author.changes.filter(comments).length;
    await gql(
      w.p.url,
      `mutation($id: Int!) { editBlogComment(id: $id, content: "ライブで届きますか？") { id } }`,
      { id: top.body.data.addBlogComment.id },
      { token: w.token.colleague },
    );
    await author.until((c) => comments(c) && author.changes.filter(comments).length > before);
    expect(count(author.changes.filter(comments).at(-1)!)).toBe(2);

    await gql(
      w.p.url,
      `mutation($id: Int!) { deleteBlogComment(id: $id) }`,
      { id: top.body.data.addBlogComment.id },
      { token: w.token.staff },
    );
    await author.until((c) => comments(c) && count(c) === 0);
    await member.until((c) => comments(c) && count(c) === 0);

    await live.drained(outsider, w.token.outsider);
    expect(outsider.changes.filter((c) => c.postId === post.id)).toEqual([]);
    await Promise.all([author, member, outsider].map((v) => v.close()));
  });
});
