import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../test/db.js';
import { api, loginToken } from '../../test/http.js';
import * as XLSX from '@e965/xlsx';

let p: TestPlatform;
let devadmin: string;
let staff: string;
beforeAll(async () => {
  p = await startTestPlatform();
  [devadmin, staff] = await Promise.all(['devadmin', 'staff'].map((l) => loginToken(p.url, l)));
});
afterAll(async () => p?.close());

async function download(path: string, token = devadmin) {
  const res = await fetch(`${p.url}/api${path}`, { headers: { authorization: `Bearer ${token}` } });
  const buf = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) return { res, rows: [] as unknown[][], buf, json: JSON.parse(buf.toString()) };
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as never);
  const ws = wb.worksheets[0];
  const rows: unknown[][] = [];
  ws.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { res, rows, ws, buf, json: null };
}
const total = async (path: string) =>
  Number((await api(p.url, 'GET', path, { token: devadmin })).headers.get('x-total-count'));

describe('exports', () => {
  it('computers: every matching row (more than a page), a Japanese header, RFC 5987 file name, formula-looking text as it is in string cells (never a formula), no PIN/password', async () => {
    for (let i = 0; i < 30; i++) {
      const r = await api(p.url, 'POST', '/computers', {
        token: devadmin,
        body: {
          maker: i === 0 ? '=HYPERLINK("http://evil.example","x")' : `Maker${i}`,
          model: i === 0 ? '+81-3-1234' : 'M',
          device_type: i === 0 ? '-1+1' : null,
          reason: i === 0 ? '@SUM(A1)' : null,
          status: '正常',
          purchase_date: '2024-04-01',
          pin_code: '8642',
          pass: 'never-exported',
        },
      });
      expect(r.status).toBe(201);
    }
    const expected = await total('/computers?limit=1');
    expect(expected).toBeGreaterThan(50);
    const { res, rows, buf } = await download('/computers/export');
    const raw = XLSX.read(buf, { cellFormula: true, dense: false });
    const cells = Object.entries(raw.Sheets[raw.SheetNames[0]])
      .filter(([k]) => !k.startsWith('!'))
      .map(([, c]) => c as XLSX.CellObject);
    expect(cells.filter((c) => c.f !== undefined)).toEqual([]); // no formula anywhere
    const hyperlink = cells.find((c) => String(c.v).includes('HYPERLINK'))!;
    expect(hyperlink).toMatchObject({ t: 's', v: '=HYPERLINK("http://evil.example","x")' });
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const cd = res.headers.get('content-disposition')!;
    expect(cd).toMatch(
      /^attachment; filename="computers_\d{8}\.xlsx"; filename\*=UTF-8''%E3%83%91%E3%82%BD%E3%82%B3%E3%83%B3%E4%B8%80%E8%A6%A7_\d{8}\.xlsx$/,
    );
    expect(decodeURIComponent(cd.split("''")[1])).toMatch(/^パソコン一覧_\d{8}\.xlsx$/);
    expect(rows[0]).toEqual([
      'ID',
      '管理番号',
      'メーカー',
      '種類',
      '型番',
      '使用者ID',
      '使用者',
      '使用者の在籍状況',
      '前使用者',
      '拠点',
      '部署',
      '状態',
      '理由',
      '購入日',
      '導入日',
      'Microsoft Office アカウント',
      'ACアダプター',
      '電源ケーブル',
      '保証期限',
    ]);
    expect(rows.length - 1).toBe(expected);
    // Formula-looking text is written as it is, in string cells (inline strings), never as a formula.
    const evil = rows.find((r) => String(r[2]).includes('HYPERLINK'))!;
    expect(evil.slice(2, 5)).toEqual(['=HYPERLINK("http://evil.example","x")', '-1+1', '+81-3-1234']);
    expect(evil[12]).toBe('@SUM(A1)');
    expect(evil[13]).toBeInstanceOf(Date);
    expect((evil[13] as Date).toISOString().slice(0, 10)).toBe('2024-04-01');
    expect(JSON.stringify(rows)).not.toMatch(/never-exported|8642/);
    expect(rows.slice(1).some((r) => r[11] === '廃棄' || r[11] === '処分済み')).toBe(false);
    const withDiscarded = await download('/computers/export?show_discarded=1');
    expect(withDiscarded.rows.length - 1).toBe(await total('/computers?limit=1&show_discarded=1'));
    const filtered = await download('/computers/export?maker=Maker1&status=正常');
    expect(
      filtered.rows
        .slice(1)
        .map((r) => r[2])
        .sort(),
    ).toEqual(['Maker1', ...Array.from({ length: 10 }, (_, i) => `Maker${10 + i}`)].sort());
  });

  it('smartphones and Office accounts export with their own Japanese headers and all rows', async () => {
    const phones = await download('/smartphone/export?show_discarded=1');
    expect(phones.rows[0]).toEqual([
      'ID',
      '電話番号',
      'キャリア',
      'OS',
      '価格',
      '使用者ID',
      '使用者',
      '使用者の在籍状況',
      '前使用者',
      '拠点',
      '部署',
      '状態',
      '交換日',
    ]);
    expect(phones.rows.length - 1).toBe(await total('/smartphone?limit=1&show_discarded=1'));
    expect(decodeURIComponent(phones.res.headers.get('content-disposition')!.split("''")[1])).toMatch(
      /^スマートフォン一覧_/,
    );
    const office = await download('/microsoft_office/export?status=使用中');
    expect(office.rows[0]).toEqual(['ID', 'アカウント', '状態', '使用台数', '使用状況', '備考']);
    expect(office.rows.length - 1).toBe(await total('/microsoft_office?limit=1&status=使用中'));
    expect(office.rows.slice(1).every((r) => r[2] === '使用中' && typeof r[3] === 'number')).toBe(true);
    expect(office.rows.slice(1).some((r) => r[4] === '青（上限・交換対象）')).toBe(true);
  });

  it('refuses 一般 and bad filters with a JSON error before any file is sent', async () => {
    const denied = await download('/computers/export', staff);
    expect(denied.res.status).toBe(403);
    expect(denied.json.code).toBe('FORBIDDEN');
    const bad = await download('/smartphone/export?status=紛失');
    expect(bad.res.status).toBe(400);
    expect(bad.json.code).toBe('BAD_USER_INPUT');
  });
});
