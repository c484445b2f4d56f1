import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { CellError, type Cell, type SheetRow } from '../../lib/xlsx/cell.js';
import { ImportFailure, readSheet, xlsCellCount } from './import.sheet.js';
import { sheetOutline } from '../../lib/xlsx/outline.js';
import { zipEntries } from '../../lib/zip/central-directory.js';

/** A sheet of `n` data rows under a header: text, numbers, dates, blanks, a formula with its cached result. */
async function xlsx(n: number): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('パソコン');
  ws.addRow(['管理番号', 'メーカー', '使用者ID', '購入日', '備考']);
  for (let i = 1; i <= n; i++) {
    ws.addRow([
      `BN-${i}`,
      i % 3 ? 'Dell' : { richText: [{ text: 'H' }, { text: 'P' }] },
      i % 5 ? i : null,
      new Date(Date.UTC(2020, 0, 1 + (i % 400))),
      { formula: 'A1', result: `r${i}` },
    ]);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** The same kind of sheet from exceljs's streaming writer, which puts the worksheet before the shared strings. */
async function streamedXlsx(n: number): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: true, useStyles: true });
  const ws = wb.addWorksheet('パソコン');
  ws.columns = [{ key: 'a' }, { key: 'b' }, { key: 'c', style: { numFmt: 'yyyy-mm-dd' } }];
  ws.addRow(['管理番号', 'メーカー', '購入日']).commit();
  for (let i = 1; i <= n; i++)
    ws.addRow([`BN-${i}`, i % 2 ? 'Dell' : 'HP', new Date(Date.UTC(2021, 0, 1 + (i % 300)))]).commit();
  ws.commit();
  await wb.commit();
  return Buffer.concat(chunks);
}

async function all(gen: AsyncGenerator<SheetRow[]>): Promise<{ rows: SheetRow[]; batches: number }> {
  const rows: SheetRow[] = [];
  let batches = 0;
  for await (const b of gen) {
    expect(b.length).toBeGreaterThan(0);
    batches++;
    rows.push(...b);
  }
  return { rows, batches };
}

