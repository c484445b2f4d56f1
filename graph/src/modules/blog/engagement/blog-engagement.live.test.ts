import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gql, loginToken } from '../../../test/http.js';
import { blogWorld, type BlogWorld } from '../blog.test-support.js';
import { liveWatch } from '../blog.live.test-support.js';

let w: BlogWorld;
beforeAll(async () => {
  w = await blogWorld();
});
afterAll(async () => w?.p.close());

const SUB = `subscription { blogChanged { kind postId post { id likeCount likedByMe seenCount isNew saved } categoryId category { id name color } } }`;
const SUB2 = `subscription { blogChanged { kind postId post { id likeCount likedByMe likers { id name } seenCount isNew saved commentCount } categoryId category { id name color } } }`;
type Engaged = { likeCount: number; likedByMe: boolean; seenCount: number; isNew: boolean; saved: boolean };

describe('likes, seen marks and saves, live', () => {
  it('a like and a first opening reach every viewer who may see the post, each with their own flags; a save only its saver; outsiders nothing', async () => {
    const post = await w.post(w.token.staff, {
      title: 'ライブのいいね',
      categoryId: w.cat.news,
      publishStart: w.day(-1),
    });
    const live = liveWatch(w);
    const [author, member, outsider] = await Promise.all([
      live.watch(w.token.staff, SUB),
      live.watch(w.token.colleague, SUB),
      live.watch(w.token.outsider, SUB),
    ]);
    const engaged = (c: { kind: string; postId: number | null }) =>
      c.kind === 'ENGAGEMENT_CHANGED' && c.postId === post.id;
    const lastFor = (v: typeof author) => v.changes.filter(engaged).at(-1)!.post as unknown as Engaged;

    const like = await gql(
      w.p.url,
      `mutation($id: Int!) { likeBlogPost(id: $id, liked: true) { id } }`,
      { id: post.id },
      { token: w.token.admin },
    );
    expect(like.body.errors).toBeUndefined();
    await author.until((c) => engaged(c) && (c.post as unknown as Engaged)?.likeCount === 1);
    await member.until((c) => engaged(c) && (c.post as unknown as Engaged)?.likeCount === 1);
    expect(lastFor(member)).toMatchObject({ likeCount: 1, likedByMe: false, isNew: true });

    await gql(
      w.p.url,
      `mutation($id: Int!) { markBlogPostSeen(id: $id) { id } }`,
      { id: post.id },
      { token: w.token.colleague },
    );
    await author.until((c) => engaged(c) && (c.post as unknown as Engaged)?.seenCount === 1);
    await member.until((c) => engaged(c) && (c.post as unknown as Engaged)?.isNew === false);

    const authorBefore = author.changes.filter(engaged).length;
    await gql(
      w.p.url,
      `mutation($id: Int!) { saveBlogPost(id: $id, saved: true) { id } }`,
      { id: post.id },
      { token: w.token.colleague },
    );
    await member.until((c) => engaged(c) && (c.post as unknown as Engaged)?.saved === true);

    await live.drained(author, w.token.staff);
    expect(author.changes.filter(engaged)).toHaveLength(authorBefore);
    await live.drained(outsider, w.token.outsider);
    expect(outsider.changes.filter((c) => c.postId === post.id)).toEqual([]);
    await Promise.all([author, member, outsider].map((v) => v.close()));
  });

  it('viewers of the same view (two members) each get their own likedByMe, isNew and saved with the counts and likers read once; outsiders nothing', async () => {
    // A second 一般 member of 営業ニュース through the 営業 department: the same view class as `colleague`, other flags.
    const [second] = await w.sql(
      `select id, login_id from employee where department_id = ? and status = 'ACTIVE' and role = 'GENERAL' and id not in (?, ?) order by id limit 1`,
      [w.id.sales, w.id.staff, w.id.colleague],
    );
    const secondToken = await loginToken(w.p.url, second.login_id);
    const post = await w.post(w.token.staff, {
      title: '同じ表示の二人',
      categoryId: w.cat.news,
      publishStart: w.day(-1),
    });
    const live = liveWatch(w);
    const [colleague, other, outsider] = await Promise.all([
      live.watch(w.token.colleague, SUB2),
      live.watch(secondToken, SUB2),
      live.watch(w.token.outsider, SUB2),
    ]);
    const engaged = (c: { kind: string; postId: number | null }) =>
      c.kind === 'ENGAGEMENT_CHANGED' && c.postId === post.id;
    const view = (c: { post: unknown }) =>
      c.post as Engaged & { likers: { id: number; name: string }[]; commentCount: number };
    const like = (token: string) =>
      gql(w.p.url, `mutation($id: Int!) { likeBlogPost(id: $id, liked: true) { id } }`, { id: post.id }, { token });

    await like(w.token.colleague);
    await colleague.until((c) => engaged(c) && view(c).likeCount === 1);
    await other.until((c) => engaged(c) && view(c).likeCount === 1);
    const mine = view(colleague.changes.filter(engaged).at(-1)!);
    const theirs = view(other.changes.filter(engaged).at(-1)!);
    expect(mine).toMatchObject({ likeCount: 1, likedByMe: true, isNew: true, saved: false, commentCount: 0 });
    expect(theirs).toMatchObject({ likeCount: 1, likedByMe: false, isNew: true, saved: false, commentCount: 0 });
    expect(mine.likers.map((l) => l.id)).toEqual([w.id.colleague]);
    expect(theirs.likers.map((l) => l.id)).toEqual([w.id.colleague]);

    await gql(
      w.p.url,
      `mutation($id: Int!) { markBlogPostSeen(id: $id) { id } }`,
      { id: post.id },
      { token: secondToken },
    );
    await colleague.until((c) => engaged(c) && view(c).seenCount === 1);
    await other.until((c) => engaged(c) && view(c).seenCount === 1);
    expect(view(colleague.changes.filter(engaged).at(-1)!)).toMatchObject({ likedByMe: true, isNew: true });
    expect(view(other.changes.filter(engaged).at(-1)!)).toMatchObject({ likedByMe: false, isNew: false });

    await like(secondToken);
    await colleague.until((c) => engaged(c) && view(c).likeCount === 2);
    await other.until((c) => engaged(c) && view(c).likeCount === 2);
    for (const v of [colleague, other]) {
      const last = view(v.changes.filter(engaged).at(-1)!);
      expect(last.likedByMe).toBe(true);
      expect(last.likers.map((l) => l.id)).toEqual([w.id.colleague, second.id]);
    }

    await live.drained(outsider, w.token.outsider);
    expect(outsider.changes.filter((c) => c.postId === post.id)).toEqual([]);
    await Promise.all([colleague, other, outsider].map((v) => v.close()));
  });

  it('a like on a post many people liked carries the first 20 likers and the whole count; each viewer still gets their own likedByMe', async () => {
    const post = await w.post(w.token.staff, { title: '人気の記事', categoryId: w.cat.news, publishStart: w.day(-1) });
    const others: { id: number }[] = await w.sql(
      `select id from employee where status = 'ACTIVE' and id not in (?, ?) order by id limit 30`,
      [w.id.colleague, w.id.staff],
    );
    await w.sql(
      `insert into blog_like (post_id, employee_id, created_at)
       select ?, u.id, now() - interval '1 hour' + u.k * interval '1 minute' from unnest(?::int[]) with ordinality u(id, k)`,
      [post.id, `{${others.map((e) => e.id).join(',')}}`],
    );
    const live = liveWatch(w);
    const [colleague, author] = await Promise.all([
      live.watch(w.token.colleague, SUB2),
      live.watch(w.token.staff, SUB2),
    ]);
    const engaged = (c: { kind: string; postId: number | null }) =>
      c.kind === 'ENGAGEMENT_CHANGED' && c.postId === post.id;
    await gql(
      w.p.url,
      `mutation($id: Int!) { likeBlogPost(id: $id, liked: true) { id } }`,
      { id: post.id },
      {
        token: w.token.colleague,
      },
    );
    for (const [v, liked] of [
      [colleague, true],
      [author, false],
    ] as const) {
      await v.until(engaged);
      const p = v.changes.filter(engaged).at(-1)!.post as unknown as Engaged & { likers: { id: number }[] };
      expect(p.likeCount).toBe(31);
      expect(p.likedByMe).toBe(liked);
      expect(p.likers.map((l) => l.id)).toEqual(others.slice(0, 20).map((e) => e.id));
    }
    await Promise.all([colleague, author].map((v) => v.close()));
  });
});
