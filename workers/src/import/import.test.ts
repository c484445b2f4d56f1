import { PassThrough } from 'node:stream';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import ExcelJS from 'exceljs';
import * as XLSX from '@e965/xlsx';
import { createTestDatabase, testConfig, type TestDatabase, api, gql, loginToken } from '@intranet/graph/testing';
import { zipParts } from '@intranet/graph/fixtures';
import { createLogger, type Config } from '@intranet/graph';
import { startGraph, type Graph } from '@intranet/graph/app';
import { ImportPlanner, ASSET_NUMBER_TAKEN, ReferenceGuard, uploadHandoff } from '@intranet/graph/areas';
import { createImportConsumer, startImportScheduler } from './index.js';

let db: TestDatabase;
let graph: Graph;
let config: Config;
let url: string;
let stopScheduler: () => Promise<void>;
let devadmin: string;
let staff: string;
let admin: string;
let sysadmin: string;

beforeAll(async () => {
  db = await createTestDatabase();
  config = testConfig({
    IMPORT_MAX_ROWS: '300',
    IMPORT_MAX_BYTES: String(2 * 1024 * 1024),
    IMPORT_MAX_UNCOMPRESSED_BYTES: String(10 * 1024 * 1024),
    IMPORT_WAIT_MS: '20000',
  });
  const log = createLogger(process.env.TEST_LOG ?? 'silent');
  const consumer = createImportConsumer({ config, log });
  graph = await startGraph(config, log, db.url, { consumers: [consumer] });
  stopScheduler = startImportScheduler(consumer, graph.orm, 60_000).stop;
  url = graph.server.url;
  [devadmin, staff, admin, sysadmin] = await Promise.all(
    ['devadmin', 'staff', 'admin', 'sysadmin'].map((l) => loginToken(url, l)),
  );
});
afterAll(async () => {
  await stopScheduler?.();
  await graph?.stop();
  await db?.close();
  if (config) fs.rmSync(config.dataDir, { recursive: true, force: true });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of ad-hoc test SQL, read by column name
const sql = (q: string, params: unknown[] = []): Promise<any[]> => db.orm.em.fork().getConnection().execute(q, params);
const snapshot = () =>
  sql(`select id, asset_number, maker, model, status, current_user_id, location_id, version from computer order by id`);

type Row = Record<string, string | number | Date | { formula: string; result?: unknown } | null>;
const HEADERS = ['管理番号', 'ID', 'メーカー', '型番', '使用者', '拠点', '部署', '状態', '購入日', '導入日'];

async function xlsx(rows: Row[], headers = HEADERS): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('パソコン');
  ws.addRow(headers);
  for (const r of rows) ws.addRow(headers.map((h) => r[h] ?? null));
  return Buffer.from(await wb.xlsx.writeBuffer());
}

function xls(rows: Row[], headers = HEADERS): Buffer {
  const ws = XLSX.utils.aoa_to_sheet([headers, ...rows.map((r) => headers.map((h) => r[h] ?? null))], {
    cellDates: true,
  });
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, 'パソコン');
  return XLSX.write(wb, { type: 'buffer', bookType: 'biff8' });
}

