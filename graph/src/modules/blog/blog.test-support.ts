import { startTestPlatform, type TestPlatform } from '../../test/db.js';
import { api, gql, loginToken } from '../../test/http.js';
import { addDays, tokyoToday } from './blog-post.rules.js';

/**
 * The blog's test world on the demo company (its demo blog removed): three categories and the people around them.
 * - 営業ニュース (書き込み): the 営業 department (staff and `colleague`) and 管理者 by name;
 * - 営業通達 (閲覧 only): staff by name;
 * - 役員会 (書き込み): 管理者 only.
 * devadmin (開発) belongs to none of them.
 */
export interface BlogWorld {
  p: TestPlatform;
  token: { admin: string; staff: string; colleague: string; outsider: string; sysadmin: string };
  id: { staff: number; colleague: number; admin: number; sales: number };
  cat: { news: number; notice: number; board: number };
  today: string;
  day(offset: number): string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of ad-hoc test SQL, read by column name
  sql(q: string, params?: unknown[]): Promise<any[]>;
  /** A post through GraphQL as `who`; answers the created post or throws with the errors. */
  post(who: string, input: Record<string, unknown>): Promise<{ id: number; version: number; [k: string]: unknown }>;
}

export const doc = (text: string) => ({ blocks: [{ type: 'paragraph', data: { text } }] });

export async function blogWorld(
  overrides: Record<string, string> = {},
  opts: Parameters<typeof startTestPlatform>[1] = {},
): Promise<BlogWorld> {
  const p = await startTestPlatform(overrides, opts);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of ad-hoc test SQL, read by column name
  const sql = (q: string, params: unknown[] = []): Promise<any[]> =>
    p.db.orm.em.fork().getConnection().execute(q, params);
  // The demo blog is set aside: these tests count exactly what they create.
  await sql(`delete from blog_post; delete from blog_tag; delete from blog_category`);
  const [{ id: sales }] = await sql(`select id from department where name = '営業'`);
  const [colleague] = await sql(
    `select id, login_id from employee where department_id = ? and status = 'ACTIVE' and role = 'GENERAL' and login_id <> 'staff' order by id limit 1`,
    [sales],
  );
  const [{ id: staff }] = await sql(`select id from employee where login_id = 'staff'`);
  const [{ id: admin }] = await sql(`select id from employee where login_id = 'admin'`);
  const [a, s, c, o, sa] = await Promise.all(
    ['admin', 'staff', colleague.login_id, 'devadmin', 'sysadmin'].map((l) => loginToken(p.url, l)),
  );
  const category = async (name: string, permissions: string[], employees: number[], departments: number[]) => {
    const r = await api(p.url, 'POST', '/blog_category', {
      token: a,
      body: { category_name: name, permissions, employees, departments },
    });
    if (r.status !== 201) throw new Error(JSON.stringify(r.body));
    return r.body.category_id as number;
  };
  const cat = {
    news: await category('営業ニュース', ['書き込み', '閲覧'], [admin], [sales]),
    notice: await category('営業通達', ['閲覧'], [staff, admin], []),
    board: await category('役員会', ['書き込み', '閲覧'], [admin], []),
  };
  const today = tokyoToday();
  return {
    p,
    token: { admin: a, staff: s, colleague: c, outsider: o, sysadmin: sa },
    id: { staff, colleague: colleague.id, admin, sales },
    cat,
    today,
    day: (offset) => addDays(today, offset),
    sql,
    async post(who, input) {
      const r = await gql(
        p.url,
        `mutation($i: BlogPostInput!) { createBlogPost(input: $i) { id version state pinned pinStart pinEnd publishStart } }`,
        { i: { content: doc('本文'), ...input } },
        { token: who },
      );
      if (r.body.errors) throw new Error(JSON.stringify(r.body.errors));
      return r.body.data.createBlogPost;
    },
  };
}
