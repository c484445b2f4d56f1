import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../test/db.js';
import { api, loginToken } from '../test/http.js';

let p: TestPlatform;
let token: string;
beforeAll(async () => {
  p = await startTestPlatform();
  token = await loginToken(p.url, 'staff');
});
afterAll(async () => p?.close());

describe('REST facade error mapping', () => {
  it('401 UNAUTHENTICATED without a session', async () => {
    const r = await api(p.url, 'GET', '/employees');
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: 'ログインが必要です。', code: 'UNAUTHENTICATED' });
  });

  it('400 BAD_USER_INPUT with field errors for bad paging, and for a bad id', async () => {
    const r = await api(p.url, 'GET', '/employees?limit=5000&offset=-1', { token });
    expect(r.status).toBe(400);
    expect(r.body.fieldErrors.map((f: { field: string }) => f.field).sort()).toEqual(['limit', 'offset']);
    expect((await api(p.url, 'GET', '/employees/abc', { token })).status).toBe(400);
  });

  it('404 NOT_FOUND for an unknown employee and an unknown path', async () => {
    const r = await api(p.url, 'GET', '/employees/999999', { token });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: '社員が見つかりません。', code: 'NOT_FOUND' });
    expect((await api(p.url, 'GET', '/nothing-here', { token })).body.code).toBe('NOT_FOUND');
  });

  it('400 for malformed JSON, without internals', async () => {
    const r = await api(p.url, 'POST', '/auth/login', { body: '{"loginId":', headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).not.toMatch(/SyntaxError|at /);
  });

  it('refuses a cookie-authenticated write sent as a simple request (CSRF), but not a Bearer one', async () => {
    const form = await fetch(`${p.url}/api/auth/logout`, {
      method: 'POST',
      headers: { cookie: `intranet_sid=${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1',
    });
    expect(form.status).toBe(403);
    expect((await api(p.url, 'GET', '/auth/me', { token })).status).toBe(200); // still signed in
  });

  it('rejects an x-user-id header that disagrees with the session', async () => {
    const me = (await api(p.url, 'GET', '/auth/me', { token })).body.employee.employee_id;
    expect((await api(p.url, 'GET', '/employees', { token, headers: { 'x-user-id': String(me) } })).status).toBe(200);
    const r = await api(p.url, 'GET', '/employees', { token, headers: { 'x-user-id': String(me + 1) } });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('FORBIDDEN');
  });
});

describe('the staff directory', () => {
  it('lists a page with the spec field names, total in X-Total-Count, retired hidden unless asked', async () => {
    const r = await api(p.url, 'GET', '/employees?limit=5', { token });
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(5);
    expect(Object.keys(r.body[0]).sort()).toEqual(
      ['department', 'department_id', 'email', 'employee_id', 'full_name', 'id', 'location', 'location_id', 'login_id', 'name', 'role', 'status', 'version'].sort(),
    );
    const active = Number(r.headers.get('x-total-count'));
    const all = Number((await api(p.url, 'GET', '/employees?retired=1&limit=1', { token })).headers.get('x-total-count'));
    expect(all).toBeGreaterThan(active);
    expect(all).toBeGreaterThanOrEqual(55);
  });

  it('filters by name and department; pages do not overlap', async () => {
    const byName = await api(p.url, 'GET', `/employees?name=${encodeURIComponent('山田')}`, { token });
    expect(byName.body.length).toBeGreaterThan(0);
    expect(byName.body.every((e: { name: string }) => e.name.includes('山田'))).toBe(true);
    const dept = byName.body[0].department_id;
    const byDept = await api(p.url, 'GET', `/employees?department_id=${dept}&limit=200`, { token });
    expect(byDept.body.every((e: { department_id: number }) => e.department_id === dept)).toBe(true);
    const p1 = await api(p.url, 'GET', '/employees?limit=10&offset=0', { token });
    const p2 = await api(p.url, 'GET', '/employees?limit=10&offset=10', { token });
    const ids = new Set([...p1.body, ...p2.body].map((e: { id: number }) => e.id));
    expect(ids.size).toBe(20);
  });

  it('a LIKE wildcard in the name filter is taken literally', async () => {
    const r = await api(p.url, 'GET', `/employees?name=${encodeURIComponent('%')}`, { token });
    expect(r.body).toHaveLength(0);
  });

  it('shows login IDs only to 管理者/システム管理者 and to the employee themself; never a password', async () => {
    const asStaff = await api(p.url, 'GET', '/employees?limit=200', { token });
    const own = asStaff.body.filter((e: { login_id: string | null }) => e.login_id !== null);
    expect(own.map((e: { login_id: string }) => e.login_id)).toEqual(['staff']);
    const admin = await loginToken(p.url, 'admin');
    const asAdmin = await api(p.url, 'GET', '/employees?limit=200', { token: admin });
    expect(asAdmin.body.every((e: { login_id: string | null }) => e.login_id)).toBe(true);
    expect(JSON.stringify(asAdmin.body)).not.toMatch(/password|argon2/i);
  });
});
