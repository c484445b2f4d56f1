import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/db.js';
import { seedDemoCompany, isDatabaseEmpty } from './demo-company.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.orm.em.fork().transactional((tx) => seedDemoCompany(tx));
});
afterAll(async () => db?.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const q = (sql: string): Promise<any[]> => db.orm.em.fork().getConnection().execute(sql);

describe('the demo company', () => {
  it('is about 60 employees across departments and the three offices, every role present, some retired', async () => {
    expect(await isDatabaseEmpty(db.orm.em.fork())).toBe(false);
    const [n] = await q(`select count(*)::int as n, count(distinct department_id)::int as depts, count(*) filter (where status = 'RETIRED')::int as retired from employee`);
    expect(n.n).toBeGreaterThanOrEqual(55);
    expect(n.depts).toBeGreaterThanOrEqual(5);
    expect(n.retired).toBeGreaterThanOrEqual(3);
    expect((await q(`select name from location order by sort_order`)).map((r: { name: string }) => r.name)).toEqual(['東京', '姫路', '大阪']);
    const roles = (await q(`select distinct role from employee`)).map((r: { role: string }) => r.role).sort();
    expect(roles).toEqual(['ADMIN', 'DEVICE_ADMIN', 'GENERAL', 'SYSTEM_ADMIN']);
    const logins = (await q(`select login_id, role from employee where login_id in ('admin','sysadmin','devadmin','staff') order by id`)) as { login_id: string; role: string }[];
    expect(logins).toEqual([
      { login_id: 'admin', role: 'ADMIN' },
      { login_id: 'sysadmin', role: 'SYSTEM_ADMIN' },
      { login_id: 'devadmin', role: 'DEVICE_ADMIN' },
      { login_id: 'staff', role: 'GENERAL' },
    ]);
    const [dupes] = await q(`select count(*)::int as n from (select name from employee group by name having count(*) > 1) d`);
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
