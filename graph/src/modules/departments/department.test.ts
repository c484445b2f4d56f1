import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../test/db.js';
import { api, gql, loginToken } from '../../test/http.js';

let p: TestPlatform;
let admin: string;
let staff: string;
beforeAll(async () => {
  p = await startTestPlatform();
  admin = await loginToken(p.url, 'admin');
  staff = await loginToken(p.url, 'staff');
});
afterAll(async () => p?.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of ad-hoc test SQL, read by column name
const sql = (q: string, params: unknown[] = []): Promise<any[]> =>
  p.db.orm.em.fork().getConnection().execute(q, params);

describe('departments', () => {
  it('every signed-in employee can read them with manager, members and dates', async () => {
    const r = await api(p.url, 'GET', '/departments', { token: staff });
    expect(r.status).toBe(200);
    expect(r.body.length).toBe(7);
    const dev = r.body.find((d: { department_name: string }) => d.department_name === '開発');
    expect(dev).toMatchObject({
      department_id: expect.any(Number),
      manager: expect.any(Number),
      members: expect.any(Array),
      ins_dt: expect.any(String),
      upd_dt: expect.any(String),
    });
    expect(dev.members.length).toBeGreaterThan(3);
    const one = await api(p.url, 'GET', `/departments/${dev.department_id}`, { token: staff });
    expect(one.body.members).toEqual(dev.members);
    // each member's status as a code (the screens word it per language) beside the spec's label
    expect(dev.member_details.length).toBe(dev.members.length);
    for (const m of dev.member_details) {
      expect(m).toMatchObject({
        status: expect.stringMatching(/^(ACTIVE|RETIRED)$/),
        statusLabel: m.status === 'ACTIVE' ? '在籍' : '退職',
      });
    }
  });

  it('only 管理者/システム管理者 may write', async () => {
    const r = await api(p.url, 'POST', '/departments', {
      token: staff,
      body: { department_name: '法務', members: [] },
    });
    expect(r.status).toBe(403);
  });

  it('creates with members given as JSON text, moving them from their old department', async () => {
    const [a, b] = await sql(
      `select id, department_id from employee where status = 'ACTIVE' and login_id not in ('admin') order by id desc limit 2`,
    );
    const r = await api(p.url, 'POST', '/departments', {
      token: admin,
      body: { department_name: '法務', manager: a.id, members: JSON.stringify([a.id, b.id]) },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      department_name: '法務',
      manager: a.id,
      members: [b.id, a.id].sort((x, y) => x - y),
    });
    const moved = await sql(`select department_id from employee where id in (?, ?)`, [a.id, b.id]);
    expect(moved.every((m) => m.department_id === r.body.department_id)).toBe(true);
    const events = await sql(
      `select type from outbox_all where (aggregate_type = 'employee' and aggregate_id in (?, ?)) or (aggregate_type = 'department' and aggregate_id = ?)`,
      [String(a.id), String(b.id), String(r.body.department_id)],
    );
    expect(events.map((e) => e.type).sort()).toEqual(['department.created', 'employee.updated', 'employee.updated']);
  });

  it('removing members takes them out; unknown employees and bad member text are refused without change', async () => {
    const d = (await api(p.url, 'GET', '/departments?name=法務', { token: admin })).body[0];
    const keep = d.members[0];
    const r = await api(p.url, 'PUT', `/departments/${d.department_id}`, {
      token: admin,
      body: { department_name: '法務', manager: d.manager, members: [keep], version: d.version },
    });
    expect(r.status).toBe(200);
    expect(r.body.members).toEqual([keep]);
    expect(r.body.version).toBe(d.version + 1);
    const unknown = await api(p.url, 'PUT', `/departments/${d.department_id}`, {
      token: admin,
      body: { department_name: '法務', members: [keep, 999999], version: r.body.version },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toContain('999999');
    const text = await api(p.url, 'PUT', `/departments/${d.department_id}`, {
      token: admin,
      body: { department_name: '法務', members: '[1,', version: r.body.version },
    });
    expect(text.status).toBe(400);
    expect((await api(p.url, 'GET', `/departments/${d.department_id}`, { token: admin })).body.members).toEqual([keep]);
  });

  it('a duplicate name is a field error; a stale version is a conflict', async () => {
    const dupe = await api(p.url, 'POST', '/departments', {
      token: admin,
      body: { department_name: '開発', members: [] },
    });
    expect(dupe.status).toBe(400);
    expect(dupe.body.fieldErrors[0].field).toBe('department_name');
    const d = (await api(p.url, 'GET', '/departments?name=法務', { token: admin })).body[0];
    await api(p.url, 'PUT', `/departments/${d.department_id}`, {
      token: admin,
      body: { department_name: '法務部', members: d.members, version: d.version },
    });
    const stale = await gql(
      p.url,
      `mutation($id:Int!,$v:Int!){ updateDepartment(id:$id, input:{ name: "法務課", memberIds: [], version: $v }) { id } }`,
      { id: d.department_id, v: d.version },
      { token: admin },
    );
    expect(stale.body.errors[0].extensions.code).toBe('CONFLICT');
    expect(stale.body.errors[0].extensions.current.name).toBe('法務部');
  });

  it('taking a member from another department is a new version of that one too: a save from its older view is a conflict, not an undo of the move', async () => {
    const all = (await api(p.url, 'GET', '/departments', { token: admin })).body as {
      department_id: number;
      department_name: string;
      members: number[];
      version: number;
      upd_dt: string;
    }[];
    const [from, to] = [all.find((d) => d.department_name === '営業')!, all.find((d) => d.department_name === '総務')!];
    const mover = from.members[0]!;
    const moved = await api(p.url, 'PUT', `/departments/${to.department_id}`, {
      token: admin,
      body: { department_name: '総務', members: [...to.members, mover], version: to.version },
    });
    expect(moved.status).toBe(200);
    const after = (await api(p.url, 'GET', `/departments/${from.department_id}`, { token: admin })).body;
    expect(after.members).not.toContain(mover);
    expect(after.version).toBe(from.version + 1);
    expect(after.upd_dt > from.upd_dt).toBe(true);
    const [event] = await sql(
      `select payload from outbox_all where type = 'department.updated' and aggregate_id = ? order by seq desc limit 1`,
      [String(from.department_id)],
    );
    expect(event.payload).toMatchObject({
      changed: ['memberIds'],
      removedMemberIds: [mover],
      department: { id: from.department_id, memberIds: after.members },
    });
    // The other screen still shows 営業 as it was, mover included: its save is refused.
    const stale = await api(p.url, 'PUT', `/departments/${from.department_id}`, {
      token: admin,
      body: { department_name: '営業', members: from.members, version: from.version },
    });
    expect(stale.status).toBe(409);
    const [row] = await sql(`select department_id from employee where id = ?`, [mover]);
    expect(row.department_id).toBe(to.department_id);
  });
});
