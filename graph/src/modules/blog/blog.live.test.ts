import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, gql } from '../../test/http.js';
import { blogWorld, doc, type BlogWorld } from './blog.test-support.js';
import { liveWatch } from './blog.live.test-support.js';

let w: BlogWorld;
let watch: ReturnType<typeof liveWatch>['watch'];
let drained: ReturnType<typeof liveWatch>['drained'];
beforeAll(async () => {
  w = await blogWorld();
  ({ watch, drained } = liveWatch(w));
});
afterAll(async () => w?.p.close());

const update = (token: string, id: number, version: number, input: Record<string, unknown>) =>
  gql(
    w.p.url,
    `mutation($id: Int!, $i: BlogPostInput!) { updateBlogPost(id: $id, input: $i) { id version } }`,
    { id, i: { content: doc('本文'), ...input, version } },
    { token },
  );

async function setCategory(id: number, body: Record<string, unknown>) {
  const current = (await api(w.p.url, 'GET', `/blog_category/${id}`, { token: w.token.admin })).body;
  const r = await api(w.p.url, 'PUT', `/blog_category/${id}`, {
    token: w.token.admin,
    body: {
      category_name: current.category_name,
      color: current.color,
      permissions: current.permissions,
      employees: current.employees,
      departments: current.departments,
      version: current.version,
      ...body,
    },
  });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
}

