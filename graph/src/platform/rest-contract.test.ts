/**
 * The `/api` contract a tool developer relies on, across every resource: a 409's `current` is the
 * REST record (as GET answers it), field errors name the request's fields, a body that is not a
 * JSON object is refused as such, and schema/openapi/api.yaml says so.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startTestPlatform, type TestPlatform } from '../test/db.js';
import { api, gql, loginToken } from '../test/http.js';
import { HTTP_STATUS } from './errors.js';

let p: TestPlatform;
let sysadmin: string;
let staff: string;
let me: number;
beforeAll(async () => {
  p = await startTestPlatform();
  [sysadmin, staff] = await Promise.all(['sysadmin', 'staff'].map((l) => loginToken(p.url, l)));
  me = (await api(p.url, 'GET', '/auth/me', { token: sysadmin })).body.employee.employee_id;
  await p.db.orm.em.fork().getConnection().execute(`delete from profile where employee_id = ?`, [me]); // the demo one: POST makes it again
});
afterAll(async () => p?.close());

const D = '2025-07-15';
const fields = (r: { body: { fieldErrors?: { field: string }[] } }) =>
  (r.body.fieldErrors ?? []).map((f) => f.field).sort();

/** One resource of `/api`: where it lives, its id field, a body that creates it, and a change to save. */
const RESOURCES: { path: string; id: string; body: Record<string, unknown>; change: Record<string, unknown> }[] = [
  {
    path: '/employees',
    id: 'id',
    body: {
      name: '契約 太郎',
      login_id: 'contract.taro',
      password: 'contract-pass-1',
      role: '一般',
      status: '在籍',
      location: '東京',
    },
    change: { name: '契約 次郎' },
  },
  {
    path: '/departments',
    id: 'department_id',
    body: { department_name: '契約テスト部', members: [] },
    change: { department_name: '契約テスト課' },
  },
  {
    path: '/computers',
    id: 'id',
    body: { maker: 'Dell', status: '正常', location: '東京' },
    change: { status: '故障' },
  },
  {
    path: '/smartphone',
    id: 'id',
    body: { phone_number: '080-5555-0001', status: '正常' },
    change: { carrier: 'ドコモ' },
  },
  {
    path: '/microsoft_office',
    id: 'id',
    body: { account: 'contract@example.co.jp', status: '使用中' },
    change: { status: '停止' },
  },
  {
    path: '/schedules',
    id: 'schedule_id',
    body: { title: '契約テスト', date: D, is_all_day: 1 },
    change: { title: '契約テスト（変更）' },
  },
  {
    path: '/blogs',
    id: 'blog_id',
    body: { title: '契約テスト記事', content: '<p>本文</p>', is_draft: 1 },
    change: { title: '契約テスト記事（変更）' },
  },
  {
    path: '/blog_tags',
    id: 'tag_id',
    body: { tag_content: '契約テストタグ' },
    change: { tag_content: '契約テストタグ（変更）' },
  },
  {
    path: '/blog_category',
    id: 'category_id',
    body: { category_name: '契約テストカテゴリ', permissions: ['閲覧'], employees: [] },
    change: { color: '#cf222e' },
  },
  {
    path: '/profiles',
    id: 'id',
    body: { title: '契約テスト', skills: ['契約'] },
    change: { title: '契約テスト（変更）' },
  },
];

