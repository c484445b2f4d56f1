import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../test/db.js';
import { api, gql, loginToken } from '../../test/http.js';

/** 保証期限 (warranty_until): a date field added to COMPUTER_FIELDS, with the list filter 「保証期限が N 日以内」. */
let p: TestPlatform;
let devadmin: string;
let ids: { soon: number; later: number; expired: number; today: number };
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of ad-hoc test SQL, read by column name
const sql = (q: string, params: unknown[] = []): Promise<any[]> =>
  p.db.orm.em.fork().getConnection().execute(q, params);
/** A date `days` from today as the company counts it (Asia/Tokyo), YYYY-MM-DD. */
const fromToday = async (days: number): Promise<string> =>
  (await sql(`select to_char((now() at time zone 'Asia/Tokyo')::date + ?::int, 'YYYY-MM-DD') as d`, [days]))[0].d;

beforeAll(async () => {
  p = await startTestPlatform();
  devadmin = await loginToken(p.url, 'devadmin');
  const make = async (asset: string, days: number) => {
    const r = await api(p.url, 'POST', '/computers', {
      token: devadmin,
      body: { asset_number: asset, maker: 'WarrantyMaker', status: '正常', warranty_until: await fromToday(days) },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.id as number;
  };
  ids = {
    soon: await make('W-SOON', 10),
    later: await make('W-LATER', 100),
    expired: await make('W-EXPIRED', -1),
    today: await make('W-TODAY', 0),
  };
});
afterAll(async () => p?.close());

const listIds = async (query: string) => {
  const r = await api(p.url, 'GET', `/computers?maker=WarrantyMaker${query}`, { token: devadmin });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (r.body as { id: number }[]).map((c) => c.id).sort((a, b) => a - b);
};

describe('computers: 保証期限 (warranty_until)', () => {
  it('is stored, answered on /api and in GraphQL, and written through both (YYYY/MM/DD accepted, a bad date named)', async () => {
    const got = await api(p.url, 'GET', `/computers/${ids.soon}`, { token: devadmin });
    expect(got.body.warranty_until).toBe(await fromToday(10));
    const put = await api(p.url, 'PUT', `/computers/${ids.soon}`, {
      token: devadmin,
      body: { ...got.body, status: '正常', warranty_until: '2030/4/1', version: got.body.version },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.warranty_until).toBe('2030-04-01');
    const bad = await api(p.url, 'PUT', `/computers/${ids.soon}`, {
      token: devadmin,
      body: { ...put.body, status: '正常', warranty_until: '2030-02-30', version: put.body.version },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors).toEqual([
      { field: 'warranty_until', message: '保証期限は正しい日付（YYYY-MM-DD）で入力してください。' },
    ]);
    const g = await gql(
      p.url,
      `mutation($id: Int!, $v: Int!, $d: String) { updateComputer(id: $id, input: { maker: "WarrantyMaker", status: NORMAL, assetNumber: "W-SOON", warrantyUntil: $d, version: $v }) { warrantyUntil } }`,
      { id: ids.soon, v: put.body.version, d: await fromToday(10) },
      { token: devadmin },
    );
    expect(g.body.data.updateComputer.warrantyUntil).toBe(await fromToday(10));
    const [row] = await sql(`select to_char(warranty_until, 'YYYY-MM-DD') as d from computer where id = ?`, [ids.soon]);
    expect(row.d).toBe(await fromToday(10));
  });

  it('「保証期限が N 日以内」: from today to N days ahead (an expired warranty is not within), on /api and in GraphQL alike', async () => {
    expect(await listIds('')).toEqual([ids.soon, ids.later, ids.expired, ids.today].sort((a, b) => a - b));
    expect(await listIds('&warranty_until_within_days=30')).toEqual([ids.soon, ids.today].sort((a, b) => a - b));
    expect(await listIds('&warranty_until_within_days=0')).toEqual([ids.today]);
    expect(await listIds('&warranty_until_within_days=365')).toEqual(
      [ids.soon, ids.later, ids.today].sort((a, b) => a - b),
    );
    const q = `query($n: Int) { computers(filter: { maker: "WarrantyMaker", warrantyUntilWithinDays: $n }) { total items { id warrantyUntil } } }`;
    const g = await gql(p.url, q, { n: 30 }, { token: devadmin });
    expect(g.body.data.computers.items.map((c: { id: number }) => c.id).sort((a: number, b: number) => a - b)).toEqual(
      [ids.soon, ids.today].sort((a, b) => a - b),
    );
  });

  it('a bad N is a 400 naming the parameter (GraphQL: BAD_USER_INPUT naming the argument)', async () => {
    for (const n of ['abc', '-1', '3651', '1.5']) {
      const r = await api(p.url, 'GET', `/computers?warranty_until_within_days=${n}`, { token: devadmin });
      expect(r.status, n).toBe(400);
      expect(r.body.code).toBe('BAD_USER_INPUT');
      expect(r.body.fieldErrors[0].field).toBe('warranty_until_within_days');
    }
    const g = await gql(
      p.url,
      `{ computers(filter: { warrantyUntilWithinDays: -5 }) { total } }`,
      {},
      { token: devadmin },
    );
    expect(g.body.errors[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      fieldErrors: [{ field: 'warrantyUntilWithinDays' }],
    });
  });

  it('the export has a 保証期限 date column, and filters by it too', async () => {
    const res = await fetch(`${p.url}/api/computers/export?maker=WarrantyMaker&warranty_until_within_days=30`, {
      headers: { authorization: `Bearer ${devadmin}` },
    });
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const rows: unknown[][] = [];
    wb.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    const at = rows[0].indexOf('保証期限');
    expect(at).toBeGreaterThan(0);
    expect(
      rows
        .slice(1)
        .map((r) => (r[at] as Date).toISOString().slice(0, 10))
        .sort(),
    ).toEqual([await fromToday(0), await fromToday(10)]);
  });
});