/** The same sheet read the plain way: exceljs's per-row iterator. */
async function perRow(buf: Buffer): Promise<{ row: number; cells: Cell[] }[]> {
  const out: { row: number; cells: Cell[] }[] = [];
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([buf]), {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  for await (const ws of reader) {
    for await (const r of ws)
      out.push({ row: r.number, cells: (r.values as unknown[]).slice(1).map((v) => v as Cell) });
    break;
  }
  return out;
}

describe('readSheet', () => {
  it('.xlsx: every row in order, in batches, the same rows as exceljs row by row', async () => {
    const buf = await xlsx(5000);
    const { rows, batches } = await all(readSheet(buf, 'xlsx', 10_000));
    expect(batches).toBeGreaterThan(1);
    const plain = await perRow(buf);
    expect(rows.map((r) => r.row)).toEqual(plain.map((r) => r.row));
    expect(rows[0].cells).toEqual(['管理番号', 'メーカー', '使用者ID', '購入日', '備考']);
    const third = rows.find((r) => r.row === 4)!; // data row 3
    expect(third.cells).toEqual(['BN-3', 'HP', 3, new Date(Date.UTC(2020, 0, 4)), 'r3']);
    expect(rows.find((r) => r.row === 6)!.cells[2]).toBeNull(); // data row 5: blank 使用者ID
    expect(rows.map((r) => r.row)).toEqual(Array.from({ length: 5001 }, (_, i) => i + 1));
  });

  it(".xlsx with the worksheet before the shared strings (as Excel and exceljs's streaming writer store it): same rows as exceljs", async () => {
    const buf = await streamedXlsx(3000);
    const names = zipEntries(buf, 100)!
      .sort((a, b) => a.localOffset - b.localOffset)
      .map((e) => e.name);
    expect(names.indexOf('xl/worksheets/sheet1.xml')).toBeLessThan(names.indexOf('xl/sharedStrings.xml'));
    const { rows } = await all(readSheet(buf, 'xlsx', 10_000));
    const plain = await perRow(buf);
    expect(rows).toEqual(plain);
    expect(rows).toHaveLength(3001);
    expect(rows[2].cells).toEqual(['BN-2', 'HP', new Date(Date.UTC(2021, 0, 3))]);
  });

  it('.xlsx past maxRows fails with the row limit, whichever batch crosses it', async () => {
    const buf = await xlsx(1500);
    await expect(all(readSheet(buf, 'xlsx', 1200))).rejects.toThrow(ImportFailure);
    await expect(all(readSheet(buf, 'xlsx', 1200))).rejects.toThrow(/行数が多すぎます/);
  });

  it('.xlsx: the row limit counts the rows there are, not their numbers: cells in row 1 and row 1,048,576 are two rows (the dimension only a hint)', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('パソコン');
    ws.getCell('A1').value = '管理番号';
    ws.getCell('B1048576').value = 'BN-1';
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    expect(await sheetOutline(buf, 1 << 26)).toEqual({ part: 'xl/worksheets/sheet1.xml', rows: 1048576 }); // the progress hint
    const { rows } = await all(readSheet(buf, 'xlsx', 10));
    expect(rows).toEqual([
      { row: 1, cells: ['管理番号'] },
      { row: 1048576, cells: [null, 'BN-1'] },
    ]);
    // Rows that exist still count: 12 of them, far apart, are past a limit of 10 data rows.
    for (let i = 1; i < 12; i++) ws.getCell(`A${i * 90_000}`).value = `BN-${i}`;
    await expect(all(readSheet(Buffer.from(await wb.xlsx.writeBuffer()), 'xlsx', 10))).rejects.toThrow(
      /行数が多すぎます/,
    );
  });

  it('.xls: likewise, A1 and IV65536 are two rows, and the 65,534 blank rows between them are never made', async () => {
    // A dense sheet (SheetJS writes a sparse one cell address by cell address over the whole range: 30 s).
    const data: XLSX.CellObject[][] = [];
    data[0] = [{ t: 's', v: '管理番号' }];
    data[65535] = [];
    data[65535][255] = { t: 'n', v: 7 };
    const ws = { '!ref': 'A1:IV65536', '!data': data } as XLSX.WorkSheet;
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'パソコン');
    const buf = XLSX.write(wb, { type: 'buffer', bookType: 'biff8' }) as Buffer;
    const { rows } = await all(readSheet(buf, 'xls', 10));
    expect(rows.map((r) => r.row)).toEqual([1, 65536]);
    expect(rows[0].cells).toEqual(['管理番号']);
    expect(rows[1].cells).toHaveLength(256);
    expect(rows[1].cells[255]).toBe(7);
    const many: XLSX.WorkSheet = { '!ref': 'A1:A60001' };
    for (let i = 0; i <= 12; i++) many[`A${i * 5000 + 1}`] = { t: 's', v: `BN-${i}` };
    const wb2 = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb2, many, 'パソコン');
    await expect(
      all(readSheet(XLSX.write(wb2, { type: 'buffer', bookType: 'biff8' }) as Buffer, 'xls', 10)),
    ).rejects.toThrow(/行数が多すぎます/);
  });

  it('.xls: a workbook of more cells than SheetJS can hold in bounded memory is refused before SheetJS reads it, with the advice to save it as .xlsx', async () => {
    const aoa = [
      ['管理番号', 'メーカー', '数', '可'],
      ...Array.from({ length: 99 }, (_, i) => [`BN-${i}`, 'Dell', i + 0.5, i % 2 === 0]),
    ];
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(aoa), 'パソコン');
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['x', 1]]), '別');
    const buf = XLSX.write(wb, { type: 'buffer', bookType: 'biff8' }) as Buffer;
    expect(xlsCellCount(buf, 1e9)).toBe(402); // every sheet's cells
    expect(xlsCellCount(Buffer.from('not a compound document'), 1e9)).toBeNull();
    await expect(all(readSheet(buf, 'xls', 1000, undefined, 401))).rejects.toThrow(/\.xlsx 形式で保存し直して/);
    expect((await all(readSheet(buf, 'xls', 1000, undefined, 402))).rows).toHaveLength(100);
  });

  it('.xls: every row in order, in batches', async () => {
    const aoa = [['管理番号', 'メーカー'], ...Array.from({ length: 1234 }, (_, i) => [`BN-${i + 1}`, 'Dell'])];
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(aoa), 'パソコン');
    const buf = XLSX.write(wb, { type: 'buffer', bookType: 'biff8' }) as Buffer;
    const { rows, batches } = await all(readSheet(buf, 'xls', 10_000));
    expect(batches).toBe(3);
    expect(rows.map((r) => r.row)).toEqual(aoa.map((_, i) => i + 1));
    expect(rows.map((r) => r.cells)).toEqual(aoa);
  });

  it('.xls: an error value stays an error value (SheetJS alone would read it as a blank)', async () => {
    const ws = XLSX.utils.aoa_to_sheet([
      ['管理番号', '購入日'],
      ['BN-1', null],
    ]);
    ws.B2 = { t: 'e', v: 0x2a, w: '#N/A' };
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'パソコン');
    const { rows } = await all(readSheet(XLSX.write(wb, { type: 'buffer', bookType: 'biff8' }) as Buffer, 'xls', 10));
    expect(rows[1].cells).toEqual(['BN-1', new CellError('#N/A')]);
  });

  it('.xls: a hidden first sheet is passed over, as in .xlsx', async () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['マスタ']]), 'マスタ');
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['管理番号'], ['BN-1']]), 'パソコン');
    wb.Workbook = { Sheets: [{ Hidden: 1 }, { Hidden: 0 }] };
    const { rows } = await all(readSheet(XLSX.write(wb, { type: 'buffer', bookType: 'biff8' }) as Buffer, 'xls', 10));
    expect(rows.map((r) => r.cells)).toEqual([['管理番号'], ['BN-1']]);
  });

  it('a broken file fails as unreadable', async () => {
    await expect(all(readSheet(Buffer.from('PK not a zip'), 'xlsx', 10))).rejects.toThrow(/読み込めませんでした/);
  });
});