async function upload(file: Buffer, name: string, query = '', token = devadmin) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), name);
  const res = await fetch(`${url}/api/computers/import${query}`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const employee = async () =>
  (
    await sql(
      `select id, name from employee where status = 'ACTIVE' and name in (select name from employee group by name having count(*) = 1) order by id desc limit 1`,
    )
  )[0];

describe('computers import: good and bad rows', () => {
  it('imports valid .xlsx rows, rejects bad ones with row/column/reason, and a re-import changes nothing', async () => {
    const e = await employee();
    const rows: Row[] = [
      {
        管理番号: 'IMP-0001',
        メーカー: 'Dell',
        型番: 'Latitude',
        使用者: e.name,
        拠点: '東京',
        状態: '正常',
        購入日: new Date('2024-04-01T00:00:00Z'),
        導入日: '2024/04/10',
      },
      { 管理番号: 'IMP-0002', メーカー: 'HP', 状態: '故障', 購入日: '2024-01-01' },
      { 管理番号: 'IMP-0003', メーカー: 'NEC', 拠点: '札幌' },
      { メーカー: 'Nobody' },
      { 管理番号: 'IMP-0004', メーカー: '' },
      { 管理番号: 'IMP-0001', メーカー: 'Again' },
      { 管理番号: 'IMP-0005', メーカー: 'Fujitsu', 購入日: '2024-05-01', 導入日: '2024-04-01' },
      { 管理番号: 'IMP-0006', メーカー: 'Formula', 型番: { formula: 'CONCAT("X","1")', result: 'X1' } },
    ];
    const r = await upload(await xlsx(rows), 'pcs.xlsx');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      created: 3,
      updated: 0,
      unchanged: 0,
      rejected: 5,
      message: '取り込みは完了しましたが、5行でエラーがありました',
    });
    expect(r.body.errors).toEqual(
      expect.arrayContaining([
        { row: 4, column: '拠点', reason: '拠点「札幌」は存在しません。' },
        { row: 5, column: '管理番号', reason: '管理番号またはIDを入力してください。' },
        { row: 6, column: 'メーカー', reason: 'メーカーを入力してください。' },
        expect.objectContaining({ row: 7, column: '管理番号' }),
        expect.objectContaining({ row: 8, column: '導入日' }),
      ]),
    );
    const [pc] = await sql(`select * from computer where asset_number = 'IMP-0001'`);
    expect(pc).toMatchObject({ maker: 'Dell', current_user_id: e.id, status: 'NORMAL' });
    expect(await sql(`select model from computer where asset_number = 'IMP-0006'`)).toEqual([{ model: 'X1' }]);
    const history = await sql(
      `select reason, changed from device_history where device_kind = 'COMPUTER' and device_id = ?`,
      [pc.id],
    );
    expect(history).toEqual([{ reason: 'created', changed: ['currentUser', 'status', 'location'] }]);
    // The job's times are wall-clock times: it finished after it started (finished_at was the start of
    // the worker's transaction, before started_at, until 2026-11-26).
    const [times] = await sql(
      `select created_at <= started_at and started_at <= finished_at as ordered from import_job where id = ?`,
      [r.body.job_id],
    );
    expect(times).toEqual({ ordered: true });
    const report = await fetch(`${url}/api/computers/import/${r.body.job_id}/errors`, {
      headers: { authorization: `Bearer ${devadmin}` },
    });
    expect(report.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await report.arrayBuffer()) as never);
    expect(wb.worksheets[0].getRow(1).values).toEqual([undefined, '行', '列', '理由']);
    expect(wb.worksheets[0].rowCount).toBe(6);

    const before = await snapshot();
    const again = await upload(await xlsx(rows), 'pcs.xlsx');
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 3, rejected: 5 });
    expect(await snapshot()).toEqual(before);
  });

  it('a cell holding an error value (#N/A from a formula) rejects its row, naming the column; the other rows go in', async () => {
    const rows: Row[] = [
      { 管理番号: 'ERR-0001', メーカー: 'Dell', 購入日: { formula: 'NA()', result: { error: '#N/A' } } as Row[string] },
      { 管理番号: 'ERR-0002', メーカー: { formula: '1/0', result: { error: '#DIV/0!' } } as Row[string] },
      { 管理番号: 'ERR-0003', メーカー: 'HP' },
    ];
    const r = await upload(await xlsx(rows), 'errors.xlsx');
    expect(r.body).toMatchObject({ created: 1, rejected: 2 });
    expect(r.body.errors).toEqual([
      { row: 2, column: '購入日', reason: 'エラー値（#N/A）が入っています。数式の結果ではなく値を入力してください。' },
      {
        row: 3,
        column: 'メーカー',
        reason: 'エラー値（#DIV/0!）が入っています。数式の結果ではなく値を入力してください。',
      },
    ]);
    expect(await sql(`select asset_number from computer where asset_number like 'ERR-%'`)).toEqual([
      { asset_number: 'ERR-0003' },
    ]);
  });

  it('every bad cell of a row is reported (row, column, reason), in the preview and the import alike; the row is rejected once', async () => {
    await upload(await xlsx([{ 管理番号: 'CELLS-OLD', メーカー: 'Dell', 拠点: '東京' }]), 'setup.xlsx');
    const bad = { メーカー: '', 導入日: '2024-13-40', 拠点: '火星', 使用者: '存在しない社員' };
    const rows: Row[] = [
      { 管理番号: 'CELLS-NEW', ...bad },
      { 管理番号: 'CELLS-OLD', ...bad },
      { 管理番号: 'CELLS-OK', メーカー: 'HP' },
    ];
    const expected = (row: number) => [
      { row, column: 'メーカー', reason: 'メーカーを入力してください。' },
      { row, column: '使用者', reason: '社員「存在しない社員」は存在しません。' },
      { row, column: '拠点', reason: '拠点「火星」は存在しません。' },
      { row, column: '導入日', reason: '導入日は正しい日付（YYYY-MM-DD）で入力してください。' },
    ];
    const before = await snapshot();
    const preview = await upload(await xlsx(rows), 'cells.xlsx', '?dry_run=1');
    expect(preview.body).toMatchObject({
      created: 1,
      updated: 0,
      rejected: 2,
      message: '確認が完了しました。2行でエラーがあります（まだ何も書き込まれていません）',
    });
    expect(preview.body.errors).toEqual([...expected(2), ...expected(3)]);
    expect(await snapshot()).toEqual(before);
    const q = `query($id: ID!) { importJob(id: $id) { rejected preview { row action } errors { row column reason } } }`;
    const job = (await gql(url, q, { id: preview.body.job_id }, { token: devadmin })).body.data.importJob;
    expect(job.errors).toEqual([...expected(2), ...expected(3)]);
    expect(job.preview).toEqual([
      { row: 2, action: 'REJECT' },
      { row: 3, action: 'REJECT' },
      { row: 4, action: 'CREATE' },
    ]);

    const applied = await upload(await xlsx(rows), 'cells.xlsx');
    expect(applied.body).toMatchObject({ created: 1, updated: 0, rejected: 2 });
    expect(applied.body.errors).toEqual([...expected(2), ...expected(3)]);
    const report = await fetch(`${url}/api/computers/import/${applied.body.job_id}/errors`, {
      headers: { authorization: `Bearer ${devadmin}` },
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await report.arrayBuffer()) as never);
    const lines = wb.worksheets[0]
      .getSheetValues()
      .slice(2)
      .map((r) => (r as unknown[]).slice(1));
    expect(lines).toEqual([...expected(2), ...expected(3)].map((e) => [e.row, e.column, e.reason]));
    expect(
      await sql(
        `select maker, location_id is not null as located from computer where asset_number like 'CELLS-%' order by asset_number`,
      ),
    ).toEqual([
      { maker: 'HP', located: false },
      { maker: 'Dell', located: true },
    ]);
  });

  it('reads .xls (BIFF8) files too, updating by ID when there is no 管理番号', async () => {
    const [{ id }] = await sql(`select id from computer where asset_number = 'IMP-0002'`);
    const r = await upload(
      xls([
        { ID: id, メーカー: 'HP', 型番: 'ProBook', 状態: '交換対象', 購入日: new Date('2024-01-01T00:00:00Z') },
        { ID: 999999, メーカー: 'X' },
      ]),
      'old.xls',
    );
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ created: 0, updated: 1, rejected: 1 });
    expect(r.body.errors).toEqual([{ row: 3, column: 'ID', reason: 'ID 999999 のパソコンは存在しません。' }]);
    expect(
      await sql(`select model, status, purchase_date::text as d, asset_number from computer where id = ?`, [id]),
    ).toEqual([{ model: 'ProBook', status: 'REPLACE', d: '2024-01-01', asset_number: 'IMP-0002' }]);
    // History: the creation (status only: no user, no location) and this change of status, which
    // names the chunk's event (the one that carries the computer's id).
    const history = await sql(
      `select reason, changed, from_status::text as fs, to_status::text as ts, event_id::text as ev from device_history where device_kind = 'COMPUTER' and device_id = ? order by id`,
      [id],
    );
    expect(history.map((h) => [h.reason, h.changed, h.fs, h.ts])).toEqual([
      ['created', ['status'], null, 'BROKEN'],
      ['edit', ['status'], 'BROKEN', 'REPLACE'],
    ]);
    const events = await sql(
      `select type, payload from outbox_event where id = ?::uuid union all select type, payload from outbox_sent where id = ?::uuid`,
      [history[1].ev, history[1].ev],
    );
    expect(events).toEqual([
      { type: 'device.computers.imported', payload: { jobId: r.body.job_id, created: [], updated: [id] } },
    ]);
  });

  it('text comes in exactly as typed (quotes, backslashes, line breaks, emoji), on creation and on update', async () => {
    const odd = ['He said "hi" \\ back', 'line 1\nline 2', '🍣 {a,b} NULL', "O'Brien's, [x]"];
    const created = await upload(
      await xlsx(odd.map((m, i) => ({ 管理番号: `ODD-${i}`, メーカー: m, 型番: odd[(i + 1) % odd.length] }))),
      'odd.xlsx',
    );
    expect(created.body).toMatchObject({ created: odd.length, rejected: 0 });
    const stored = async () =>
      (await sql(`select maker, model from computer where asset_number like 'ODD-%' order by asset_number`)).map(
        (c) => [c.maker, c.model],
      );
    expect(await stored()).toEqual(odd.map((m, i) => [m, odd[(i + 1) % odd.length]]));
    const updated = await upload(
      await xlsx(odd.map((m, i) => ({ 管理番号: `ODD-${i}`, メーカー: odd[(i + 2) % odd.length], 型番: m }))),
      'odd.xlsx',
    );
    expect(updated.body).toMatchObject({ updated: odd.length, rejected: 0 });
    expect(await stored()).toEqual(odd.map((m, i) => [odd[(i + 2) % odd.length], m]));
  });

  it('保証期限 (a field of COMPUTER_FIELDS): a date cell or date text, a bad date rejected by name; export → import keeps it; the template has its column', async () => {
    const headers = ['管理番号', 'メーカー', '保証期限'];
    const rows: Row[] = [
      { 管理番号: 'WAR-1', メーカー: 'Dell', 保証期限: new Date('2029-03-31T00:00:00Z') },
      { 管理番号: 'WAR-2', メーカー: 'HP', 保証期限: '2029/4/1' },
      { 管理番号: 'WAR-3', メーカー: 'HP', 保証期限: '2029-02-30' },
    ];
    const r = await upload(await xlsx(rows, headers), 'warranty.xlsx');
    expect(r.body).toMatchObject({ created: 2, rejected: 1 });
    expect(r.body.errors).toEqual([
      { row: 4, column: '保証期限', reason: '保証期限は正しい日付（YYYY-MM-DD）で入力してください。' },
    ]);
    const stored = () =>
      sql(
        `select asset_number, to_char(warranty_until, 'YYYY-MM-DD') as w, version from computer where asset_number like 'WAR-%' order by asset_number`,
      );
    const before = await stored();
    expect(before.map((c) => [c.asset_number, c.w])).toEqual([
      ['WAR-1', '2029-03-31'],
      ['WAR-2', '2029-04-01'],
    ]);
    const exported = Buffer.from(
      await (
        await fetch(`${url}/api/computers/export?show_discarded=1`, {
          headers: { authorization: `Bearer ${devadmin}` },
        })
      ).arrayBuffer(),
    );
    const again = await upload(exported, 'export.xlsx');
    expect(again.body).toMatchObject({ created: 0, updated: 0, rejected: 0 });
    expect(await stored()).toEqual(before);
    const template = new ExcelJS.Workbook();
    await template.xlsx.load(
      Buffer.from(
        await (
          await fetch(`${url}/api/computers/import/template`, { headers: { authorization: `Bearer ${devadmin}` } })
        ).arrayBuffer(),
      ) as never,
    );
    expect(template.worksheets[0].getRow(1).values as string[]).toContain('保証期限');
  });

  it('export → import changes nothing, text starting with = + - @ included; a file of the old export (a quote before such text) reads the same', async () => {
    const tricky = ['=1+1', '+81-3-0000', '-5', '@home', '=HYPERLINK("http://evil.example","x")', '- 予備機'];
    for (const [i, t] of tricky.entries()) {
      const r = await api(url, 'POST', '/computers', {
        token: devadmin,
        body: {
          asset_number: `RT-${i}`,
          maker: t,
          model: `${t} M`,
          device_type: i % 2 ? t : null,
          reason: t,
          status: '正常',
          purchase_date: '2024-04-01',
        },
      });
      expect(r.status).toBe(201);
    }
    const full = async () => JSON.stringify(await sql(`select * from computer order by id`));
    const exported = Buffer.from(
      await (
        await fetch(`${url}/api/computers/export?show_discarded=1`, {
          headers: { authorization: `Bearer ${devadmin}` },
        })
      ).arrayBuffer(),
    );
    const before = await snapshot();
    const everything = await full();
    const r = await upload(exported, 'export.xlsx');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ created: 0, updated: 0, rejected: 0 });
    expect(r.body.unchanged).toBe(before.length);
    expect(await snapshot()).toEqual(before);
    expect(await full()).toBe(everything);

    // The export before this one put a quote in front of every such cell.
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(exported as never);
    wb.worksheets[0].eachRow((row, n) => {
      if (n > 1)
        row.eachCell(
          (c) => void (typeof c.value === 'string' && /^[=+\-@]/.test(c.value) && (c.value = `'${c.value}`)),
        );
    });
    const old = Buffer.from(await wb.xlsx.writeBuffer());
    const quoted: unknown[] = [];
    wb.worksheets[0].eachRow((row) => quoted.push(row.getCell(3).value));
    expect(quoted).toContain("'=1+1");
    const fromOld = await upload(old, 'old-export.xlsx');
    expect(fromOld.body).toMatchObject({ created: 0, updated: 0, rejected: 0, unchanged: before.length });
    expect(await full()).toBe(everything);
  });
});

