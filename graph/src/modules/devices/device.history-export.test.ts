import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../test/db.js';
import { api, loginToken } from '../../test/http.js';

let p: TestPlatform;
let devadmin: string;
let staff: string;
beforeAll(async () => {
  p = await startTestPlatform();
  [devadmin, staff] = await Promise.all(['devadmin', 'staff'].map((l) => loginToken(p.url, l)));
});
afterAll(async () => p?.close());

async function sheet(path: string, token = devadmin) {
  const res = await fetch(`${p.url}/api${path}`, { headers: { authorization: `Bearer ${token}` } });
  const buf = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) return { res, rows: [] as unknown[][] };
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as never);
  const rows: unknown[][] = [];
  wb.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { res, rows };
}

describe('assignment history export', () => {
  it('a computer: every change with before/after and who made it, oldest first', async () => {
    const emps = (await api(p.url, 'GET', '/employees?limit=5', { token: devadmin })).body as {
      id: number;
      name: string;
    }[];
    const [a, b] = emps;
    const c = (
      await api(p.url, 'POST', '/computers', {
        token: devadmin,
        body: { maker: 'HistX', status: '正常', location: '東京', current_user: a.id },
      })
    ).body;
    const moved = (
      await api(p.url, 'PUT', `/computers/${c.id}`, {
        token: devadmin,
        body: { maker: 'HistX', status: '故障', location: '大阪', current_user: b.id, version: c.version },
      })
    ).body;
    expect(moved.current_user).toBe(b.id);
    const { res, rows } = await sheet(`/computers/${c.id}/history/export`);
    expect(res.status).toBe(200);
    expect(decodeURIComponent(res.headers.get('content-disposition')!.split("''")[1])).toMatch(
      new RegExp(`^パソコン${c.id}_使用履歴_\\d{8}\\.xlsx$`),
    );
    expect(rows[0]).toEqual([
      '日時（日本時間）',
      '内容',
      '使用者（変更前）',
      '使用者（変更後）',
      '状態（変更前）',
      '状態（変更後）',
      '拠点（変更前）',
      '拠点（変更後）',
      '変更者',
    ]);
    expect(rows).toHaveLength(3);
    expect(rows[1].slice(1, 4)).toEqual(['登録', undefined, a.name]);
    expect(rows[2].slice(1)).toEqual(['編集', a.name, b.name, '正常', '故障', '東京', '大阪', '高橋 健太']);
    expect(String(rows[2][0])).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  });

  it('keeps a deleted employee or location as 削除済み with its id (the history is an audit log, no set null)', async () => {
    const sql = (q: string, params: unknown[] = []): Promise<Record<string, unknown>[]> =>
      p.db.orm.em.fork().getConnection().execute(q, params);
    const [gone] = await sql(
      `insert into employee (name, login_id, password_hash, role) values ('消える 社員', 'gone-emp', 'x', 'GENERAL') returning id`,
    );
    const [place] = await sql(`insert into location (name) values ('消える拠点') returning id`);
    const c = (
      await api(p.url, 'POST', '/computers', {
        token: devadmin,
        body: { maker: 'HistDel', status: '正常', location: '消える拠点', current_user: gone.id },
      })
    ).body;
    await api(p.url, 'PUT', `/computers/${c.id}`, {
      token: devadmin,
      body: { maker: 'HistDel', status: '正常', location: '東京', current_user: null, version: c.version },
    });
    await sql(`delete from employee where id = ?`, [gone.id]);
    await sql(`delete from location where id = ?`, [place.id]);
    const stored = await sql(
      `select from_user_id, to_user_id, from_location_id, to_location_id from device_history where device_kind = 'COMPUTER' and device_id = ? order by id`,
      [c.id],
    );
    expect(stored).toEqual([
      { from_user_id: null, to_user_id: gone.id, from_location_id: null, to_location_id: place.id },
      { from_user_id: gone.id, to_user_id: null, from_location_id: place.id, to_location_id: expect.any(Number) },
    ]);
    const json = (await api(p.url, 'GET', `/computers/${c.id}/history`, { token: devadmin })).body;
    expect(json.changes[0]).toMatchObject({
      to_user: gone.id,
      to_user_name: `削除済み（ID: ${gone.id}）`,
      to_location: `削除済み（ID: ${place.id}）`,
    });
    expect(json.changes[1]).toMatchObject({
      from_user: gone.id,
      from_user_name: `削除済み（ID: ${gone.id}）`,
      from_location: `削除済み（ID: ${place.id}）`,
      to_location: '東京',
    });
    expect(json.assignments).toMatchObject([
      { employee_id: gone.id, employee_name: `削除済み（ID: ${gone.id}）`, employee_status: '削除済み' },
    ]);
    const { rows } = await sheet(`/computers/${c.id}/history/export`);
    expect(rows[1].slice(1, 8)).toEqual([
      '登録',
      undefined,
      `削除済み（ID: ${gone.id}）`,
      undefined,
      '正常',
      undefined,
      `削除済み（ID: ${place.id}）`,
    ]);
    expect(rows[2].slice(1, 8)).toEqual([
      '編集',
      `削除済み（ID: ${gone.id}）`,
      undefined,
      '正常',
      '正常',
      `削除済み（ID: ${place.id}）`,
      '東京',
    ]);
  });

  it('smartphones too; 一般 gets 403 and an unknown device 404, as JSON', async () => {
    const phone = (
      await api(p.url, 'POST', '/smartphone', {
        token: devadmin,
        body: { phone_number: '070-1111-2222', status: '正常' },
      })
    ).body;
    const ok = await sheet(`/smartphone/${phone.id}/history/export`);
    expect(ok.res.status).toBe(200);
    expect(ok.rows).toHaveLength(2);
    expect((await sheet(`/smartphone/${phone.id}/history/export`, staff)).res.status).toBe(403);
    expect((await sheet('/computers/999999/history/export')).res.status).toBe(404);
  });
});
