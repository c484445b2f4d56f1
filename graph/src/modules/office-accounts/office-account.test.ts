import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../test/db.js';
import { api, gql, loginToken } from '../../test/http.js';

let p: TestPlatform;
let admin: string;
let sysadmin: string;
let devadmin: string;
let staff: string;
beforeAll(async () => {
  p = await startTestPlatform();
  [admin, sysadmin, devadmin, staff] = await Promise.all(
    ['admin', 'sysadmin', 'devadmin', 'staff'].map((l) => loginToken(p.url, l)),
  );
});
afterAll(async () => p?.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of ad-hoc test SQL, read by column name
const sql = (q: string, params: unknown[] = []): Promise<any[]> =>
  p.db.orm.em.fork().getConnection().execute(q, params);
type Acct = {
  id: number;
  account: string;
  status: string;
  usage_count: number;
  usage_status: string | null;
  version: number;
};
const all = async (q = ''): Promise<Acct[]> =>
  (await api(p.url, 'GET', `/microsoft_office?limit=200&${q}`, { token: devadmin })).body;

describe('Microsoft Office accounts', () => {
  it('一般 gets 403 on every /api/microsoft_office path and FORBIDDEN in GraphQL', async () => {
    for (const [method, path, body] of [
      ['GET', '/microsoft_office'],
      ['POST', '/microsoft_office', { account: 'x@example.co.jp', status: '使用中' }],
      ['GET', '/microsoft_office/export'],
      ['GET', '/microsoft_office/1'],
      ['PUT', '/microsoft_office/1', { account: 'x@example.co.jp', status: '使用中', version: 1 }],
    ] as const) {
      expect((await api(p.url, method, path, { token: staff, body })).status, `${method} ${path}`).toBe(403);
    }
    expect(
      (await gql(p.url, `{ officeAccounts { total } }`, {}, { token: staff })).body.errors[0].extensions.code,
    ).toBe('FORBIDDEN');
  });

  it('usage_count is counted from the computers, and the row colour follows the documented rule', async () => {
    const rows = await all();
    const counts: { id: number; n: number }[] = await sql(
      `select oa.id, count(c.id)::int as n from office_account oa left join computer c on c.office_account_id = oa.id group by oa.id`,
    );
    for (const r of rows) expect(r.usage_count, r.account).toBe(counts.find((c) => c.id === r.id)!.n);
    const five = rows.find((r) => r.usage_count === 5)!;
    expect(five).toMatchObject({ usage_status: 'blue' });
    expect(rows.find((r) => r.usage_count > 5)).toMatchObject({
      usage_status: 'red',
      usage_status_reason: expect.stringContaining('超えて'),
    });
    const [brokenTie] = await sql(
      `select office_account_id as id from computer where status = 'BROKEN' and office_account_id is not null limit 1`,
    );
    expect(rows.find((r) => r.id === brokenTie.id)!.usage_status).toBe('red');
    expect(rows.find((r) => r.status === '停止' && r.usage_count > 0)).toMatchObject({ usage_status: 'red' });
    expect(rows.find((r) => r.status === '停止' && r.usage_count === 0)).toMatchObject({ usage_status: null });
    expect(rows.some((r) => r.usage_status === null && r.usage_count > 0)).toBe(true);
    // the count follows the computers: tie one more computer to the account with 5 → red
    const spare = (await api(p.url, 'POST', '/computers', { token: admin, body: { maker: 'Dell', status: '正常' } }))
      .body;
    const tie = await gql(
      p.url,
      `mutation($id:Int!,$v:Int!,$a:Int!){ updateComputer(id:$id, input:{ maker: "Dell", status: NORMAL, officeAccountId: $a, version: $v }) { officeAccount { id } } }`,
      { id: spare.id, v: spare.version, a: five.id },
      { token: admin },
    );
    expect(tie.body.errors).toBeUndefined();
    const g = await gql(
      p.url,
      `query($id:Int!){ officeAccount(id:$id) { usageCount rowColor rowColorReason } }`,
      { id: five.id },
      { token: sysadmin },
    );
    expect(g.body.data.officeAccount).toMatchObject({ usageCount: 6, rowColor: 'RED' });
    const tied = await api(p.url, 'GET', `/computers?ms365=${five.id}&show_discarded=1`, { token: devadmin });
    expect(tied.body).toHaveLength(6);
  });

  it('filters by account text and status', async () => {
    expect((await all('account=m365-0')).length).toBe(9);
    expect((await all('account=M365-1')).map((r) => r.account).sort()).toEqual([
      'm365-10@example.co.jp',
      'm365-11@example.co.jp',
      'm365-12@example.co.jp',
      'm365-13@example.co.jp',
      'm365-14@example.co.jp',
    ]);
    expect((await all('status=停止')).every((r) => r.status === '停止')).toBe(true);
    expect((await all('status=SUSPENDED')).length).toBe(2);
    expect((await api(p.url, 'GET', '/microsoft_office?status=壊れた', { token: devadmin })).status).toBe(400);
  });

  it('creates and updates: account and status only, unique regardless of case, stale versions conflict', async () => {
    const r = await api(p.url, 'POST', '/microsoft_office', {
      token: devadmin,
      body: { account: 'new.user@example.co.jp', status: '使用中', usage_count: 99 },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      account: 'new.user@example.co.jp',
      status: '使用中',
      usage_count: 0,
      usage_status: null,
      version: 1,
    });
    const dupe = await api(p.url, 'POST', '/microsoft_office', {
      token: devadmin,
      body: { account: 'NEW.USER@example.co.jp', status: '使用中' },
    });
    expect(dupe.status).toBe(400);
    expect(dupe.body.fieldErrors).toEqual([{ field: 'account', message: 'このアカウントはすでに登録されています。' }]);
    const bad = await api(p.url, 'POST', '/microsoft_office', {
      token: devadmin,
      body: { account: ' ', status: '休止' },
    });
    expect(bad.body.fieldErrors.map((f: { field: string }) => f.field).sort()).toEqual(['account', 'status']);
    const up = await api(p.url, 'PUT', `/microsoft_office/${r.body.id}`, {
      token: admin,
      body: { account: 'new.user@example.co.jp', status: '停止', version: 1 },
    });
    expect(up.body).toMatchObject({ status: '停止', status_code: 'SUSPENDED', version: 2 });
    const stale = await api(p.url, 'PUT', `/microsoft_office/${r.body.id}`, {
      token: devadmin,
      body: { account: 'renamed@example.co.jp', status: '使用中', version: 1 },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toContain('山田 太郎さん');
    expect((await api(p.url, 'GET', `/microsoft_office/${r.body.id}`, { token: devadmin })).body.account).toBe(
      'new.user@example.co.jp',
    );
    // a suspended account cannot be newly tied to a computer
    const link = await api(p.url, 'POST', '/computers', {
      token: devadmin,
      body: { maker: 'HP', status: '正常', ms365: r.body.id },
    });
    expect(link.body.fieldErrors).toEqual([
      { field: 'ms365', message: '停止中の Microsoft Office アカウントは紐付けられません。' },
    ]);
    const types = await sql(`select type, payload from outbox_all where aggregate_id = ? order by seq`, [
      `office_account:${r.body.id}`,
    ]);
    expect(types.map((t) => t.type)).toEqual(['device.office_account.created', 'device.office_account.updated']);
    expect(types[1].payload.changed).toEqual(['status']);
    expect(
      await sql(
        `select count(*)::int as n from device_history where device_id = ? and device_kind not in ('COMPUTER', 'SMARTPHONE')`,
        [r.body.id],
      ),
    ).toEqual([{ n: 0 }]);
  });
});