describe('computers import: preview, apply, live progress', () => {
  it('a preview writes nothing; applying it writes what it showed', async () => {
    const before = await snapshot();
    const file = await xlsx([
      { 管理番号: 'PRV-1', メーカー: 'Apple' },
      { 管理番号: 'IMP-0002', メーカー: 'Lenovo' },
      { 管理番号: 'PRV-2', メーカー: 'VAIO', 状態: '謎' },
    ]);
    const r = await upload(file, 'p.xlsx', '?dry_run=1');
    expect(r.body).toMatchObject({ created: 1, updated: 1, rejected: 1 });
    expect(await snapshot()).toEqual(before);
    const q = `query($id: ID!) { importJob(id: $id) { mode status preview { row action assetNumber maker changed } errors { row column reason } errorReportUrl } }`;
    const job = (await gql(url, q, { id: r.body.job_id }, { token: devadmin })).body.data.importJob;
    expect(job.mode).toBe('PREVIEW');
    expect(job.preview).toEqual([
      { row: 2, action: 'CREATE', assetNumber: 'PRV-1', maker: 'Apple', changed: [] },
      { row: 3, action: 'UPDATE', assetNumber: 'IMP-0002', maker: 'Lenovo', changed: ['メーカー', '型番', '購入日'] },
      { row: 4, action: 'REJECT', assetNumber: 'PRV-2', maker: 'VAIO', changed: [] },
    ]);
    expect(job.errorReportUrl).toBe(`/api/computers/import/${r.body.job_id}/errors`);

    const applied = await gql(
      url,
      `mutation($id: ID!) { applyImport(previewJobId: $id) { id mode } }`,
      { id: r.body.job_id },
      { token: devadmin },
    );
    const applyId = applied.body.data.applyImport.id;
    for (let i = 0; i < 100; i++) {
      const s = (await api(url, 'GET', `/computers/import/${applyId}`, { token: devadmin })).body;
      if (s.status === 'succeeded') break;
      await new Promise((res) => setTimeout(res, 100));
    }
    const done = (await api(url, 'GET', `/computers/import/${applyId}`, { token: devadmin })).body;
    expect(done).toMatchObject({ mode: 'apply', status: 'succeeded', created: 1, updated: 1, rejected: 1 });
    expect(
      await sql(`select maker from computer where asset_number in ('PRV-1', 'IMP-0002') order by asset_number`),
    ).toEqual([{ maker: 'Lenovo' }, { maker: 'Apple' }]);
    // Applied again (a double click, a retried request): the same apply job, no second import.
    const jobs = async () => (await sql(`select count(*)::int as n from import_job where mode = 'apply'`))[0].n;
    const n = await jobs();
    const again = await gql(
      url,
      `mutation($id: ID!) { applyImport(previewJobId: $id) { id mode } }`,
      { id: r.body.job_id },
      { token: devadmin },
    );
    expect(again.body.data.applyImport.id).toBe(applyId);
    const rest = await api(url, 'POST', `/computers/import/${r.body.job_id}/apply`, { token: devadmin });
    expect(rest.body.job_id ?? rest.body.id).toBe(applyId);
    expect(await jobs()).toBe(n);
  });

  it('the job takes its file from the upload in the same process; a job with no file handed over (an applied preview) reads its row; the row holds the file as uploaded, uncompressed', async () => {
    const taken: { id: string; file: Buffer | null }[] = [];
    const take = uploadHandoff.take.bind(uploadHandoff);
    const spy = vi.spyOn(uploadHandoff, 'take').mockImplementation((id: string) => {
      const file = take(id);
      taken.push({ id, file });
      return file;
    });
    try {
      const file = await xlsx([
        { 管理番号: 'HND-1', メーカー: 'Dell' },
        { 管理番号: 'HND-2', メーカー: 'HP' },
      ]);
      const r = await upload(file, 'h.xlsx', '?dry_run=1');
      expect(r.body).toMatchObject({ created: 2, rejected: 0 });
      expect(taken.find((t) => t.id === r.body.job_id)?.file?.equals(file)).toBe(true);
      const [row] = await sql(`select file from import_job where id = ?`, [r.body.job_id]);
      expect(Buffer.from(row.file).equals(file)).toBe(true);
      const applied = await api(url, 'POST', `/computers/import/${r.body.job_id}/apply`, { token: devadmin });
      const applyId = applied.body.job_id;
      const done = (await api(url, 'GET', `/computers/import/${applyId}?wait=20000`, { token: devadmin })).body;
      expect(done).toMatchObject({ status: 'succeeded', created: 2 });
      expect(taken.filter((t) => t.id === applyId).map((t) => t.file)).toEqual([null]);
      expect(
        await sql(`select maker from computer where asset_number in ('HND-1', 'HND-2') order by asset_number`),
      ).toEqual([{ maker: 'Dell' }, { maker: 'HP' }]);
    } finally {
      spy.mockRestore();
    }
    expect(uploadHandoff.size).toEqual({ files: 0, bytes: 0 });
    // An .xlsx is compressed already: stored as it is, not run through pglz first.
    expect(
      await sql(`select attstorage from pg_attribute where attrelid = 'import_job'::regclass and attname = 'file'`),
    ).toEqual([{ attstorage: 'e' }]);
  });

  it('the preview names the fields an update empties (a blank cell on an existing computer clears it)', async () => {
    const e = await employee();
    const full = {
      管理番号: 'CLR-1',
      メーカー: 'Dell',
      型番: 'Latitude',
      使用者: e.name,
      拠点: '東京',
      導入日: '2024-04-10',
    };
    expect((await upload(await xlsx([full]), 'clr.xlsx')).body).toMatchObject({ created: 1, rejected: 0 });
    const r = await upload(
      await xlsx([{ 管理番号: 'CLR-1', メーカー: 'Dell', 型番: 'Latitude 7450' }]),
      'clr.xlsx',
      '?dry_run=1',
    );
    expect(r.body).toMatchObject({ updated: 1, rejected: 0 });
    const q = `query($id: ID!) { importJob(id: $id) { preview { row action changed cleared } } }`;
    const job = (await gql(url, q, { id: r.body.job_id }, { token: devadmin })).body.data.importJob;
    // 前使用者 is not emptied: it becomes the user the computer had.
    expect(job.preview).toEqual([
      {
        row: 2,
        action: 'UPDATE',
        changed: ['型番', '使用者', '前使用者', '拠点', '導入日'],
        cleared: ['使用者', '拠点', '導入日'],
      },
    ]);
    const rest = (await api(url, 'GET', `/computers/import/${r.body.job_id}`, { token: devadmin })).body;
    expect(rest.preview).toEqual([
      expect.objectContaining({
        action: 'update',
        changed: job.preview[0].changed,
        cleared: ['使用者', '拠点', '導入日'],
      }),
    ]);
    // Unchanged and new rows clear nothing.
    const same = await upload(await xlsx([full, { 管理番号: 'CLR-2', メーカー: 'HP' }]), 'clr.xlsx', '?dry_run=1');
    const rows = (await gql(url, q, { id: same.body.job_id }, { token: devadmin })).body.data.importJob.preview;
    expect(rows).toEqual([
      { row: 2, action: 'UNCHANGED', changed: [], cleared: [] },
      { row: 3, action: 'CREATE', changed: [], cleared: [] },
    ]);
  });

  it('wait=0 answers 202 with the job id; only the creator and 管理者/システム管理者 may read it', async () => {
    const r = await upload(await xlsx([{ 管理番号: 'W-1', メーカー: 'Dell' }]), 'w.xlsx', '?wait=0&dry_run=1');
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({
      job_id: expect.any(String),
      status: expect.stringMatching(/queued|running|succeeded/),
    });
    const other = await loginToken(url, 'devadmin'); // same user, new session: may read
    expect((await api(url, 'GET', `/computers/import/${r.body.job_id}`, { token: other })).status).toBe(200);
    expect((await api(url, 'GET', `/computers/import/${r.body.job_id}`, { token: admin })).status).toBe(200);
    expect((await api(url, 'GET', `/computers/import/${r.body.job_id}`, { token: sysadmin })).status).toBe(200);
    // ?wait=ms long-polls: the answer is the finished job; a bad wait is a 400 naming it.
    const done = await api(url, 'GET', `/computers/import/${r.body.job_id}?wait=20000`, { token: devadmin });
    expect(done).toMatchObject({
      status: 200,
      body: { job_id: r.body.job_id, status: 'succeeded', processed_rows: 1 },
    });
    for (const bad of ['-1', 'abc', '600001', '1.5']) {
      expect(
        await api(url, 'GET', `/computers/import/${r.body.job_id}?wait=${bad}`, { token: devadmin }),
      ).toMatchObject({
        status: 400,
        body: { code: 'BAD_USER_INPUT', error: 'wait はミリ秒（0〜600000の整数）で指定してください。' },
      });
    }
    // Who may ask comes first: signed out is a 401, 一般 a 403, whatever the wait says.
    expect((await api(url, 'GET', `/computers/import/${r.body.job_id}?wait=abc`)).status).toBe(401);
    expect((await api(url, 'GET', `/computers/import/${r.body.job_id}?wait=abc`, { token: staff })).status).toBe(403);
  });
});