describe('409 CONFLICT: `current` is the REST record, exactly as GET /{id} answers it', () => {
  for (const res of RESOURCES) {
    it(`PUT ${res.path}/{id}`, async () => {
      const made = await api(p.url, 'POST', res.path, { token: sysadmin, body: res.body });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const id = made.body[res.id];
      const saved = await api(p.url, 'PUT', `${res.path}/${id}`, {
        token: sysadmin,
        body: { ...res.body, ...res.change, version: made.body.version },
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const stale = await api(p.url, 'PUT', `${res.path}/${id}`, {
        token: sysadmin,
        body: { ...res.body, version: made.body.version },
      });
      expect(stale.status).toBe(409);
      expect(stale.body.code).toBe('CONFLICT');
      const got = await api(p.url, 'GET', `${res.path}/${id}`, { token: sysadmin });
      expect(stale.body.current).toEqual(got.body);
      expect(stale.body.currentVersion).toBe(got.body.version);
    });
  }

  it('GraphQL keeps its own view in `current`', async () => {
    const d = (
      await api(p.url, 'POST', '/departments', {
        token: sysadmin,
        body: { department_name: 'GraphQL競合部', members: [] },
      })
    ).body;
    await api(p.url, 'PUT', `/departments/${d.department_id}`, {
      token: sysadmin,
      body: { department_name: 'GraphQL競合課', version: d.version },
    });
    const g = await gql(
      p.url,
      `mutation($id: Int!, $v: Int!) { updateDepartment(id: $id, input: { name: "x", memberIds: [], version: $v }) { id } }`,
      { id: d.department_id, v: d.version },
      { token: sysadmin },
    );
    expect(g.body.errors[0].extensions.code).toBe('CONFLICT');
    expect(g.body.errors[0].extensions.current).toMatchObject({ id: d.department_id, name: 'GraphQL競合課' });
  });
});

describe('400: fieldErrors name the field as the request body does', () => {
  it('employees', async () => {
    const r = await api(p.url, 'POST', '/employees', {
      token: sysadmin,
      body: { name: ' ', login_id: 'a', role: '一般', status: '在籍' },
    });
    expect(fields(r)).toEqual(['login_id', 'name', 'password']);
    const loc = await api(p.url, 'POST', '/employees', {
      token: sysadmin,
      body: {
        name: '拠点 なし',
        login_id: 'no.location',
        password: 'contract-pass-1',
        role: '一般',
        status: '在籍',
        location_id: 99999,
      },
    });
    expect(fields(loc)).toEqual(['location_id']);
    const byName = await api(p.url, 'POST', '/employees', {
      token: sysadmin,
      body: {
        name: '拠点 なし',
        login_id: 'no.location',
        password: 'contract-pass-1',
        role: '一般',
        status: '在籍',
        location: '札幌',
      },
    });
    expect(fields(byName)).toEqual(['location']);
  });

  it('departments, with a list item as members.N', async () => {
    const r = await api(p.url, 'POST', '/departments', {
      token: sysadmin,
      body: { department_name: '', manager: 4294967296, members: [1, 2147483648] },
    });
    expect(fields(r)).toEqual(['department_name', 'manager', 'members.1']);
    const byOldName = await api(p.url, 'POST', '/departments', { token: sysadmin, body: { name: '', members: [] } });
    expect(fields(byOldName)).toEqual(['name']); // the name the request used
  });

  it('computers and smartphones', async () => {
    const c = await api(p.url, 'POST', '/computers', {
      token: sysadmin,
      body: {
        maker: 'Dell',
        status: '正常',
        current_user: 999999,
        previous_user: 999998,
        ms365: 999999,
        purchase_date: '2025-02-30',
        location: '札幌',
      },
    });
    expect(fields(c)).toEqual(['location']); // names are looked up first
    const refs = await api(p.url, 'POST', '/computers', {
      token: sysadmin,
      body: {
        maker: 'Dell',
        status: '正常',
        current_user: 999999,
        previous_user: 999998,
        ms365: 999999,
        department_id: 9999,
      },
    });
    expect(fields(refs)).toEqual(['current_user', 'department_id', 'ms365', 'previous_user']);
    const dates = await api(p.url, 'POST', '/computers', {
      token: sysadmin,
      body: { maker: 'Dell', status: '正常', purchase_date: '2025-02-30', asset_number: 'x'.repeat(51) },
    });
    expect(fields(dates)).toEqual(['asset_number', 'purchase_date']);
    const s = await api(p.url, 'POST', '/smartphone', {
      token: sysadmin,
      body: { phone_number: '電話', status: '正常', exchange_date: 'soon' },
    });
    expect(fields(s)).toEqual(['exchange_date', 'phone_number']);
  });

  it('schedules: start_time, guest_id.N, other_guest.N, is_my_self, guests', async () => {
    const r = await api(p.url, 'POST', '/schedules', {
      token: sysadmin,
      body: { title: '', date: D, start_time: '10:10', end_time: '11:00', guest_id: [0], other_guest: 'not-mail' },
    });
    expect(fields(r)).toEqual(['guest_id.0', 'other_guest.0', 'start_time', 'title']);
    const priv = await api(p.url, 'POST', '/schedules', {
      token: sysadmin,
      body: { title: '非公開', date: D, is_all_day: 1, is_my_self: 1, other_guest: 'a@example.com' },
    });
    expect(fields(priv)).toEqual(['is_my_self']);
    const self = await api(p.url, 'POST', '/schedules', {
      token: sysadmin,
      body: { title: '自分', date: D, is_all_day: 1, guests: [{ id: me }] },
    });
    expect(fields(self)).toEqual(['guests']);
  });

  it('/auth/google names the body field token', async () => {
    const r = await api(p.url, 'POST', '/auth/google', { body: { token: 'short' } });
    expect([r.status, fields(r)]).toEqual([400, ['token']]);
  });

  it('GraphQL keeps its input names', async () => {
    const g = await gql(
      p.url,
      `mutation { createDepartment(input: { name: "", memberIds: [] }) { id } }`,
      {},
      { token: sysadmin },
    );
    expect(g.body.errors[0].extensions.fieldErrors.map((f: { field: string }) => f.field)).toEqual(['name']);
  });
});

describe('bodies: JSON objects only', () => {
  const send = (method: string, route: string, body: BodyInit, headers: Record<string, string> = {}) =>
    fetch(`${p.url}/api${route}`, { method, headers: { authorization: `Bearer ${sysadmin}`, ...headers }, body }).then(
      async (r) => ({ status: r.status, body: await r.json() }),
    );
  const json = JSON.stringify({ department_name: '形式テスト部', members: [] });

  it('415 UNSUPPORTED_MEDIA_TYPE for JSON sent as another content type or none, not an empty body', async () => {
    for (const ct of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const r = await send('POST', '/departments', json, { 'content-type': ct });
      expect([r.status, r.body.code], ct).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
      expect(r.body.error).toContain('application/json');
    }
    const none = await send('PUT', '/departments/1', new TextEncoder().encode(json)); // fetch sets no content type for bytes
    expect([none.status, none.body.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const form = new FormData();
    form.append('department_name', '形式テスト部');
    expect((await send('POST', '/departments', form)).status).toBe(415); // multipart only where a file is uploaded
    const latin = await send('POST', '/departments', json, { 'content-type': 'application/json; charset=latin1' });
    expect([latin.status, latin.body.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    expect((await api(p.url, 'GET', '/departments?name=形式テスト部', { token: sysadmin })).body).toEqual([]);
  });

  it('the upload route takes multipart (and says so to other content types)', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array([1, 2, 3])]), 'x.xlsx');
    const upload = await send('POST', '/computers/import', form);
    expect(upload.status).toBe(400);
    expect(upload.body.code).not.toBe('UNSUPPORTED_MEDIA_TYPE');
    const text = await send('POST', '/computers/import', 'a,b', { 'content-type': 'text/csv' });
    expect([text.status, text.body.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    expect(text.body.error).toContain('multipart/form-data');
  });

  it('400 BAD_USER_INPUT for JSON that is not an object', async () => {
    for (const body of ['[]', '[{"department_name":"x"}]', '"x"', '1', 'null', 'true']) {
      const r = await send('POST', '/departments', body, { 'content-type': 'application/json' });
      expect([r.status, r.body.code], body).toEqual([400, 'BAD_USER_INPUT']);
      expect(r.body.error, body).toContain('JSON オブジェクト');
    }
  });

  it('413 PAYLOAD_TOO_LARGE over the limit', async () => {
    const r = await send('POST', '/departments', JSON.stringify({ department_name: 'x'.repeat(9 << 20) }), {
      'content-type': 'application/json',
    });
    expect([r.status, r.body.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });

  it('404 and 405 come before the body check; no body is not a 415', async () => {
    expect((await send('POST', '/no-such-thing', 'x', { 'content-type': 'text/plain' })).status).toBe(404);
    expect((await send('PATCH', '/computers', 'x', { 'content-type': 'text/plain' })).status).toBe(405);
    const logout = await fetch(`${p.url}/api/auth/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await loginToken(p.url, 'staff')}` },
    });
    expect(logout.status).toBe(200);
  });
});

describe('GET /schedules/my', () => {
  it('400 for a user_id that is not an id, 403 for someone else, 200 for me', async () => {
    const bad = await api(p.url, 'GET', '/schedules/my?user_id=abc', { token: staff });
    expect([bad.status, bad.body.code, fields(bad)]).toEqual([400, 'BAD_USER_INPUT', ['user_id']]);
    expect((await api(p.url, 'GET', `/schedules/my?user_id=${me}`, { token: staff })).status).toBe(403);
    expect((await api(p.url, 'GET', `/schedules/my?user_id=${me}`, { token: sysadmin })).status).toBe(200);
  });
});

describe('schema/openapi/api.yaml documents it', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the OpenAPI document, walked loosely
  const doc: any = parse(fs.readFileSync(path.resolve(__dirname, '../../../schema/openapi/api.yaml'), 'utf8'));
  const ref = (r: string) =>
    r
      .replace('#/', '')
      .split('/')
      .reduce((o, k) => o[k], doc);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the OpenAPI document, walked loosely
  const ops = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([p_, o]) =>
    Object.entries(o).map(([m, op]) => ({ path: p_, method: m, op })),
  );

  it('every code the server answers is in the Error enum', () => {
    expect(doc.components.schemas.Error.properties.code.enum.sort()).toEqual(Object.keys(HTTP_STATUS).sort());
    expect(Object.keys(HTTP_STATUS)).toEqual(
      expect.arrayContaining(['METHOD_NOT_ALLOWED', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE']),
    );
  });

  it('no `nullable` (OpenAPI 3.0): null is a type in 3.1', () => {
    const found: string[] = [];
    (function walk(o: unknown, at: string) {
      if (!o || typeof o !== 'object') return;
      for (const [k, v] of Object.entries(o)) {
        if (k === 'nullable') found.push(at);
        walk(v, `${at}/${k}`);
      }
    })(doc, '');
    expect(found).toEqual([]);
  });

  it('every operation with a body documents 413 and 415; every PUT says whether it replaces', () => {
    for (const { path: p_, method, op } of ops.filter((o) => o.op.requestBody)) {
      expect(Object.keys(op.responses), `${method} ${p_}`).toEqual(expect.arrayContaining(['413', '415']));
    }
    for (const { path: p_, op } of ops.filter((o) => o.method === 'put'))
      expect(op.description, p_).toMatch(/replace/i);
    expect(doc.info.description).toMatch(/PUT replaces the whole record/);
  });

  it("a PUT's 409 `current` is the schema its GET answers", () => {
    // The version conflicts (GOOGLE_NOT_CONNECTED is a 409 with no record to show).
    const puts = ops.filter(
      (o) => o.method === 'put' && o.op.responses['409'] && !o.op.responses['409'].$ref.endsWith('/GoogleNotConnected'),
    );
    expect(puts.map((o) => o.path).sort()).toEqual(RESOURCES.map((r) => `${r.path}/{id}`).sort());
    for (const { path: p_, op } of puts) {
      const conflict = ref(op.responses['409'].$ref).content['application/json'].schema;
      const current = conflict.allOf
        .map((s: { properties?: { current?: { $ref: string } } }) => s.properties?.current?.$ref)
        .find(Boolean);
      expect(current, p_).toBe(doc.paths[p_].get.responses['200'].content['application/json'].schema.$ref);
    }
  });
});
