/**
 * The /blog page asks for the feed and 速報 in one request: what the viewer may read is worked out
 * once for it (found by `npm run bench -- feed`: each of the two fields read the viewer's
 * categories again), and again for the next request, so a change of membership is seen at once.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { gql } from '../../test/http.js';
import { blogWorld, type BlogWorld } from './blog.test-fixture.js';

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

  it('works it out again for the next request: a viewer taken out of a category no longer sees its posts', async () => {
    await w.sql(`delete from blog_category_employee where category_id = ? and employee_id = ?`, [w.cat.notice, w.id.staff]);
    try {
      const r = await gql(w.p.url, PAGE, {}, { token: w.token.staff });
      expect(r.body.data.blogFeed.items).toEqual([{ id: plainId, pinned: false }]);
      expect(r.body.data.blogPinned).toEqual([]);
    } finally {
      await w.sql(`insert into blog_category_employee (category_id, employee_id) values (?, ?)`, [w.cat.notice, w.id.staff]);
    }
  });
});