describe('computers import: hostile files and roles', () => {
  const counts = () => sql(`select count(*)::int as n from computer`);

  it('refuses oversize, renamed text, wrong extension, zip bombs; formulas come in as cached values', async () => {
    const before = await counts();
    const big = await upload(Buffer.alloc(3 * 1024 * 1024, 1), 'big.xlsx');
    expect(big).toMatchObject({
      status: 413,
      body: { code: 'IMPORT_TOO_LARGE', error: expect.stringContaining('大きすぎます') },
    });
    expect((await upload(Buffer.from('maker,model\nDell,X\n'), 'text.xlsx')).body).toMatchObject({
      code: 'IMPORT_NOT_SPREADSHEET',
    });
    expect((await upload(Buffer.from('maker,model\nDell,X\n'), 'text.xls')).body).toMatchObject({
      code: 'IMPORT_NOT_SPREADSHEET',
    });
    expect((await upload(await xlsx([]), 'x.csv')).body).toMatchObject({ code: 'IMPORT_UNSUPPORTED_TYPE' });
    expect((await upload(await xlsx([]), 'x.xls')).body).toMatchObject({ code: 'IMPORT_NOT_SPREADSHEET' }); // zip named .xls
    expect((await upload(zipBomb(), 'bomb.xlsx')).body).toMatchObject({ code: 'IMPORT_ZIP_BOMB' });
    const lying = await upload(zipBomb(true), 'liar.xlsx');
    expect(lying).toMatchObject({
      status: 400,
      body: { code: 'IMPORT_FAILED', error: expect.stringContaining('展開後のサイズ') },
    });
    // A readable workbook whose sheet declares its rows and lies about its size: the sheet is
    // inflated once, by the reader, which stops at the budget and says why.
    const liarBook = await upload(readableBomb(), 'liar-book.xlsx');
    expect(liarBook).toMatchObject({
      status: 400,
      body: { code: 'IMPORT_FAILED', error: expect.stringContaining('展開後のサイズ') },
    });
    expect(await counts()).toEqual(before);
  });

  it('the row limit counts the sheet that is read: a long hidden tab before it does not fail the job', async () => {
    // Written as our exports are (streaming: no <dimension>), so the job counts the visible sheet's rows exactly.
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false });
    const hidden = wb.addWorksheet('一覧表', { state: 'hidden' });
    for (let i = 0; i < 400; i++) hidden.addRow([`lookup-${i}`]).commit();
    hidden.commit();
    const ws = wb.addWorksheet('パソコン');
    ws.addRow(['管理番号', 'メーカー']).commit();
    ws.addRow(['TAB-1', 'Dell']).commit();
    ws.addRow(['TAB-2', 'HP']).commit();
    ws.commit();
    await wb.commit();
    const r = await upload(Buffer.concat(chunks), 'tabs.xlsx', '?dry_run=1');
    expect(r).toMatchObject({ status: 200, body: { created: 2, rejected: 0 } });
  });

  it('more rows than IMPORT_MAX_ROWS fails the job and writes nothing', async () => {
    const before = await snapshot();
    const rows = Array.from({ length: 301 }, (_, i) => ({ 管理番号: `MANY-${i}`, メーカー: 'Dell' }));
    const r = await upload(await xlsx(rows), 'many.xlsx');
    expect(r).toMatchObject({
      status: 400,
      body: { code: 'IMPORT_FAILED', error: expect.stringContaining('行数が多すぎます') },
    });
    const x = await upload(xls(rows), 'many.xls');
    expect(x.body.error).toContain('行数が多すぎます');
    expect(await snapshot()).toEqual(before);
  });

  it('a job that fails half-way leaves the database as it was', async () => {
    await sql(
      `create function boom() returns trigger language plpgsql as $$ begin if new.maker = 'BOOM' then raise exception 'boom'; end if; return new; end $$`,
    );
    await sql(`create trigger boom before insert or update on computer for each row execute function boom()`);
    try {
      const before = await snapshot();
      const history = await sql(`select count(*)::int as n from device_history`);
      const rows = [
        { 管理番号: 'IMP-0001', メーカー: 'Changed' },
        ...Array.from({ length: 200 }, (_, i) => ({ 管理番号: `FAIL-${i}`, メーカー: 'Dell' })),
        { 管理番号: 'FAIL-X', メーカー: 'BOOM' },
      ];
      const r = await upload(await xlsx(rows), 'fail.xlsx');
      expect(r).toMatchObject({
        status: 400,
        body: { code: 'IMPORT_FAILED', error: expect.stringContaining('保存されていません') },
      });
      expect(await snapshot()).toEqual(before);
      expect(await sql(`select count(*)::int as n from device_history`)).toEqual(history);
    } finally {
      await sql(`drop trigger boom on computer; drop function boom();`);
    }
  });

  it("a computer stored by someone else under one of the file's new 管理番号 while the job runs fails the job, saying why, and nothing of it is saved", async () => {
    const load = ImportPlanner.prototype.loadStoredKeys;
    // Right after the job has read the stored 管理番号, another user saves RACE-0002 (committed).
    const spy = vi.spyOn(ImportPlanner.prototype, 'loadStoredKeys').mockImplementationOnce(async function (
      this: ImportPlanner,
      em,
    ) {
      await load.call(this, em);
      await sql(`insert into computer (maker, asset_number) values ('Other', 'RACE-0002')`);
    });
    try {
      const before = await snapshot();
      const rows = [
        { 管理番号: 'RACE-0001', メーカー: 'Dell' },
        { 管理番号: 'RACE-0002', メーカー: 'HP' },
        { 管理番号: 'RACE-0003', メーカー: 'NEC' },
      ];
      const r = await upload(await xlsx(rows), 'race.xlsx');
      expect(r).toMatchObject({ status: 400, body: { code: 'IMPORT_FAILED', error: ASSET_NUMBER_TAKEN } });
      expect(spy).toHaveBeenCalled();
      expect(await sql(`select maker from computer where asset_number like 'RACE-%' order by asset_number`)).toEqual([
        { maker: 'Other' },
      ]);
      expect((await snapshot()).filter((c) => c.asset_number !== 'RACE-0002')).toEqual(before);
      // The same file again names a stored computer: it is looked up and updated.
      const again = await upload(await xlsx(rows), 'race.xlsx');
      expect(again.body).toMatchObject({ created: 2, updated: 1, rejected: 0 });
      expect(await sql(`select maker from computer where asset_number like 'RACE-%' order by asset_number`)).toEqual([
        { maker: 'Dell' },
        { maker: 'HP' },
        { maker: 'NEC' },
      ]);
    } finally {
      spy.mockRestore();
    }
  });

  it('a location deleted by someone else while the job runs fails the job, naming it, and nothing of it is saved: checked set-based, and row by row when computer has a trigger of its own', async () => {
    for (const rowByRow of [false, true]) {
      const [loc] = await sql(`insert into location (name) values (?) returning id`, [
        `消える拠点${rowByRow ? 'B' : 'A'}`,
      ]);
      const load = ImportPlanner.prototype.loadStoredKeys;
      // After the job has read the master data (the location resolves), another user deletes it.
      const spy = vi.spyOn(ImportPlanner.prototype, 'loadStoredKeys').mockImplementationOnce(async function (
        this: ImportPlanner,
        em,
      ) {
        await load.call(this, em);
        await sql(`delete from location where id = ?`, [loc.id]);
      });
      if (rowByRow)
        await sql(
          `create function noop() returns trigger language plpgsql as $$ begin return new; end $$; create trigger noop before insert on computer for each row execute function noop()`,
        );
      try {
        const before = await snapshot();
        const rows: Row[] = [
          { 管理番号: 'GONE-0001', メーカー: 'Dell' },
          { 管理番号: 'GONE-0002', メーカー: 'HP', 拠点: `消える拠点${rowByRow ? 'B' : 'A'}` },
        ];
        const r = await upload(await xlsx(rows), 'gone.xlsx');
        expect(spy).toHaveBeenCalled();
        expect(r).toMatchObject({
          status: 400,
          body: {
            code: 'IMPORT_FAILED',
            error: `取り込み中に、ファイルにある拠点（ID: ${loc.id}）が別の操作で削除されました。この取り込みによる変更は保存されていません。もう一度取り込んでください。`,
          },
        });
        expect(await snapshot()).toEqual(before);
      } finally {
        spy.mockRestore();
        if (rowByRow) await sql(`drop trigger noop on computer; drop function noop();`);
      }
    }
  });

  it('set-based reference checks: used when the role may and the tables have no triggers of their own; a locked referent cannot be deleted until the job ends; the role is back to origin after each write', async () => {
    const [job] = await sql(
      `insert into import_job (id, mode, file_name, format) values (gen_random_uuid(), 'apply', 'x.xlsx', 'xlsx') returning id`,
    );
    const [loc] = await sql(`insert into location (name) values ('ロック拠点') returning id`);
    const other = db.orm.em.fork();
    try {
      await db.orm.em
        .fork()
        .transactional(async (tx) => {
          const guard = await ReferenceGuard.open(tx, job.id, null);
          expect(guard.setBased).toBe(true);
          const roles: string[] = [];
          const row = {
            locationId: loc.id,
            currentUserId: null,
            previousUserId: null,
            departmentId: null,
            officeAccountId: null,
          } as never;
          guard.name([row]);
          await guard.write(tx, async () =>
            roles.push((await tx.execute(`show session_replication_role`))[0].session_replication_role),
          );
          roles.push((await tx.execute(`show session_replication_role`))[0].session_replication_role);
          expect(roles).toEqual(['replica', 'origin']);
          // Another session cannot delete the locked location (it would wait for the job; here it gives up).
          await expect(
            other.transactional(async (o) => {
              await o.execute(`set local lock_timeout = '300ms'`);
              await o.execute(`delete from location where id = ?`, [loc.id]);
            }),
          ).rejects.toMatchObject({ code: '55P03' });
          throw new Error('rollback');
        })
        .catch((err: Error) => {
          if (err.message !== 'rollback') throw err;
        });
      await sql(
        `create function noop2() returns trigger language plpgsql as $$ begin return new; end $$; create trigger noop2 after insert on device_history for each row execute function noop2()`,
      );
      try {
        expect((await ReferenceGuard.open(db.orm.em.fork(), job.id, null)).setBased).toBe(false);
      } finally {
        await sql(`drop trigger noop2 on device_history; drop function noop2();`);
      }
    } finally {
      await sql(`delete from location where id = ?`, [loc.id]);
      await sql(`delete from import_job where id = ?`, [job.id]);
    }
  });

  it('一般 gets 403 / FORBIDDEN; device roles may import', async () => {
    const file = await xlsx([{ 管理番号: 'ROLE-1', メーカー: 'Dell' }]);
    const r = await upload(file, 'r.xlsx', '?dry_run=1', staff);
    expect(r).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
    for (const [m, p] of [
      ['GET', '/computers/import/template'],
      ['GET', '/computers/import/00000000-0000-4000-8000-000000000000'],
      ['POST', '/computers/import/00000000-0000-4000-8000-000000000000/apply'],
    ] as const) {
      expect((await api(url, m, p, { token: staff })).status, p).toBe(403);
    }
    const g = await gql(url, `{ importJob(id: "00000000-0000-4000-8000-000000000000") { id } }`, {}, { token: staff });
    expect(g.body.errors[0].extensions.code).toBe('FORBIDDEN');
    for (const token of [admin, sysadmin, devadmin])
      expect((await upload(file, 'r.xlsx', '?dry_run=1', token)).status).toBe(200);
  });

  it('the template has the export headers, an example row and the allowed values', async () => {
    const res = await fetch(`${url}/api/computers/import/template`, {
      headers: { authorization: `Bearer ${devadmin}` },
    });
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    expect((wb.worksheets[0].getRow(1).values as string[]).slice(1, 4)).toEqual(['ID', '管理番号', 'メーカー']);
    const help = wb.getWorksheet('説明')!;
    const text = JSON.stringify(help.getSheetValues());
    for (const v of ['東京', '正常', '処分済み']) expect(text).toContain(v);
    // Upsert semantics, said plainly: an existing computer takes every column from the file.
    expect(text).toContain(
      '既存のパソコンを更新する行では、すべての列の値をファイルの内容で置き換えます。空欄のセルはその項目を消去します',
    );
    // The template itself imports (its example row is valid).
    const r = await upload(
      Buffer.from(
        await (
          await fetch(`${url}/api/computers/import/template`, { headers: { authorization: `Bearer ${devadmin}` } })
        ).arrayBuffer(),
      ),
      't.xlsx',
      '?dry_run=1',
    );
    expect(r.body).toMatchObject({ created: 1, rejected: 0 });
  });
});

