/**
 * The /blog page asks for the feed and 速報 in one request: what the viewer may read is worked out
 * once for it (found by `npm run bench -- feed`: each of the two fields read the viewer's
 * categories again), and again for the next request, so a change of membership is seen at once.
 * A post in both (a pinned one on the first page) has its row read once for the two. The page the
 * web sends, `blogFeed { items pinned }`, runs each statement over the shown posts (rows,
 * engagement, comment counts) once for both lists.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { gql } from '../../test/http.js';
import { blogWorld, type BlogWorld } from './blog.test-support.js';
import { POST_SELECT } from './blog-post.queries.js';

let w: BlogWorld;
let pinnedId: number;
let plainId: number;
beforeAll(async () => {
  w = await blogWorld();
  pinnedId = (await w.post(w.token.admin, { title: '速報の記事', categoryId: w.cat.notice, isPin: true })).id;
  plainId = (await w.post(w.token.staff, { title: 'ふつうの記事', categoryId: w.cat.news })).id;
});
afterAll(async () => w?.p.close());

const PAGE = `{ blogFeed { items { id pinned } } blogPinned { id } }`;

describe('one feed page request', () => {
  it("reads the viewer's categories once for blogFeed and blogPinned together, and answers both", async () => {
    const access = vi.spyOn(w.p.graph.services.blog.categories, 'access');
    try {
      const r = await gql(w.p.url, PAGE, {}, { token: w.token.staff });
      expect(r.body.errors).toBeUndefined();
      expect(r.body.data.blogFeed.items).toEqual([
        { id: pinnedId, pinned: true },
        { id: plainId, pinned: false },
      ]);
      expect(r.body.data.blogPinned).toEqual([{ id: pinnedId }]);
      expect(access).toHaveBeenCalledTimes(1);
    } finally {
      access.mockRestore();
    }
  });

  it('reads the row of a pinned post once for the feed and 速報 together', async () => {
    // Every statement the server runs during the request, through the EntityManager's execute.
    let proto: object | null = w.p.db.orm.em;
    while (proto && !Object.prototype.hasOwnProperty.call(proto, 'execute')) proto = Object.getPrototypeOf(proto);
    const execute = vi.spyOn(proto as { execute: (sql: string, params?: unknown[]) => Promise<unknown> }, 'execute');
    try {
      const r = await gql(w.p.url, PAGE, {}, { token: w.token.staff });
      expect(r.body.errors).toBeUndefined();
      const rowReads = execute.mock.calls.filter(([sql]) => typeof sql === 'string' && sql.startsWith(POST_SELECT));
      const readsOf = (id: number) =>
        rowReads.filter(([, params]) => JSON.stringify(params ?? []).match(new RegExp(`\\b${id}\\b`))).length;
      expect({ pinned: readsOf(pinnedId), plain: readsOf(plainId) }).toEqual({ pinned: 1, plain: 1 });
    } finally {
      execute.mockRestore();
    }
  });

  it('answers blogFeed { items pinned } with one statement each for the rows, the engagement and the comment counts', async () => {
    await w.sql(`insert into blog_like (post_id, employee_id) values (?, ?), (?, ?)`, [
      pinnedId,
      w.id.staff,
      plainId,
      w.id.admin,
    ]);
    let proto: object | null = w.p.db.orm.em;
    while (proto && !Object.prototype.hasOwnProperty.call(proto, 'execute')) proto = Object.getPrototypeOf(proto);
    const execute = vi.spyOn(proto as { execute: (sql: string, params?: unknown[]) => Promise<unknown> }, 'execute');
    try {
      const card = `id likeCount likedByMe likers { id } isNew saved commentCount`;
      const r = await gql(
        w.p.url,
        `{ blogFeed { items { ${card} } pinned { ${card} } } }`,
        {},
        { token: w.token.staff },
      );
      expect(r.body.errors).toBeUndefined();
      const { items, pinned } = r.body.data.blogFeed;
      expect(items.map((p: { id: number }) => p.id)).toEqual([pinnedId, plainId]);
      expect(pinned).toEqual([items[0]]);
      expect(items[0]).toMatchObject({ likeCount: 1, likedByMe: true, likers: [{ id: w.id.staff }] });
      expect(items[1]).toMatchObject({ likeCount: 1, likedByMe: false, likers: [{ id: w.id.admin }] });
      const sqls = execute.mock.calls.map(([sql]) => String(sql));
      const count = (re: RegExp) => sqls.filter((q) => re.test(q)).length;
      expect({
        rows: sqls.filter((q) => q.startsWith(POST_SELECT)).length,
        engagement: count(/as like_count,/),
        comments: count(/from blog_comment where post_id = any/),
      }).toEqual({ rows: 1, engagement: 1, comments: 1 });
    } finally {
      execute.mockRestore();
      await w.sql(`delete from blog_like where post_id in (?, ?)`, [pinnedId, plainId]);
    }
  });

  it('reads 速報 only when pinned is asked for', async () => {
    const r = await gql(
      w.p.url,
      `query($p: Boolean!) { blogFeed { items { id } pinned @include(if: $p) { id } } }`,
      { p: false },
      { token: w.token.staff },
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.blogFeed.pinned).toBeUndefined();
    const bare = await gql(w.p.url, `{ blogFeed { pinned { id } } }`, {}, { token: w.token.staff });
    expect(bare.body.data.blogFeed.pinned).toEqual([{ id: pinnedId }]);
  });

  it('works it out again for the next request: a viewer taken out of a category no longer sees its posts', async () => {
    await w.sql(`delete from blog_category_employee where category_id = ? and employee_id = ?`, [
      w.cat.notice,
      w.id.staff,
    ]);
    try {
      const r = await gql(w.p.url, PAGE, {}, { token: w.token.staff });
      expect(r.body.data.blogFeed.items).toEqual([{ id: plainId, pinned: false }]);
      expect(r.body.data.blogPinned).toEqual([]);
    } finally {
      await w.sql(`insert into blog_category_employee (category_id, employee_id) values (?, ?)`, [
        w.cat.notice,
        w.id.staff,
      ]);
    }
  });
});
