import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../test/db.js';
import { api, gql, loginToken } from '../test/http.js';

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
    const r = await api(p.url, 'POST', '/auth/login', {
      body: '{"loginId":',
      headers: { 'content-type': 'application/json' },
    });
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

  it('a search term longer than the 100 characters OpenAPI allows is a 400 as sent, before it is trimmed or reduced to digits (found by Schemathesis)', async () => {
    const admin = await loginToken(p.url, 'admin');
    const long = `\t${'é'.repeat(99)}1`; // 101 characters, one digit
    for (const path of [
      `/smartphone?phone_number=${encodeURIComponent(long)}`,
      `/departments?name=${encodeURIComponent(` ${'a'.repeat(100)}`)}`,
      `/employees?name=${encodeURIComponent(`${'a'.repeat(100)} `)}`,
    ]) {
      const r = await api(p.url, 'GET', path, { token: admin });
      expect([path.slice(0, 20), r.status, r.body.code]).toEqual([path.slice(0, 20), 400, 'BAD_USER_INPUT']);
    }
    // 60 characters outside the BMP are 60 characters (120 UTF-16 units): allowed, as OpenAPI counts.
    expect(
      (await api(p.url, 'GET', `/employees?name=${encodeURIComponent('😀'.repeat(60))}`, { token: admin })).status,
    ).toBe(200);
  });

  it('400, never a 500 from SQL, for ids and offsets past PostgreSQL integer, bad filters and repeated parameters (found by Schemathesis)', async () => {
    const admin = await loginToken(p.url, 'sysadmin');
    const refused = async (path: string, field: string, method = 'GET', body?: unknown) => {
      const r = await api(p.url, method, path, { token: admin, body });
      expect(r.status, path).toBe(400);
      expect(r.body.code, path).toBe('BAD_USER_INPUT');
      expect(
        r.body.fieldErrors.map((f: { field: string }) => f.field),
        path,
      ).toContain(field);
    };
    await refused('/departments?offset=18144090090680752491560041162211328', 'offset');
    await refused('/microsoft_office?offset=2147483648', 'offset');
    await refused('/departments/2147483648', 'id');
    await refused('/computers?current_user=464368326666880256', 'current_user');
    await refused('/computers?ms365=11595391234', 'ms365');
    await refused('/smartphone?department_id=99999999999', 'department_id');
    await refused('/employees?department_id=2147483648', 'department_id');
    await refused('/computers?status=null&status=null', 'status');
    await refused('/computers?status=壊れた', 'status');
    await refused('/microsoft_office?status=foo', 'status');
    await refused('/employees?retired=AAA', 'retired');
    await refused('/computers?show_discarded=maybe', 'show_discarded');
    await refused('/schedules?from=9%C2%A2', 'from');
    await refused('/departments/null,null', 'id', 'PUT', { department_name: '0', manager: 1, members: '', version: 1 });
    await refused('/employees/null,null', 'id', 'PUT', {
      name: '0',
      login_id: '000',
      role: '管理者',
      status: '在籍',
      location_id: 1,
      version: 1,
    });
    // 21 characters pass the phone pattern ('+' and 20 more) but not the column (found by Schemathesis).
    await refused('/smartphone', 'phone_number', 'POST', { phone_number: '+1-4706-1553441180500', status: '正常' });
    await refused('/departments', 'manager', 'POST', { department_name: '検証部', manager: 4294967296, members: [] });
    await refused('/departments', 'members.0', 'POST', { department_name: '検証部', members: [2147483648] });
    // PostgreSQL text cannot hold NUL: refused as input on /api and in GraphQL alike, never a 500.
    const nul = await api(p.url, 'GET', '/smartphone?carrier=w%00', { token: admin });
    expect([nul.status, nul.body.code]).toEqual([400, 'BAD_USER_INPUT']);
    const nulBody = await api(p.url, 'POST', '/computers', {
      token: admin,
      body: { maker: '5Is\u0000x', status: 'REPLACE' },
    });
    expect([nulBody.status, nulBody.body.code]).toEqual([400, 'BAD_USER_INPUT']);
    const g = await gql(
      p.url,
      'query($n: String) { employees(filter: { name: $n }) { total } }',
      { n: 'a\u0000' },
      { token: admin },
    );
    expect([g.status, g.body.errors?.[0]?.extensions?.code]).toEqual([400, 'BAD_USER_INPUT']);
    expect(g.body.errors[0].extensions.http).toBeUndefined();
    const literal = await gql(p.url, '{ employees(filter: { name: "a\\u0000" }) { total } }', {}, { token: admin });
    expect([literal.status, literal.body.errors?.[0]?.extensions?.code]).toEqual([400, 'BAD_USER_INPUT']);
    // The largest offset is still an answer (an empty page), and a label or code filters as before.
    expect((await api(p.url, 'GET', '/computers?offset=2147483647', { token: admin })).body).toEqual([]);
    const broken = await api(p.url, 'GET', '/computers?status=故障', { token: admin });
    expect(broken.status).toBe(200);
    expect(broken.body.every((c: { status_code: string }) => c.status_code === 'BROKEN')).toBe(true);
    expect((await api(p.url, 'GET', '/computers?status=BROKEN', { token: admin })).body).toEqual(broken.body);
  });

  it('405 with Allow for a method a known path does not answer; 404 for an unknown path', async () => {
    const r = await api(p.url, 'PATCH', '/computers', { token });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(r.body.code).toBe('METHOD_NOT_ALLOWED');
    const put = await api(p.url, 'DELETE', '/employees/1', { token });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, PUT');
    expect((await api(p.url, 'PATCH', '/no-such-thing', { token })).status).toBe(404);
    // A path of its own beside /{id} is not taken for an id.
    const exp = await api(p.url, 'PUT', '/computers/export', { token, body: {} });
    expect([exp.status, exp.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    expect((await api(p.url, 'DELETE', '/schedules/my', { token })).headers.get('allow')).toBe('GET, HEAD');
    expect((await api(p.url, 'PUT', '/schedules/1', { token, body: {} })).status).not.toBe(405);
    const options = await fetch(`${p.url}/api/computers/export`, { method: 'OPTIONS' });
    expect([options.status, options.headers.get('allow')]).toEqual([204, 'GET, HEAD, OPTIONS']);
    expect((await fetch(`${p.url}/api/computers/1`, { method: 'OPTIONS' })).headers.get('allow')).toBe(
      'GET, HEAD, OPTIONS, PUT',
    );
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
      [
        'department',
        'department_id',
        'email',
        'employee_id',
        'full_name',
        'id',
        'location',
        'location_id',
        'login_id',
        'name',
        'role',
        'status',
        'version',
      ].sort(),
    );
    const active = Number(r.headers.get('x-total-count'));
    const all = Number(
      (await api(p.url, 'GET', '/employees?retired=1&limit=1', { token })).headers.get('x-total-count'),
    );
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

describe('conditional reads', () => {
  it('a read carries a strong ETag; If-None-Match with it (alone, weak or in a list) is a 304 without a body; a change gives a new tag', async () => {
    const admin = await loginToken(p.url, 'admin');
    const url = `${p.url}/api/employees?limit=3`;
    const get = (headers: Record<string, string> = {}) =>
      fetch(url, { headers: { authorization: `Bearer ${admin}`, ...headers } });
    const first = await get();
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const body = await first.json();
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await get({ 'if-none-match': inm });
      expect(again.status, inm).toBe(304);
      expect(await again.text()).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
    }
    expect((await get({ 'if-none-match': '"other"' })).status).toBe(200);
    // Another person's answer for the same URL differs (their rights), and so does its tag; a change of a shown record changes it too.
    const e = body.items?.[0] ?? body[0];
    const id = e.id ?? e.employee_id;
    const current = await api(p.url, 'GET', `/employees/${id}`, { token: admin });
    const tag = current.headers.get('etag')!;
    const put = await api(p.url, 'PUT', `/employees/${id}`, {
      token: admin,
      body: { ...current.body, email: `etag-${Date.now()}@example.co.jp` },
    });
    expect(put.status).toBe(200);
    expect(put.headers.get('etag')).toBeNull(); // a write answers without one
    const after = await fetch(`${p.url}/api/employees/${id}`, {
      headers: { authorization: `Bearer ${admin}`, 'if-none-match': tag },
    });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(tag);
  });

  it("If-Match with a record's ETag stands for its version on an update: the current tag saves, a stale one is the same 409, a tag of no record a 400", async () => {
    const admin = await loginToken(p.url, 'admin');
    const list = await api(p.url, 'GET', '/employees?limit=1', { token: admin });
    const first = list.body.items?.[0] ?? list.body[0];
    const id = first.id ?? first.employee_id;
    const read = await api(p.url, 'GET', `/employees/${id}`, { token: admin });
    const tag = read.headers.get('etag')!;
    expect(tag).toMatch(new RegExp(`^"v${read.body.version}\\.[\\w-]+"$`));
    const { version: _v, ...withoutVersion } = read.body;
    const put = (ifMatch: string, email: string) =>
      api(p.url, 'PUT', `/employees/${id}`, {
        token: admin,
        body: { ...withoutVersion, email },
        headers: { 'if-match': ifMatch },
      });
    const saved = await put(tag, `ifmatch-1-${Date.now()}@example.co.jp`);
    expect(saved.status).toBe(200);
    const stale = await put(tag, `ifmatch-2-${Date.now()}@example.co.jp`);
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('CONFLICT');
    expect((await put(`W/${tag}`, 'x@example.co.jp')).status).toBe(409);
    const bad = await put('"not-a-record-tag"', 'y@example.co.jp');
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors).toEqual([{ field: 'If-Match', message: expect.any(String) }]);
  });
});