/** A zip whose sheet inflates to 50 MB (declared honestly, or declared as 10 bytes). */
/** A workbook that reads as one (workbook, relationships) whose sheet declares 2 rows and inflates past 10 MB while claiming 10 bytes. */
function readableBomb(): Buffer {
  const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const rels = (body: string) =>
    `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${body}</Relationships>`;
  const sheet = Buffer.concat([
    Buffer.from(
      `<worksheet xmlns="${NS}"><dimension ref="A1:A2"/><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>管理番号</t></is></c></row>`,
    ),
    Buffer.alloc(12 * 1024 * 1024, 0x20),
    Buffer.from('</sheetData></worksheet>'),
  ]);
  return zipParts([
    { name: '[Content_Types].xml', data: '<Types/>' },
    {
      name: '_rels/.rels',
      data: rels(`<Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/>`),
    },
    {
      name: 'xl/workbook.xml',
      data: `<workbook xmlns="${NS}" xmlns:r="${REL}"><sheets><sheet name="パソコン" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: rels(`<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>`),
    },
    { name: 'xl/worksheets/sheet1.xml', data: sheet, declaredSize: 10 },
  ]);
}

function zipBomb(lie = false): Buffer {
  const size = (400 * 1024 * 1024) / 8;
  return zipParts([
    { name: '[Content_Types].xml', data: '<Types/>' },
    { name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(size, 0x20), declaredSize: lie ? 10 : size },
  ]);
}

describe('computers: export, then import, is a no-op for every value the API accepts', () => {
  /** Pieces people and tools type: scripts, widths, emoji sequences, combining marks, invisible characters, spreadsheet look-alikes, line breaks. */
  const PIECES = [
    'a',
    'Z',
    '0',
    ' ',
    '　',
    '\t',
    '\n',
    '\r\n',
    '日本',
    'ｶﾀｶﾅ',
    '①',
    '髙',
    '𠮷',
    '😀',
    '👨‍👩‍👧',
    'é',
    'e\u0301',
    '\u200b',
    '\ufeff',
    '<',
    '>',
    '&',
    '"',
    "'",
    '=',
    '+',
    '-',
    '@',
    '=SUM(A1)',
    '\\',
    ',',
    ';',
    '%',
    '#',
    'TRUE',
    '0012',
    '1e5',
    '2024-01-01',
    'null',
    '\u00a0',
  ];
  const FIELDS = ['model', 'device_type', 'reason', 'ac_adapter', 'power_cable'];

  it('generated text in every text field survives .xlsx export and a dry-run re-import unchanged (seeded; a failure names its seed)', async () => {
    const seed = Number(process.env.ROUNDTRIP_SEED ?? Date.now() % 1_000_000);
    let state = seed;
    const random = (n: number) => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      return state % n;
    };
    const text = () => Array.from({ length: random(9) }, () => PIECES[random(PIECES.length)]).join('');
    const marker = `RT${seed}-`;
    let accepted = 0;
    for (let i = 0; i < 40; i++) {
      const body: Record<string, unknown> = {
        asset_number: `${marker}${i}`,
        maker: `${marker}${text()}`.slice(0, 100),
        status: '正常',
      };
      for (const f of FIELDS) body[f] = text();
      const r = await api(url, 'POST', '/computers', { token: devadmin, body });
      if (r.status === 201) accepted++;
      else expect([r.status, r.body.code], `seed ${seed}: ${JSON.stringify(body)}`).toEqual([400, 'BAD_USER_INPUT']);
    }
    expect(accepted, `seed ${seed}`).toBeGreaterThan(20);
    const exported = await fetch(`${url}/api/computers/export?maker=${encodeURIComponent(marker)}`, {
      headers: { authorization: `Bearer ${devadmin}` },
    });
    expect(exported.status).toBe(200);
    const before = await snapshot();
    const again = await upload(Buffer.from(await exported.arrayBuffer()), 'roundtrip.xlsx', '?dry_run=1');
    expect(again.body, `seed ${seed}: ${JSON.stringify(again.body.preview ?? again.body.errors)}`).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: accepted,
      rejected: 0,
    });
    expect(await snapshot()).toEqual(before);
  });
});
