import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../test/db.js';
import { api, gql, loginToken } from '../../test/http.js';
import { hashToken } from './session.service.js';

let p: TestPlatform;
beforeAll(async () => {
  p = await startTestPlatform();
});
afterAll(async () => p?.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of ad-hoc test SQL, read by column name
const sql = (q: string, params: unknown[] = []): Promise<any[]> =>
  p.db.orm.em.fork().getConnection().execute(q, params);

describe('sign-in with ID and password', () => {
  it('answers { employee, token } with the spec field names and sets an HttpOnly SameSite session cookie', async () => {
    const r = await api(p.url, 'POST', '/auth/login', { body: { loginId: 'admin', password: 'intranet-demo' } });
    expect(r.status).toBe(200);
    expect(r.body.employee).toMatchObject({
      employee_id: 1,
      full_name: '山田 太郎',
      role: '管理者',
      status: '在籍',
      login_id: 'admin',
    });
    expect(r.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 random bits
    const cookies = r.headers.getSetCookie();
    const sid = cookies.find((c) => c.startsWith('intranet_sid='))!;
    expect(sid).toContain('HttpOnly');
    expect(sid).toContain('SameSite=Lax');
    expect(sid).not.toContain('Max-Age'); // no Remember Me: a browser-session cookie
    expect(JSON.stringify(r.body)).not.toMatch(/password|argon2/i);
  });

  it('stores only the SHA-256 of the token, never the token itself', async () => {
    const token = await loginToken(p.url, 'staff');
    const rows = await sql(`select id from session`);
    expect(rows.map((r: { id: string }) => r.id)).toContain(hashToken(token));
    expect(rows.map((r: { id: string }) => r.id)).not.toContain(token);
  });

  it('"Remember Me" makes the cookie persistent and the session longer', async () => {
    const r = await api(p.url, 'POST', '/auth/login', {
      body: { loginId: 'staff', password: 'intranet-demo', rememberMe: true },
    });
    const sid = r.headers.getSetCookie().find((c) => c.startsWith('intranet_sid='))!;
    const maxAge = Number(/Max-Age=(\d+)/.exec(sid)![1]);
    expect(maxAge).toBeGreaterThan(29 * 86_400);
    const [short] = await sql(`select absolute_expires_at - created_at as life from session where id = ?`, [
      hashToken(await loginToken(p.url, 'staff')),
    ]);
    const [long] = await sql(`select absolute_expires_at - created_at as life, remember from session where id = ?`, [
      hashToken(r.body.token),
    ]);
    expect(long.remember).toBe(true);
    expect(JSON.stringify(long.life)).not.toEqual(JSON.stringify(short.life));
  });

  it('refuses a wrong password with a Japanese message and 401, the same as an unknown ID', async () => {
    const wrong = await api(p.url, 'POST', '/auth/login', { body: { loginId: 'devadmin', password: 'nope' } });
    const unknown = await api(p.url, 'POST', '/auth/login', { body: { loginId: 'nobody-here', password: 'nope' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'ログインIDまたはパスワードが正しくありません。', code: 'UNAUTHENTICATED' });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('refuses empty input with field errors and changes nothing', async () => {
    const before = await sql(`select count(*)::int as n from session`);
    const r = await api(p.url, 'POST', '/auth/login', { body: { loginId: '  ', password: '' } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('BAD_USER_INPUT');
    expect(r.body.fieldErrors.map((f: { field: string }) => f.field).sort()).toEqual(['loginId', 'password']);
    expect(await sql(`select count(*)::int as n from session`)).toEqual(before);
  });

  it('a retired employee cannot sign in', async () => {
    const [retired] = await sql(`select login_id from employee where status = 'RETIRED' limit 1`);
    const r = await api(p.url, 'POST', '/auth/login', {
      body: { loginId: retired.login_id, password: 'intranet-demo' },
    });
    expect(r.status).toBe(403);
    expect(r.body.error).toContain('退職');
  });
});

describe('sessions', () => {
  it('Bearer tokens work for other tools; logout revokes the session', async () => {
    const token = await loginToken(p.url, 'sysadmin');
    expect((await api(p.url, 'GET', '/auth/me', { token })).body.employee.login_id).toBe('sysadmin');
    expect((await api(p.url, 'POST', '/auth/logout', { token, body: {} })).status).toBe(200);
    const after = await api(p.url, 'GET', '/auth/me', { token });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('UNAUTHENTICATED');
  });

  it('a new sign-in issues a new token and revokes the one the browser held', async () => {
    const first = await loginToken(p.url, 'staff');
    const r = await gql(
      p.url,
      `mutation { login(input: { loginId: "staff", password: "intranet-demo" }) { employee { id } } }`,
      {},
      { cookie: `intranet_sid=${first}` },
    );
    const second = /intranet_sid=([^;]+)/.exec(r.headers.getSetCookie().join('\n'))![1];
    expect(second).not.toBe(first);
    expect((await api(p.url, 'GET', '/auth/me', { token: first })).status).toBe(401);
    expect((await api(p.url, 'GET', '/auth/me', { token: second })).status).toBe(200);
  });

  it('expires on the server after the idle timeout and after the absolute lifetime', async () => {
    const idle = await loginToken(p.url, 'staff');
    await sql(`update session set idle_expires_at = now() - interval '1 second' where id = ?`, [hashToken(idle)]);
    expect((await api(p.url, 'GET', '/auth/me', { token: idle })).status).toBe(401);
    const abs = await loginToken(p.url, 'staff');
    await sql(`update session set absolute_expires_at = now() - interval '1 second' where id = ?`, [hashToken(abs)]);
    expect((await api(p.url, 'GET', '/auth/me', { token: abs })).status).toBe(401);
    expect(await sql(`select 1 from session where id in (?, ?)`, [hashToken(idle), hashToken(abs)])).toHaveLength(0);
  });

  it('use slides the idle expiry but never past the absolute one', async () => {
    const token = await loginToken(p.url, 'staff');
    await sql(
      `update session set last_seen_at = now() - interval '10 minutes', idle_expires_at = now() + interval '1 minute', absolute_expires_at = now() + interval '5 minutes' where id = ?`,
      [hashToken(token)],
    );
    expect((await api(p.url, 'GET', '/auth/me', { token })).status).toBe(200);
    const [row] = await sql(`select idle_expires_at, absolute_expires_at from session where id = ?`, [
      hashToken(token),
    ]);
    expect(new Date(row.idle_expires_at).getTime()).toBe(new Date(row.absolute_expires_at).getTime());
  });

  it('deactivating an employee ends their sessions at once', async () => {
    const [e] = await sql(
      `select id, login_id from employee where status = 'ACTIVE' and role = 'GENERAL' and login_id <> 'staff' limit 1`,
    );
    const token = await loginToken(p.url, e.login_id);
    await sql(`update employee set status = 'RETIRED' where id = ?`, [e.id]);
    expect((await api(p.url, 'GET', '/employees', { token })).status).toBe(401);
    await sql(`update employee set status = 'ACTIVE' where id = ?`, [e.id]);
    expect((await api(p.url, 'GET', '/employees', { token })).status).toBe(401); // revoked, not suspended
  });

  it('an admin can end all sessions of an employee; others are refused', async () => {
    const victim = await loginToken(p.url, 'devadmin');
    const staff = await loginToken(p.url, 'staff');
    const [dev] = await sql(`select id from employee where login_id = 'devadmin'`);
    const refused = await gql(
      p.url,
      `mutation($id:Int!){ revokeEmployeeSessions(employeeId:$id) }`,
      { id: dev.id },
      { token: staff },
    );
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await api(p.url, 'GET', '/auth/me', { token: victim })).status).toBe(200);
    const admin = await loginToken(p.url, 'admin');
    const ok = await gql(
      p.url,
      `mutation($id:Int!){ revokeEmployeeSessions(employeeId:$id) }`,
      { id: dev.id },
      { token: admin },
    );
    expect(ok.body.data.revokeEmployeeSessions).toBeGreaterThanOrEqual(1);
    expect((await api(p.url, 'GET', '/auth/me', { token: victim })).status).toBe(401);
  });
});
