import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../test/db.js';
import { api, gql, loginToken } from '../../test/http.js';

let p: TestPlatform;
let admin: string;
let staff: string;
let other: string;
let staffId: number;
let adminId: number;
let salesId: number;
let devId: number;
beforeAll(async () => {
  p = await startTestPlatform();
  [admin, staff, other] = await Promise.all([
    loginToken(p.url, 'admin'),
    loginToken(p.url, 'staff'),
    loginToken(p.url, 'devadmin'),
  ]);
  [{ id: staffId }] = await sql(`select id from employee where login_id = 'staff'`);
  [{ id: adminId }] = await sql(`select id from employee where login_id = 'admin'`);
  [{ id: salesId }] = await sql(`select id from department where name = '営業'`);
  [{ id: devId }] = await sql(`select id from department where name = '開発'`);
});
afterAll(async () => p?.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of ad-hoc test SQL, read by column name
const sql = (q: string, params: unknown[] = []): Promise<any[]> =>
  p.db.orm.em.fork().getConnection().execute(q, params);

describe('blog categories', () => {
  it('only 管理者 and システム管理者 create and edit them', async () => {
    const r = await api(p.url, 'POST', '/blog_category', {
      token: staff,
      body: { category_name: '勝手なカテゴリ', permissions: ['閲覧'], employees: [] },
    });
    expect(r.status).toBe(403);
    const g = await gql(
      p.url,
      `mutation { createBlogCategory(input: { name: "x", permissions: [READ], employeeIds: [], departmentIds: [] }) { id } }`,
      {},
      { token: other },
    );
    expect(g.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(await sql(`select * from blog_category where name in ('勝手なカテゴリ', 'x')`)).toEqual([]);
  });

  it('creates one with employees as JSON text and whole departments; colour defaults to #000000; the event is recorded', async () => {
    const r = await api(p.url, 'POST', '/blog_category', {
      token: admin,
      body: {
        category_name: '営業だより',
        permissions: '["閲覧"]',
        employees: JSON.stringify([staffId]),
        departments: [devId],
      },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      category_name: '営業だより',
      color: '#000000',
      permissions: ['閲覧'],
      employees: [staffId],
      departments: [devId],
      can_post: true,
      version: 1,
    });
    expect(r.body.category_id).toBe(r.body.blog_category_id);
    const [e] = await sql(
      `select type, payload from outbox_all where aggregate_type = 'blog_category' and aggregate_id = ?`,
      [String(r.body.category_id)],
    );
    expect(e).toMatchObject({
      type: 'blog.category.created',
      payload: {
        category: { name: '営業だより', membersMayPost: false, employeeIds: [staffId], departmentIds: [devId] },
      },
    });
  });

  it('members (named, or through their department) see it; others do not, not even by id', async () => {
    const created = await api(p.url, 'POST', '/blog_category', {
      token: admin,
      body: {
        category_name: '技術メモ',
        color: '#1F6FEB',
        permissions: ['書き込み', '閲覧'],
        employees: [],
        departments: [salesId],
      },
    });
    expect(created.body.color).toBe('#1f6feb');
    const mine = (await api(p.url, 'GET', '/blog_category', { token: staff })).body.map(
      (c: { category_name: string }) => c.category_name,
    );
    expect(mine).toEqual(expect.arrayContaining(['営業だより', '技術メモ']));
    // devadmin is in 開発: a member of 営業だより through the department, not of 技術メモ.
    const theirs = (await api(p.url, 'GET', '/blog_category', { token: other })).body.map(
      (c: { category_name: string }) => c.category_name,
    );
    expect(theirs).toContain('営業だより');
    expect(theirs).not.toContain('技術メモ');
    expect((await api(p.url, 'GET', `/blog_category/${created.body.category_id}`, { token: other })).status).toBe(404);
    const g = await gql(
      p.url,
      `query($id:Int!){ blogCategory(id:$id) { name } }`,
      { id: created.body.category_id },
      { token: other },
    );
    expect(g.body.errors[0].extensions.code).toBe('NOT_FOUND');
    // 管理者 sees every category.
    const all = (await api(p.url, 'GET', '/blog_category', { token: admin })).body.map(
      (c: { category_name: string }) => c.category_name,
    );
    expect(all).toEqual(expect.arrayContaining(['営業だより', '技術メモ']));
  });

  it('閲覧 lets members read but not post; 書き込み lets them post; 管理者 posts anywhere', async () => {
    const q = `{ blogCategories { name canPost permissions } }`;
    const forStaff = (await gql(p.url, q, {}, { token: staff })).body.data.blogCategories;
    expect(forStaff.find((c: { name: string }) => c.name === '営業だより')).toMatchObject({
      canPost: false,
      permissions: ['READ'],
    });
    expect(forStaff.find((c: { name: string }) => c.name === '技術メモ')).toMatchObject({
      canPost: true,
      permissions: ['WRITE', 'READ'],
    });
    const forAdmin = (await gql(p.url, q, {}, { token: admin })).body.data.blogCategories;
    expect(forAdmin.every((c: { canPost: boolean }) => c.canPost)).toBe(true);
  });

  it('isMember says whom the feed shows a category to: an admin lists every category but is a member only of their own', async () => {
    const q = `{ blogCategories { name isMember } }`;
    const forStaff = (await gql(p.url, q, {}, { token: staff })).body.data.blogCategories;
    expect(forStaff.every((c: { isMember: boolean }) => c.isMember)).toBe(true);
    // admin is named in neither 営業だより nor 技術メモ, nor in their departments: listed, not a member.
    const forAdmin = (await gql(p.url, q, {}, { token: admin })).body.data.blogCategories;
    expect(forAdmin.filter((c: { name: string }) => ['営業だより', '技術メモ'].includes(c.name))).toEqual([
      { name: '営業だより', isMember: false },
      { name: '技術メモ', isMember: false },
    ]);
    const mine = await api(p.url, 'POST', '/blog_category', {
      token: admin,
      body: { category_name: '管理者メモ', permissions: ['閲覧'], employees: [adminId], departments: [] },
    });
    expect(mine.body.is_member).toBe(true);
    const rest = (await api(p.url, 'GET', '/blog_category', { token: admin })).body;
    expect(rest.find((c: { category_name: string }) => c.category_name === '技術メモ').is_member).toBe(false);
  });

  it.each([
    ['a colour that is not #RRGGBB', { color: 'red' }, 'color'],
    ['no permission', { permissions: [] }, 'permissions'],
    ['an unknown permission', { permissions: ['管理'] }, 'permissions.0'],
    ['an employee who does not exist', { employees: [999999] }, 'employees'],
    ['a department that does not exist', { departments: [999999] }, 'departments'],
    ['employees as broken JSON text', { employees: '[1,' }, 'employees'],
    ['no name', { category_name: '  ' }, 'category_name'],
    ['a name already taken', { category_name: '技術メモ' }, 'category_name'],
  ])('refuses %s, naming the field as sent, and writes nothing', async (_, patch, field) => {
    const before = await sql(`select count(*)::int as n from blog_category`);
    const r = await api(p.url, 'POST', '/blog_category', {
      token: admin,
      body: { category_name: '新しいカテゴリ', permissions: ['閲覧'], employees: [], ...patch },
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('BAD_USER_INPUT');
    expect(r.body.fieldErrors.map((f: { field: string }) => f.field)).toContain(field);
    expect(r.body.error).toMatch(/[ぁ-んァ-ン一-龥]/);
    expect(await sql(`select count(*)::int as n from blog_category`)).toEqual(before);
  });

  it('edits with optimistic locking: a stale version is a conflict with the current record; a save that changes nothing is no new version', async () => {
    const [c] = (await api(p.url, 'GET', '/blog_category', { token: admin })).body.filter(
      (x: { category_name: string }) => x.category_name === '営業だより',
    );
    const same = await api(p.url, 'PUT', `/blog_category/${c.category_id}`, { token: admin, body: { ...c } });
    expect(same.status).toBe(200);
    expect(same.body.version).toBe(c.version);
    const saved = await api(p.url, 'PUT', `/blog_category/${c.category_id}`, {
      token: admin,
      body: { ...c, color: '#cf222e', employees: [], departments: [devId, salesId] },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ color: '#cf222e', employees: [], version: c.version + 1 });
    expect([...saved.body.departments].sort()).toEqual([devId, salesId].sort());
    const stale = await api(p.url, 'PUT', `/blog_category/${c.category_id}`, {
      token: admin,
      body: { ...c, category_name: '営業だより（旧）' },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.current).toMatchObject({ category_name: '営業だより', color: '#cf222e' });
    const [e] = await sql(
      `select payload from outbox_all where type = 'blog.category.updated' and aggregate_id = ? order by seq desc limit 1`,
      [String(c.category_id)],
    );
    expect(e.payload.changed.sort()).toEqual(['color', 'departmentIds', 'employeeIds']);
    const missing = await api(p.url, 'PUT', `/blog_category/${c.category_id}`, {
      token: admin,
      body: { ...c, version: undefined },
    });
    expect(missing.status).toBe(400);
  });
});
