import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { idleReaderThreads, NO_DATA, parsedRows, parsedRowsInWorker, READER_OUT_OF_MEMORY } from './import.reader.js';
import type { ImportRefs } from './import.refs.js';
import type { ParsedRow } from './import.rows.js';
import { ImportFailure } from './import.sheet.js';

const refs: ImportRefs = {
  employees: new Map([[7, { id: 7, name: '山田 太郎', retired: false }]]),
  employeeByName: new Map([['山田 太郎', 7]]),
  locations: new Map([['本社', 1]]),
  departments: new Map([['総務部', 2]]),
  officeAccounts: new Map(),
  suspendedAccounts: new Set(),
};

async function sheet(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('パソコン');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const data = (n: number) => [
  [],
  ['管理番号', 'メーカー', '使用者ID', '拠点', '部署', '購入日'],
  ...Array.from({ length: n }, (_, i) => [`BN-${i + 1}`, 'Dell', i % 3 ? 7 : 99, i % 4 ? '本社' : '大阪', '総務部', new Date(Date.UTC(2021, 0, 1 + (i % 200)))]),
];

async function collect(gen: AsyncGenerator<ParsedRow[]>): Promise<{ rows: ParsedRow[]; batches: number }> {
  const rows: ParsedRow[] = [];
  let batches = 0;
  for await (const b of gen) {
    expect(b.length).toBeGreaterThan(0);
    batches++;
    rows.push(...b);
  }
  return { rows, batches };
}

describe('parsedRowsInWorker', () => {
  it('gives the same parsed rows as the in-thread reader, in order and in batches (blank rows and the header skipped)', async () => {
    const buf = await sheet(data(4000));
    const here = await collect(parsedRows(buf, 'xlsx', 10_000, refs));
    const there = await collect(parsedRowsInWorker(buf, 'xlsx', 10_000, refs, { window: 1 }));
    expect(there.batches).toBeGreaterThan(1);
    expect(there.rows).toEqual(here.rows);
    expect(there.rows).toHaveLength(4000);
    expect(there.rows[0]).toMatchObject({ row: 3, assetNumber: 'BN-1', errors: [{ column: '拠点' }, { column: '使用者ID' }] });
    expect(there.rows[1]).toEqual({ row: 4, assetNumber: 'BN-2', id: null, values: expect.objectContaining({ currentUserId: 7, locationId: 1, departmentId: 2, purchaseDate: '2021-01-02' }), errors: [] });
  });

  it("brings the file's own failures back as ImportFailure (row limit, no header, unreadable)", async () => {
    await expect(collect(parsedRowsInWorker(await sheet(data(300)), 'xlsx', 100, refs))).rejects.toThrow(/行数が多すぎます/);
    const empty = collect(parsedRowsInWorker(await sheet([[], ['']]), 'xlsx', 100, refs));
    await expect(empty).rejects.toThrow(ImportFailure);
    await expect(collect(parsedRowsInWorker(await sheet([[], ['']]), 'xlsx', 100, refs))).rejects.toThrow(NO_DATA);
    await expect(collect(parsedRowsInWorker(Buffer.from('PK not a zip'), 'xlsx', 100, refs))).rejects.toThrow(/読み込めませんでした/);
  });

  it('keeps a reader thread for the next file; one whose consumer stopped early is ended', async () => {
    await collect(parsedRowsInWorker(await sheet(data(10)), 'xlsx', 100, refs));
    const [thread] = idleReaderThreads();
    expect(thread).toBeGreaterThan(0);
    await collect(parsedRowsInWorker(await sheet(data(20)), 'xlsx', 100, refs));
    expect(idleReaderThreads()).toEqual([thread]);
    const gen = parsedRowsInWorker(await sheet(data(3000)), 'xlsx', 10_000, refs, { window: 1 });
    expect(idleReaderThreads()).toEqual([thread]); // not taken until the first read
    expect((await gen.next()).done).toBe(false);
    expect(idleReaderThreads()).toEqual([]);
    await gen.return(undefined);
    expect(idleReaderThreads()).toEqual([]);
    expect((await collect(parsedRowsInWorker(await sheet(data(5)), 'xlsx', 100, refs))).rows).toHaveLength(5);
    expect(idleReaderThreads()).not.toContain(thread);
  });

  it('a consumer that stops early ends the thread (no hang, no leak)', async () => {
    const gen = parsedRowsInWorker(await sheet(data(3000)), 'xlsx', 10_000, refs, { window: 1 });
    const first = await gen.next();
    expect(first.done).toBe(false);
    await gen.return(undefined);
    expect((await gen.next()).done).toBe(true);
  });

  it('a file whose parse outgrows the thread heap fails its job, not the process', () => {
    // In a child process of its own (a worker running out of memory under vitest's fork takes the fork down).
    const script = fileURLToPath(new URL('../../test/import-reader-oom.ts', import.meta.url));
    const out = execFileSync(process.execPath, ['--import', '@swc-node/register/esm-register', script], { encoding: 'utf8', timeout: 60_000 });
    expect(out.trim().split('\n')).toEqual([READER_OUT_OF_MEMORY, 'then 2 rows', 'alive']);
  }, 90_000);
});
