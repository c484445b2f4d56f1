import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../test/db.js';
import { api, gql, loginToken } from '../../test/http.js';

let p: TestPlatform;
let admin: string;
let sysadmin: string;
let staff: string;
let devadmin: string;
beforeAll(async () => {
  p = await startTestPlatform();
  [admin, sysadmin, staff, devadmin] = await Promise.all(
    ['admin', 'sysadmin', 'staff', 'devadmin'].map((l) => loginToken(p.url, l)),
  );
});
afterAll(async () => p?.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of ad-hoc test SQL, read by column name
const sql = (q: string, params: unknown[] = []): Promise<any[]> =>
  p.db.orm.em.fork().getConnection().execute(q, params);
const newcomer = (n: number) => ({
  name: `新人 ${n}号`,
  email: `new${n}@example.co.jp`,
  login_id: `new.${n}`,
  password: 'a-long-password-1',
  role: '一般',
  status: '在籍',
  location: '姫路',
});

describe('employee writes', () => {
  it('only 管理者 and システム管理者 may create; others get 403 and nothing changes', async () => {
    const [before] = await sql(`select count(*)::int as n from employee`);
    for (const token of [staff, devadmin]) {
      const r = await api(p.url, 'POST', '/employees', { token, body: newcomer(1) });
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('FORBIDDEN');
    }
    const g = await gql(
      p.url,
      `mutation { createEmployee(input: { name: "x", loginId: "xxx", password: "0123456789", role: GENERAL, status: ACTIVE }) { id } }`,
      {},
      { token: staff },
    );
    expect(g.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(await sql(`select count(*)::int as n from employee`)).toEqual([before]);
  });

  it('creates with the spec fields; the password is write-only and works for sign-in', async () => {
    const r = await api(p.url, 'POST', '/employees', { token: sysadmin, body: newcomer(2) });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      name: '新人 2号',
      role: '一般',
      status: '在籍',
      location: '姫路',
      department: null,
      login_id: 'new.2',
      version: 1,
    });
    expect(JSON.stringify(r.body)).not.toMatch(/password/);
    expect(
      (await api(p.url, 'POST', '/auth/login', { body: { loginId: 'new.2', password: 'a-long-password-1' } })).status,
    ).toBe(200);
    const [ev] = await sql(
      `select type, payload from outbox_all where aggregate_type = 'employee' and aggregate_id = ?`,
      [String(r.body.id)],
    );
    expect(ev.type).toBe('employee.created');
    expect(JSON.stringify(ev.payload)).not.toMatch(/password|argon/);
  });

  it('refuses bad input with field errors: missing name, bad e-mail, short password, unknown role, unknown location, duplicate login', async () => {
    const bad = await api(p.url, 'POST', '/employees', {
      token: admin,
      body: { ...newcomer(3), name: ' ', email: 'not-mail', password: 'short', role: '社長', location: '札幌' },
    });
    expect(bad.status).toBe(400);
    const mars = await api(p.url, 'POST', '/employees', { token: admin, body: { ...newcomer(3), location: '火星' } });
    expect(mars.status).toBe(400);
    expect(mars.body.fieldErrors).toEqual([{ field: 'location', message: '「火星」は存在しません' }]);
    const dupe = await api(p.url, 'POST', '/employees', {
      token: admin,
      body: { ...newcomer(3), location: undefined },
    });
    expect(dupe.status).toBe(201);
    const again = await api(p.url, 'POST', '/employees', { token: admin, body: { ...newcomer(4), login_id: 'new.3' } });
    expect(again.status).toBe(400);
    expect(again.body.fieldErrors).toEqual([{ field: 'login_id', message: 'このログインIDはすでに使われています。' }]);
    const g = await gql(
      p.url,
      `mutation { createEmployee(input: { name: "", loginId: "a", password: "x", role: GENERAL, status: ACTIVE }) { id } }`,
      {},
      { token: admin },
    );
    const fields = g.body.errors[0].extensions.fieldErrors.map((f: { field: string }) => f.field).sort();
    expect(fields).toEqual(['loginId', 'name', 'password']);
    expect(g.body.errors[0].extensions.fieldErrors[0].message).toMatch(/[ぁ-んァ-ン一-龥]/);
  });

  it('login IDs are unique whatever their case: ADMIN beside admin is refused on create and update (400 / BAD_USER_INPUT on the field), a change of case alone is allowed, sign-in in any case finds the one person', async () => {
    const upper = await api(p.url, 'POST', '/employees', {
      token: admin,
      body: { ...newcomer(20), login_id: 'ADMIN' },
    });
    expect(upper.status).toBe(400);
    expect(upper.body.code).toBe('BAD_USER_INPUT');
    expect(upper.body.fieldErrors).toEqual([{ field: 'login_id', message: 'このログインIDはすでに使われています。' }]);
    const g = await gql(
      p.url,
      `mutation { createEmployee(input: { name: "x", loginId: "Admin", password: "0123456789", role: GENERAL, status: ACTIVE }) { id } }`,
      {},
      { token: admin },
    );
    expect(g.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(g.body.errors[0].extensions.fieldErrors).toEqual([
      { field: 'loginId', message: 'このログインIDはすでに使われています。' },
    ]);
    expect(await sql(`select login_id from employee where lower(login_id) = 'admin'`)).toEqual([{ login_id: 'admin' }]);

    const e = (await api(p.url, 'POST', '/employees', { token: admin, body: newcomer(21) })).body;
    const clash = await api(p.url, 'PUT', `/employees/${e.id}`, {
      token: admin,
      body: { ...newcomer(21), login_id: 'Staff', version: e.version },
    });
    expect(clash.status).toBe(400);
    expect(clash.body.fieldErrors).toEqual([{ field: 'login_id', message: 'このログインIDはすでに使われています。' }]);
    const recased = await api(p.url, 'PUT', `/employees/${e.id}`, {
      token: admin,
      body: { ...newcomer(21), login_id: 'New.21', version: e.version },
    });
    expect(recased.status).toBe(200);
    expect(recased.body.login_id).toBe('New.21');
    for (const typed of ['new.21', 'NEW.21', 'New.21']) {
      const r = await api(p.url, 'POST', '/auth/login', { body: { loginId: typed, password: 'a-long-password-1' } });
      expect(r.status).toBe(200);
      expect(r.body.employee.id).toBe(e.id);
    }
    // The rule is the database's, not only the form's: a second row differing in case cannot be written at all.
    await expect(
      sql(`insert into employee (name, login_id, password_hash, role) values ('x', 'STAFF', 'x', 'GENERAL')`),
    ).rejects.toThrow(/employee_login_id_lower_key/);
  });

  it('an empty new-staff form gets a Japanese message on every field, the missing password included', async () => {
    const r = await api(p.url, 'POST', '/employees', { token: admin, body: { role: '一般', status: '在籍' } });
    expect(r.status).toBe(400);
    const byField = Object.fromEntries(
      r.body.fieldErrors.map((f: { field: string; message: string }) => [f.field, f.message]),
    );
    expect(byField.password).toBe('パスワードを入力してください。');
    expect(Object.keys(byField).sort()).toEqual(['login_id', 'name', 'password']);
    for (const m of Object.values(byField)) expect(m).not.toMatch(/[A-Za-z]{4,}/);
  });

  it('a stale save is a conflict that names who saved in between, never an overwrite', async () => {
    const e = (await api(p.url, 'POST', '/employees', { token: admin, body: newcomer(5) })).body;
    const first = await api(p.url, 'PUT', `/employees/${e.id}`, {
      token: sysadmin,
      body: { ...newcomer(5), name: '新人 五号', version: e.version },
    });
    expect(first.status).toBe(200);
    expect(first.body.version).toBe(e.version + 1);
    const second = await api(p.url, 'PUT', `/employees/${e.id}`, {
      token: admin,
      body: { ...newcomer(5), email: 'other@example.co.jp', version: e.version },
    });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('CONFLICT');
    expect(second.body.error).toMatch(/^鈴木 花子さんが \d{4}\/\d{2}\/\d{2} \d{2}:\d{2} に/); // as the web app writes timestamps
    expect(second.body.current).toMatchObject({ name: '新人 五号', version: e.version + 1 });
    expect(second.body.current).toEqual((await api(p.url, 'GET', `/employees/${e.id}`, { token: admin })).body); // the REST record, as GET answers it
    const [row] = await sql(`select name, email from employee where id = ?`, [e.id]);
    expect(row).toEqual({ name: '新人 五号', email: 'new5@example.co.jp' });
  });

  it('saving unchanged values makes no new version and no event', async () => {
    const e = (await api(p.url, 'POST', '/employees', { token: admin, body: newcomer(6) })).body;
    const same = await api(p.url, 'PUT', `/employees/${e.id}`, {
      token: admin,
      body: { ...newcomer(6), password: undefined, version: e.version },
    });
    expect(same.body.version).toBe(e.version);
    expect(
      await sql(`select type from outbox_all where aggregate_id = ? and type = 'employee.updated'`, [String(e.id)]),
    ).toHaveLength(0);
  });

  it('retiring an employee ends their sessions; admins cannot retire or demote themselves', async () => {
    const e = (await api(p.url, 'POST', '/employees', { token: admin, body: newcomer(7) })).body;
    const theirs = await loginToken(p.url, 'new.7', 'a-long-password-1');
    const r = await api(p.url, 'PUT', `/employees/${e.id}`, {
      token: admin,
      body: { ...newcomer(7), password: undefined, status: '退職', version: e.version },
    });
    expect(r.body.status).toBe('退職');
    expect((await api(p.url, 'GET', '/auth/me', { token: theirs })).status).toBe(401);
    const me = (await api(p.url, 'GET', '/auth/me', { token: admin })).body.employee;
    const self = await api(p.url, 'PUT', `/employees/${me.id}`, {
      token: admin,
      body: {
        name: me.name,
        email: me.email,
        login_id: me.login_id,
        role: '一般',
        status: '在籍',
        location: me.location,
        version: me.version,
      },
    });
    expect(self.status).toBe(400);
    expect(self.body.fieldErrors[0].field).toBe('role');
  });

  it('the directory filters by department given by id or by name, like the device lists; an unknown name is a 400', async () => {
    const all = (await api(p.url, 'GET', '/departments', { token: staff })).body as {
      department_id: number;
      department_name: string;
      members: number[];
    }[];
    const dev = all.find((d) => d.department_name === '開発')!;
    const ids = (path: string) =>
      api(p.url, 'GET', path, { token: staff }).then((r) =>
        (r.body as { employee_id: number }[]).map((e) => e.employee_id).sort((a, b) => a - b),
      );
    const byName = await ids(`/employees?department=${encodeURIComponent('開発')}&limit=200`);
    expect(byName).toEqual(await ids(`/employees?department_id=${dev.department_id}&limit=200`));
    expect(byName.length).toBeGreaterThan(0);
    expect(byName.every((id) => dev.members.includes(id))).toBe(true);
    const unknown = await api(p.url, 'GET', `/employees?department=${encodeURIComponent('宇宙')}`, { token: staff });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toContain('宇宙');
    expect(unknown.body.fieldErrors[0].field).toBe('department');
    const badId = await api(p.url, 'GET', '/employees?department_id=abc', { token: staff });
    expect(badId.status).toBe(400);
    expect(badId.body.fieldErrors[0].field).toBe('department_id');
  });

  it("the directory leaves out excludeIds before paging and counting (a department's members while more are picked)", async () => {
    const q = `query($filter: EmployeeFilter, $offset: Int!, $limit: Int!) { employees(filter: $filter, offset: $offset, limit: $limit) { total items { id } } }`;
    const page = async (filter: Record<string, unknown>, offset = 0, limit = 20) =>
      (await gql(p.url, q, { filter, offset, limit }, { token: admin })).body;
    const everyone = (await page({}, 0, 200)).data.employees as { total: number; items: { id: number }[] };
    const left = everyone.items.slice(0, 25).map((e) => e.id);
    const rest = await page({ excludeIds: left });
    expect(rest.data.employees.total).toBe(everyone.total - 25);
    expect(rest.data.employees.items).toHaveLength(20);
    expect(rest.data.employees.items.some((e: { id: number }) => left.includes(e.id))).toBe(false);
    expect(rest.data.employees.items.map((e: { id: number }) => e.id)).toEqual(
      everyone.items.slice(25, 45).map((e) => e.id),
    );
    const bad = await page({ excludeIds: [0] });
    expect(bad.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const many = await page({ excludeIds: Array.from({ length: 10_001 }, (_, i) => i + 1) });
    expect(many.errors[0].extensions.fieldErrors[0].field).toBe('excludeIds');
  });

  it('the department in the body is ignored: membership is edited on the department', async () => {
    const e = (
      await api(p.url, 'POST', '/employees', {
        token: admin,
        body: { ...newcomer(8), department: '開発', department_id: 1 },
      })
    ).body;
    expect(e.department).toBeNull();
  });
});