describe('blogChanged', () => {
  it('a member receives a post created, edited and deleted, as they may see it; an employee outside the category receives nothing, not even the id', async () => {
    const member = await watch(w.token.colleague);
    const outsider = await watch(w.token.outsider);
    const post = await w.post(w.token.staff, { title: 'ライブの記事', categoryId: w.cat.news });
    const edited = (
      await update(w.token.staff, post.id, post.version, { title: 'ライブの記事（改）', categoryId: w.cat.news })
    ).body.data.updateBlogPost;
    await api(w.p.url, 'DELETE', `/blogs/${post.id}`, { token: w.token.staff });
    await member.until((c) => c.kind === 'DELETED' && c.postId === post.id);
    expect(member.changes).toEqual([
      expect.objectContaining({
        kind: 'CREATED',
        postId: post.id,
        post: expect.objectContaining({
          title: 'ライブの記事',
          state: 'PUBLISHED',
          canEdit: false,
          canDelete: false,
          category: { name: '営業ニュース', color: '#000000' },
        }),
      }),
      expect.objectContaining({
        kind: 'UPDATED',
        postId: post.id,
        post: expect.objectContaining({ title: 'ライブの記事（改）' }),
      }),
      expect.objectContaining({ kind: 'DELETED', postId: post.id, post: null }),
    ]);
    expect(edited.version).toBe(post.version + 1);
    await drained(outsider, w.token.outsider);
    expect(outsider.changes).toEqual([]);
    await Promise.all([member.close(), outsider.close()]);
  });

  it('a draft reaches only its author; publishing it reaches the members; moving it out of their category takes it away', async () => {
    const author = await watch(w.token.staff);
    const member = await watch(w.token.colleague);
    const draft = await w.post(w.token.staff, { title: '下書きのまま', categoryId: w.cat.news, isDraft: true });
    await author.until((c) => c.postId === draft.id);
    expect(author.changes[0]).toMatchObject({
      kind: 'CREATED',
      post: { state: 'DRAFT', canEdit: true, canDelete: true },
    });
    await drained(member, w.token.colleague);
    expect(member.changes).toEqual([]);

    const v2 = (
      await update(w.token.staff, draft.id, draft.version, {
        title: '公開しました',
        categoryId: w.cat.news,
        isDraft: false,
      })
    ).body.data.updateBlogPost;
    await member.until((c) => c.postId === draft.id);
    expect(member.changes[0]).toMatchObject({ kind: 'UPDATED', post: { title: '公開しました', state: 'PUBLISHED' } });
    // To 役員会 (staff let in for this): the colleague is not a member there: the colleague's card goes, with no post in it.
    await w.sql(`insert into blog_category_employee (category_id, employee_id) values (?, ?)`, [
      w.cat.board,
      w.id.staff,
    ]);
    await update(w.token.staff, draft.id, v2.version, { title: '公開しました', categoryId: w.cat.board });
    await member.until((c) => c.postId === draft.id && c.post === null);
    expect(member.changes.at(-1)).toEqual({
      kind: 'UPDATED',
      postId: draft.id,
      post: null,
      categoryId: null,
      category: null,
    });
    await w.sql(`delete from blog_category_employee where category_id = ? and employee_id = ?`, [
      w.cat.board,
      w.id.staff,
    ]);
    await Promise.all([author.close(), member.close()]);
  });

  it('membership is decided at delivery: removed from the category, one stops receiving (told to reload); added, one starts', async () => {
    const member = await watch(w.token.colleague);
    const r = await api(w.p.url, 'POST', '/blog_category', {
      token: w.token.admin,
      body: {
        category_name: '有志の会',
        permissions: ['書き込み', '閲覧'],
        employees: [w.id.staff, w.id.colleague],
        departments: [],
      },
    });
    const club = r.body.category_id as number;
    const first = await w.post(w.token.staff, { title: '有志の会のお知らせ', categoryId: club });
    await member.until((c) => c.postId === first.id);

    await setCategory(club, { employees: [w.id.staff] });
    await member.until((c) => c.kind === 'ACCESS_CHANGED' && c.categoryId === club);
    const second = await w.post(w.token.staff, { title: '会員だけのお知らせ', categoryId: club });
    await drained(member, w.token.colleague);
    expect(member.changes.map((c) => c.postId)).not.toContain(second.id);

    await setCategory(club, { employees: [w.id.staff, w.id.colleague] });
    await member.until((c) => c.kind === 'ACCESS_CHANGED' && c.categoryId === club);
    const third = await w.post(w.token.staff, { title: 'おかえりなさい', categoryId: club });
    await member.until((c) => c.postId === third.id);
    await member.close();
  });

  it("a department transfer moves delivery with the person: told to reload, and the old department's categories stop", async () => {
    const member = await watch(w.token.colleague);
    try {
      const made = await gql(
        w.p.url,
        `mutation($i: DepartmentInput!) { createDepartment(input: $i) { id } }`,
        { i: { name: '営業企画', memberIds: [w.id.colleague] } },
        { token: w.token.admin },
      );
      expect(made.body.errors).toBeUndefined();
      await member.until((c) => c.kind === 'ACCESS_CHANGED');
      const post = await w.post(w.token.staff, { title: '異動後のお知らせ', categoryId: w.cat.news });
      await drained(member, w.token.colleague);
      expect(member.changes.map((c) => c.postId)).not.toContain(post.id);
    } finally {
      await w.sql(`update employee set department_id = ? where id = ?`, [w.id.sales, w.id.colleague]);
    }
    // Membership is read at delivery, not from the event: back in 営業 (no event), delivery resumes.
    const back = await w.post(w.token.staff, { title: '復帰後のお知らせ', categoryId: w.cat.news });
    await member.until((c) => c.postId === back.id);
    await member.close();
  });

  it('a new colour or name of a category reaches its members, and only them', async () => {
    const member = await watch(w.token.colleague);
    const outsider = await watch(w.token.outsider);
    await setCategory(w.cat.news, { color: '#cc0000', category_name: '営業ニュース速報' });
    await member.until((c) => c.kind === 'CATEGORY_UPDATED');
    expect(member.changes).toEqual([
      {
        kind: 'CATEGORY_UPDATED',
        postId: null,
        post: null,
        categoryId: w.cat.news,
        category: { id: w.cat.news, name: '営業ニュース速報', color: '#cc0000' },
      },
    ]);
    await drained(outsider, w.token.outsider);
    expect(outsider.changes).toEqual([]);
    await setCategory(w.cat.news, { color: '#000000', category_name: '営業ニュース' });
    await Promise.all([member.close(), outsider.close()]);
  });

  it("an author no longer a member still sees their own post's category: its new colour reaches them too", async () => {
    const r = await api(w.p.url, 'POST', '/blog_category', {
      token: w.token.admin,
      body: {
        category_name: '卒業生の会',
        permissions: ['書き込み', '閲覧'],
        employees: [w.id.staff, w.id.colleague],
        departments: [],
      },
    });
    const club = r.body.category_id as number;
    await w.post(w.token.staff, { title: '卒業生の会の記録', categoryId: club });
    await setCategory(club, { employees: [w.id.colleague] });
    const author = await watch(w.token.staff);
    const outsider = await watch(w.token.outsider);
    await setCategory(club, { color: '#0a7f3f' });
    await author.until((c) => c.kind === 'CATEGORY_UPDATED' && c.categoryId === club);
    expect(author.changes.find((c) => c.kind === 'CATEGORY_UPDATED')?.category).toEqual({
      id: club,
      name: '卒業生の会',
      color: '#0a7f3f',
    });
    await drained(outsider, w.token.outsider);
    expect(outsider.changes).toEqual([]);
    await Promise.all([author.close(), outsider.close()]);
  });
});
