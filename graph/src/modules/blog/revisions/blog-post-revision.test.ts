import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, gql } from '../../../test/http.js';
import { blogWorld, doc, type BlogWorld } from '../blog.test-support.js';

let w: BlogWorld;
let postId: number;
beforeAll(async () => {
  w = await blogWorld();
  const tag = await gql(
    w.p.url,
    `mutation { createBlogTag(input: { content: "履歴タグ" }) { id } }`,
    {},
    { token: w.token.staff },
  );
  if (tag.body.errors) throw new Error(JSON.stringify(tag.body.errors));
  const made = await w.post(w.token.staff, {
    title: '最初のタイトル',
    content: doc('最初の本文'),
    categoryId: w.cat.news,
    tagIds: [tag.body.data.createBlogTag.id],
  });
  postId = made.id;
  await update(
    w.token.staff,
    { title: '二番目のタイトル', content: doc('最初の本文'), tagIds: [tag.body.data.createBlogTag.id] },
    1,
  );
  await update(w.token.staff, { title: '二番目のタイトル', content: doc('三番目の本文'), tagIds: [] }, 2);
});
afterAll(async () => w?.p.close());

const UPDATE = `mutation($id: Int!, $i: BlogPostInput!) { updateBlogPost(id: $id, input: $i) { id version title } }`;
async function update(token: string, input: Record<string, unknown>, version: number) {
  const r = await gql(w.p.url, UPDATE, { id: postId, i: { categoryId: w.cat.news, version, ...input } }, { token });
  if (r.body.errors) throw new Error(JSON.stringify(r.body.errors));
  return r.body.data.updateBlogPost;
}
const LIST = `query($id: Int!, $offset: Int, $limit: Int) { blogPostRevisions(id: $id, offset: $offset, limit: $limit) { version savedBy { id name } restoredFrom changes title contentHtml tagNames isDraft } }`;
const list = (token: string, vars: Record<string, unknown> = {}) =>
  gql(w.p.url, LIST, { id: postId, ...vars }, { token });
const RESTORE = `mutation($id: Int!, $v: Int!, $e: Int!) { restoreBlogPostRevision(id: $id, version: $v, expectedVersion: $e) { id version title contentHtml tags { content } } }`;

describe("a post's history", () => {
  it('keeps every save as a revision, newest first, each saying what changed from the one before and who saved it', async () => {
    const r = await list(w.token.staff);
    expect(r.body.errors).toBeUndefined();
    const revs = r.body.data.blogPostRevisions;
    expect(revs.map((x: { version: number }) => x.version)).toEqual([3, 2, 1]);
    expect(revs.map((x: { changes: string[] }) => x.changes)).toEqual([['CONTENT', 'TAGS'], ['TITLE'], []]);
    expect(revs[2]).toMatchObject({ title: '最初のタイトル', tagNames: ['履歴タグ'], savedBy: { id: w.id.staff } });
    expect(revs[0].contentHtml).toContain('三番目の本文');
    // A page of one still compares with the revision before it.
    const one = await list(w.token.staff, { offset: 1, limit: 1 });
    expect(one.body.data.blogPostRevisions).toMatchObject([{ version: 2, changes: ['TITLE'] }]);
  });

  it('a save that changes nothing keeps no revision', async () => {
    await update(w.token.staff, { title: '二番目のタイトル', content: doc('三番目の本文'), tagIds: [] }, 3);
    expect((await list(w.token.staff)).body.data.blogPostRevisions).toHaveLength(3);
  });

  it('the author and 管理者 read it; another reader of the post is FORBIDDEN (403), someone who cannot read the post NOT_FOUND (404), in both channels', async () => {
    expect((await list(w.token.admin)).body.errors).toBeUndefined();
    expect((await list(w.token.colleague)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await list(w.token.outsider)).body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await api(w.p.url, 'GET', `/blogs/${postId}/revisions`, { token: w.token.colleague })).status).toBe(403);
    expect((await api(w.p.url, 'GET', `/blogs/${postId}/revisions`, { token: w.token.outsider })).status).toBe(404);
    const rest = await api(w.p.url, 'GET', `/blogs/${postId}/revisions/1`, { token: w.token.staff });
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    expect(rest.body).toMatchObject({
      blog_id: postId,
      version: 1,
      title: '最初のタイトル',
      changes: [],
      tag_names: ['履歴タグ'],
    });
    expect(rest.body.content).toContain('最初の本文');
    const page = await api(w.p.url, 'GET', `/blogs/${postId}/revisions?limit=2`, { token: w.token.staff });
    expect(page.body.map((x: { version: number }) => x.version)).toEqual([3, 2]);
    expect(page.body[0].content).toBeUndefined();
    expect((await api(w.p.url, 'GET', `/blogs/${postId}/revisions/9`, { token: w.token.staff })).status).toBe(404);
    expect((await api(w.p.url, 'GET', `/blogs/${postId}/revisions?limit=0`, { token: w.token.staff })).status).toBe(
      400,
    );
  });

  it('restoring a revision saves its values as a new one (the tags that still exist); the replaced version stays in the history', async () => {
    const r = await gql(w.p.url, RESTORE, { id: postId, v: 1, e: 3 }, { token: w.token.staff });
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.restoreBlogPostRevision).toMatchObject({
      version: 4,
      title: '最初のタイトル',
      tags: [{ content: '履歴タグ' }],
    });
    expect(r.body.data.restoreBlogPostRevision.contentHtml).toContain('最初の本文');
    const revs = (await list(w.token.staff)).body.data.blogPostRevisions;
    expect(revs[0]).toMatchObject({ version: 4, restoredFrom: 1, changes: ['TITLE', 'CONTENT', 'TAGS'] });
    expect(revs[1]).toMatchObject({ version: 3, title: '二番目のタイトル' });
    const updated = await w.sql(
      `select count(*)::int as n from outbox_event where type = 'blog.post.updated' and aggregate_id = ?`,
      [String(postId)],
    );
    expect(
      updated[0].n +
        (
          await w.sql(
            `select count(*)::int as n from outbox_sent where type = 'blog.post.updated' and aggregate_id = ?`,
            [String(postId)],
          )
        )[0].n,
    ).toBe(3);
  });

  it('a restore against a stale version is a CONFLICT (409 on /api) and saves nothing; only the author restores', async () => {
    const stale = await gql(w.p.url, RESTORE, { id: postId, v: 2, e: 3 }, { token: w.token.staff });
    expect(stale.body.errors[0].extensions.code).toBe('CONFLICT');
    const admin = await gql(w.p.url, RESTORE, { id: postId, v: 2, e: 4 }, { token: w.token.admin });
    expect(admin.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const rest = await api(w.p.url, 'POST', `/blogs/${postId}/revisions/2/restore`, {
      token: w.token.staff,
      body: { version: 3 },
    });
    expect(rest.status).toBe(409);
    expect((await list(w.token.staff)).body.data.blogPostRevisions).toHaveLength(4);
    const ok = await api(w.p.url, 'POST', `/blogs/${postId}/revisions/2/restore`, {
      token: w.token.staff,
      body: { version: 4 },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ blog_id: postId, version: 5, title: '二番目のタイトル' });
  });

  it('goes with its post', async () => {
    const other = await w.post(w.token.staff, { title: '消える投稿', categoryId: w.cat.news });
    await gql(w.p.url, `mutation($id: Int!) { deleteBlogPost(id: $id) }`, { id: other.id }, { token: w.token.staff });
    expect(await w.sql(`select 1 from blog_post_revision where post_id = ?`, [other.id])).toEqual([]);
  });
});
