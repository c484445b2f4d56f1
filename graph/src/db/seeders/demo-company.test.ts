import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LocalFileStorage } from '../../lib/files/index.js';
import { createTestDatabase, type TestDatabase } from '../../test/db.js';
import { seedDemoCompany, isDatabaseEmpty } from './demo-company.js';

let db: TestDatabase;
const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-files-'));
const files = new LocalFileStorage(filesDir);
beforeAll(async () => {
  db = await createTestDatabase();
  await db.orm.em.fork().transactional((tx) => seedDemoCompany(tx, { files }));
});
afterAll(async () => {
  await db?.close();
  fs.rmSync(filesDir, { recursive: true, force: true });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of ad-hoc test SQL, read by column name
const q = (sql: string): Promise<any[]> => db.orm.em.fork().getConnection().execute(sql);

describe('the demo company', () => {
  it('is about 60 employees across departments and the three offices, every role present, some retired', async () => {
    expect(await isDatabaseEmpty(db.orm.em.fork())).toBe(false);
    const [n] = await q(
      `select count(*)::int as n, count(distinct department_id)::int as depts, count(*) filter (where status = 'RETIRED')::int as retired from employee`,
    );
    expect(n.n).toBeGreaterThanOrEqual(55);
    expect(n.depts).toBeGreaterThanOrEqual(5);
    expect(n.retired).toBeGreaterThanOrEqual(3);
    expect((await q(`select name from location order by sort_order`)).map((r: { name: string }) => r.name)).toEqual([
      '東京',
      '姫路',
      '大阪',
    ]);
    const roles = (await q(`select distinct role from employee`)).map((r: { role: string }) => r.role).sort();
    expect(roles).toEqual(['ADMIN', 'DEVICE_ADMIN', 'GENERAL', 'SYSTEM_ADMIN']);
    const logins = (await q(
      `select login_id, role from employee where login_id in ('admin','sysadmin','devadmin','staff') order by id`,
    )) as { login_id: string; role: string }[];
    expect(logins).toEqual([
      { login_id: 'admin', role: 'ADMIN' },
      { login_id: 'sysadmin', role: 'SYSTEM_ADMIN' },
      { login_id: 'devadmin', role: 'DEVICE_ADMIN' },
      { login_id: 'staff', role: 'GENERAL' },
    ]);
    const [dupes] = await q(
      `select count(*)::int as n from (select name from employee group by name having count(*) > 1) d`,
    );
    expect(dupes.n).toBe(0);
    const [managers] = await q(`select count(*)::int as n from department where manager_id is null`);
    expect(managers.n).toBe(0);
  });
});

describe('the demo schedule', () => {
  it('fills this week and next with meetings with guests, remote days, all-day and private entries', async () => {
    const [s] = await q(`select count(*)::int as n,
        count(*) filter (where type = 'REMOTE')::int as remote,
        count(*) filter (where is_all_day)::int as all_day,
        count(*) filter (where is_private)::int as private,
        count(distinct start_date)::int as days,
        min(start_date) >= date_trunc('week', now() at time zone 'Asia/Tokyo')::date as from_this_week
      from schedule`);
    expect(s.n).toBeGreaterThan(100);
    expect(s.remote).toBeGreaterThan(2);
    expect(s.all_day).toBeGreaterThan(2);
    expect(s.private).toBeGreaterThan(2);
    expect(s.days).toBeGreaterThanOrEqual(10);
    expect(s.from_this_week).toBe(true);
    const [g] = await q(`select count(distinct schedule_id)::int as n from schedule_guest`);
    expect(g.n).toBeGreaterThan(20);
  });
});

describe('the demo blog', () => {
  it('has its categories (one restricted to the managers), tags and about 60 posts over months: two pinned today, one scheduled, one expired', async () => {
    const cats = (await q(`select name from blog_category order by id`)).map((r: { name: string }) => r.name);
    expect(cats).toEqual(expect.arrayContaining(['社内報', '総務からのお知らせ', '開発ブログ', '役員']));
    const [board] = await q(
      `select count(*)::int as n from blog_category c join blog_category_employee ce on ce.category_id = c.id where c.name = '役員'`,
    );
    const [boardDepts] = await q(
      `select count(*)::int as n from blog_category c join blog_category_department cd on cd.category_id = c.id where c.name = '役員'`,
    );
    expect([board.n > 2, boardDepts.n]).toEqual([true, 0]);
    const [staffSees] = await q(`select count(*)::int as n from blog_category c where c.name = '役員' and exists (
        select 1 from blog_category_employee ce join employee e on e.id = ce.employee_id where ce.category_id = c.id and e.login_id = 'staff')`);
    expect(staffSees.n).toBe(0);
    const today = `(now() at time zone 'Asia/Tokyo')::date`;
    const [p] = await q(`select count(*)::int as n,
        count(*) filter (where is_pin and pin_start <= ${today} and pin_end >= ${today})::int as pinned,
        count(*) filter (where publish_start > ${today})::int as scheduled,
        count(*) filter (where publish_end < ${today})::int as expired,
        (${today} - min(publish_start))::int as days
      from blog_post`);
    expect(p.n).toBeGreaterThanOrEqual(55);
    expect([p.pinned, p.scheduled, p.expired]).toEqual([2, 1, 1]);
    expect(p.days).toBeGreaterThan(90);
    const [t] = await q(`select count(distinct tag_id)::int as n from blog_post_tag`);
    expect(t.n).toBeGreaterThanOrEqual(10);
    const [html] = await q(`select count(*)::int as n from blog_post where content_html not like '<%'`);
    expect(html.n).toBe(0);
    // Pictures with their thumbnails and a PDF, stored in the file store the seeder was given.
    const attached: { attachment_key: string; attachment_type: string; attachment_thumb_key: string | null }[] =
      await q(
        `select attachment_key, attachment_type, attachment_thumb_key from blog_post where attachment_key is not null order by id`,
      );
    expect(attached.map((a) => a.attachment_type).sort()).toEqual([
      'application/pdf',
      'image/png',
      'image/png',
      'image/png',
    ]);
    expect(attached.filter((a) => a.attachment_thumb_key).length).toBe(3);
    for (const a of attached) expect(await files.exists(a.attachment_key)).toBe(true);
  });
  it('has profiles for most people, in words a search finds (中国語, Python, 簿記), with likes, comments and every visibility', async () => {
    const [n] = await q(
      `select count(*)::int as n, (select count(*)::int from employee) as people, count(distinct address_visibility)::int as vis from profile`,
    );
    expect(n.n).toBeGreaterThan(n.people * 0.8);
    expect(n.vis).toBe(2);
    for (const word of ['中国語', 'python', '簿記']) {
      const [hit] = await q(`select count(*)::int as n from profile where search_text like '%${word}%'`);
      expect(hit.n, word).toBeGreaterThan(0);
    }
    const [{ likes }] = await q(`select count(*)::int as likes from profile_like`);
    const [{ replies }] = await q(`select count(*)::int as replies from profile_comment where parent_id is not null`);
    expect(likes).toBeGreaterThan(10);
    expect(replies).toBeGreaterThan(0);
  });
});
