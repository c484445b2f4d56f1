import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../test/db.js';
import { api, gql, loginToken } from '../../test/http.js';

let p: TestPlatform;
let admin: string;
let devadmin: string;
let staff: string;
beforeAll(async () => {
  p = await startTestPlatform();
  [admin, devadmin, staff] = await Promise.all(['admin', 'devadmin', 'staff'].map((l) => loginToken(p.url, l)));
});
afterAll(async () => p?.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of ad-hoc test SQL, read by column name
const sql = (q: string, params: unknown[] = []): Promise<any[]> =>
  p.db.orm.em.fork().getConnection().execute(q, params);
const phone = (extra: Record<string, unknown> = {}) => ({
  phone_number: '080-1111-2222',
  carrier: 'ドコモ',
  os: 'iOS 18',
  price: '98000',
  status: '正常',
  location: '姫路',
  ...extra,
});

describe('smartphones', () => {
  it('一般 gets 403 on every /api/smartphone path and FORBIDDEN in GraphQL', async () => {
    const [{ id }] = await sql(`select id from smartphone order by id limit 1`);
    for (const [method, path, body] of [
      ['GET', '/smartphone'],
      ['POST', '/smartphone', phone()],
      ['GET', '/smartphone/export'],
      ['GET', `/smartphone/${id}`],
      ['PUT', `/smartphone/${id}`, phone({ version: 1 })],
      ['GET', `/smartphone/${id}/history`],
    ] as const) {
      expect((await api(p.url, method, path, { token: staff, body })).status, `${method} ${path}`).toBe(403);
    }
    const g = await gql(p.url, `{ smartphones { total } }`, {}, { token: staff });
    expect(g.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('lists with the spec filters: phone number with or without hyphens, carrier text, status, location, department, show discarded', async () => {
    const list = async (q: string) =>
      (await api(p.url, 'GET', `/smartphone?limit=200&${q}`, { token: devadmin })).body as Record<string, string>[];
    const all = await list('show_discarded=true');
    const [n] = await sql(
      `select count(*)::int as n, count(*) filter (where status in ('DISCARDED', 'DISPOSED'))::int as gone from smartphone`,
    );
    expect(all).toHaveLength(n.n);
    expect(await list('')).toHaveLength(n.n - n.gone);
    const sample = all[0].phone_number;
    expect((await list(`phone_number=${sample.replaceAll('-', '')}`)).map((s) => s.phone_number)).toContain(sample);
    expect((await list(`phone_number=${sample.slice(0, 8)}`)).map((s) => s.phone_number)).toContain(sample);
    expect((await list('carrier=ソフト')).every((s) => s.carrier === 'ソフトバンク')).toBe(true);
    expect((await list('carrier=ソフト')).length).toBeGreaterThan(0);
    expect((await list('status=故障')).every((s) => s.status === '故障')).toBe(true);
    expect((await list('status=処分済み')).length).toBe(1);
    expect((await list('location=姫路')).every((s) => s.location === '姫路')).toBe(true);
    expect(all.some((s) => (s as unknown as { current_user_retired: boolean }).current_user_retired)).toBe(true);
    const lost = await api(p.url, 'GET', '/smartphone?status=紛失', { token: devadmin });
    expect(lost.status).toBe(400); // 紛失 is a computer status only
  });

  it('creates and updates with the spec fields; 紛失 and bad numbers are field errors; conflicts name who saved', async () => {
    const [user] = await sql(`select id, name from employee where status = 'ACTIVE' order by id desc limit 1`);
    const r = await api(p.url, 'POST', '/smartphone', {
      token: devadmin,
      body: phone({ current_user: user.id, exchange_date: '2026/03/31', pin_pw: '4321' }),
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      phone_number: '080-1111-2222',
      carrier: 'ドコモ',
      os: 'iOS 18',
      price: 98000,
      status: '正常',
      location: '姫路',
      current_user: user.id,
      current_user_name: user.name,
      exchange_date: '2026-03-31',
      pin_pw: '4321',
      version: 1,
    });
    const bad = await api(p.url, 'POST', '/smartphone', {
      token: devadmin,
      body: phone({ phone_number: '電話', status: '紛失', price: -5, exchange_date: '2026-13-01' }),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors.map((f: { field: string }) => f.field).sort()).toEqual([
      'exchange_date',
      'phone_number',
      'price',
      'status',
    ]);
    const g = await gql(
      p.url,
      `mutation { createSmartphone(input: { phoneNumber: "090-0000-0000", status: LOST }) { id } }`,
      {},
      { token: admin },
    );
    expect(g.body.errors[0].extensions.fieldErrors[0]).toMatchObject({
      field: 'status',
      message: expect.stringContaining('処分済み'),
    });
    const up = await api(p.url, 'PUT', `/smartphone/${r.body.id}`, {
      token: admin,
      body: phone({ current_user: user.id, status: '故障', version: r.body.version }),
    });
    expect(up.body).toMatchObject({ status: '故障', is_broken: true, version: 2, exchange_date: null });
    const stale = await api(p.url, 'PUT', `/smartphone/${r.body.id}`, { token: devadmin, body: phone({ version: 1 }) });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toContain('山田 太郎さん');
    const h = await api(p.url, 'GET', `/smartphone/${r.body.id}/history`, { token: devadmin });
    expect(h.body.changes.map((c: { reason: string; changed: string[] }) => [c.reason, c.changed])).toEqual([
      ['created', ['currentUser', 'status', 'location']],
      ['edit', ['status']],
    ]);
    const types = await sql(`select type from outbox_all where aggregate_id = ? order by seq`, [
      `smartphone:${r.body.id}`,
    ]);
    expect(types.map((t) => t.type)).toEqual(['device.smartphone.created', 'device.smartphone.updated']);
  });

  it('the seeded history shows the story of handed-over and discarded phones', async () => {
    const [d] = await sql(`select id from smartphone where status = 'DISCARDED' limit 1`);
    const t = await gql(
      p.url,
      `query($id:Int!){ deviceHistory(kind: SMARTPHONE, id: $id) { assignments { user { id } to } changes { reason toStatus toUser { id } } } }`,
      { id: d.id },
      { token: devadmin },
    );
    const { assignments, changes } = t.body.data.deviceHistory;
    expect(changes[0].reason).toBe('created');
    expect(changes.at(-1)).toMatchObject({ toStatus: 'DISCARDED', toUser: null });
    expect(assignments.length).toBeGreaterThanOrEqual(1);
    expect(assignments.every((a: { to: string | null }) => a.to !== null)).toBe(true);
  });
});
