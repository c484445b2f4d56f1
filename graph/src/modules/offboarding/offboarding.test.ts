import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../test/db.js';
import { api, gql, loginToken } from '../../test/http.js';

let p: TestPlatform;
let sysadmin: string;
let devadmin: string;
let staff: string;
beforeAll(async () => {
  p = await startTestPlatform();
  [sysadmin, devadmin, staff] = await Promise.all(['sysadmin', 'devadmin', 'staff'].map((l) => loginToken(p.url, l)));
});
afterAll(async () => p?.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of ad-hoc test SQL, read by column name
const sql = (q: string, params: unknown[] = []): Promise<any[]> =>
  p.db.orm.em.fork().getConnection().execute(q, params);

describe('offboarding', () => {
  it('lists what an employee still holds and hands all of it back in one transaction, with history and events', async () => {
    // a retired employee who still holds a seeded computer: give them a phone too (kept as current user since it is unchanged)
    const [holder] =
      await sql(`select c.current_user_id as id, e.name from computer c join employee e on e.id = c.current_user_id
      where e.status = 'RETIRED' and c.office_account_id is not null order by c.id limit 1`);
    const [phone] = await sql(
      `select id from smartphone where current_user_id is not null and status = 'NORMAL' order by id limit 1`,
    );
    await sql(`update smartphone set current_user_id = ? where id = ?`, [holder.id, phone.id]);
    const [held] = await sql(
      `select (select count(*)::int from computer where current_user_id = ?) as pcs, (select count(*)::int from smartphone where current_user_id = ?) as phones`,
      [holder.id, holder.id],
    );

    const before = await gql(
      p.url,
      `query($id:Int!){ employeeDevices(employeeId:$id) { employee { name retired } computers { id currentUser { id } officeAccount { id } } smartphones { id } officeAccounts { id account usageCount } } }`,
      { id: holder.id },
      { token: devadmin },
    );
    const h = before.body.data.employeeDevices;
    expect(h.employee).toEqual({ name: holder.name, retired: true });
    expect(h.computers).toHaveLength(held.pcs);
    expect(h.smartphones.map((s: { id: number }) => s.id)).toContain(phone.id);
    const tiedAccounts = [
      ...new Set(h.computers.map((c: { officeAccount: { id: number } | null }) => c.officeAccount?.id).filter(Boolean)),
    ];
    expect(h.officeAccounts.map((a: { id: number }) => a.id).sort()).toEqual(tiedAccounts.sort());
    const rest = await api(p.url, 'GET', `/employees/${holder.id}/devices`, { token: sysadmin });
    expect(rest.body.computers).toHaveLength(held.pcs);
    expect(rest.body.microsoft_office.length).toBe(tiedAccounts.length);

    const [events0] = await sql(`select count(*)::int as n from outbox_all`);
    const r = await api(p.url, 'POST', `/employees/${holder.id}/return_devices`, { token: devadmin });
    expect(r.status).toBe(200);
    expect(r.body.computers).toHaveLength(held.pcs);
    expect(r.body.smartphones).toHaveLength(held.phones);
    for (const d of [...r.body.computers, ...r.body.smartphones])
      expect(d).toMatchObject({ current_user: null, previous_user: holder.id, current_user_status: null });
    expect(r.body.microsoft_office.length).toBe(tiedAccounts.length);
    expect(await sql(`select count(*)::int as n from computer where current_user_id = ?`, [holder.id])).toEqual([
      { n: 0 },
    ]);
    expect(await sql(`select count(*)::int as n from smartphone where current_user_id = ?`, [holder.id])).toEqual([
      { n: 0 },
    ]);
    const [events1] = await sql(`select count(*)::int as n from outbox_all`);
    expect(events1.n - events0.n).toBe(held.pcs + held.phones);
    const hist = await sql(
      `select device_kind, reason, changed, from_user_id, to_user_id, actor_id from device_history where reason = 'returned' order by id`,
    );
    expect(hist).toHaveLength(held.pcs + held.phones);
    expect(
      hist.every((x) => x.from_user_id === holder.id && x.to_user_id === null && x.changed.join() === 'currentUser'),
    ).toBe(true);
    const timeline = await api(p.url, 'GET', `/smartphone/${phone.id}/history`, { token: devadmin });
    expect(timeline.body.changes.at(-1)).toMatchObject({
      reason: 'returned',
      from_user: holder.id,
      to_user: null,
      changed_by_name: '高橋 健太',
    });

    const after = await gql(
      p.url,
      `query($id:Int!){ employeeDevices(employeeId:$id) { computers { id } smartphones { id } officeAccounts { id } } }`,
      { id: holder.id },
      { token: devadmin },
    );
    expect(after.body.data.employeeDevices).toEqual({ computers: [], smartphones: [], officeAccounts: [] });
    const again = await gql(
      p.url,
      `mutation($id:Int!){ returnEmployeeDevices(employeeId:$id) { computers { id } smartphones { id } } }`,
      { id: holder.id },
      { token: sysadmin },
    );
    expect(again.body.data.returnEmployeeDevices).toEqual({ computers: [], smartphones: [] });
  });

  it('a form still holding the old version after a return gets a CONFLICT', async () => {
    const [c] = await sql(
      `select c.id, c.version, c.current_user_id from computer c where c.current_user_id is not null and c.status = 'NORMAL' order by c.id desc limit 1`,
    );
    await api(p.url, 'POST', `/employees/${c.current_user_id}/return_devices`, { token: devadmin });
    const stale = await api(p.url, 'PUT', `/computers/${c.id}`, {
      token: sysadmin,
      body: { maker: 'Dell', status: '正常', current_user: c.current_user_id, version: c.version },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toContain('高橋 健太さん');
  });

  it('is for device roles only, and names an existing employee', async () => {
    const [{ id }] = await sql(`select id from employee where login_id = 'staff'`);
    expect((await api(p.url, 'GET', `/employees/${id}/devices`, { token: staff })).status).toBe(403);
    expect((await api(p.url, 'POST', `/employees/${id}/return_devices`, { token: staff })).status).toBe(403);
    const g = await gql(
      p.url,
      `mutation { returnEmployeeDevices(employeeId: ${id}) { employee { id } } }`,
      {},
      { token: staff },
    );
    expect(g.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await api(p.url, 'POST', '/employees/999999/return_devices', { token: devadmin })).status).toBe(404);
    expect((await api(p.url, 'GET', '/employees/abc/devices', { token: devadmin })).status).toBe(400);
  });
});
