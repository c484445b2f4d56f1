import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import * as XLSX from '@e965/xlsx';
import type { SheetFormat } from './import.sniff.js';

/** A cell as the import sees it: text, number, date, or empty. Formulas arrive as their cached result. */
export type Cell = string | number | Date | null;

/** One sheet row: its 1-based row number in the file and its cells (0-based columns). */
export interface SheetRow {
  row: number;
  cells: Cell[];
}

/** A job-level failure (the file as a whole cannot be imported), with a Japanese message. */
export class ImportFailure extends Error {
  override readonly name = 'ImportFailure';
}

export const tooManyRows = (max: number) => new ImportFailure(`行数が多すぎます（上限 ${max.toLocaleString('ja-JP')} 行）。ファイルを分けて取り込んでください。`);
const unreadable = () => new ImportFailure('ファイルを読み込めませんでした。壊れているか、Excel のファイルではありません。');

/** exceljs cell values (rich text, hyperlinks, formulas with their cached result, errors) → Cell. */
function fromExcelJs(v: unknown): Cell {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || v instanceof Date) return v;
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (typeof v === 'object') {
    const o = v as { result?: unknown; formula?: unknown; sharedFormula?: unknown; richText?: { text: string }[]; text?: unknown; error?: unknown };
    if ('formula' in o || 'sharedFormula' in o) return o.result === undefined || (typeof o.result === 'object' && o.result !== null && 'error' in o.result) ? null : fromExcelJs(o.result);
    if (Array.isArray(o.richText)) return o.richText.map((t) => t.text).join('');
    if (typeof o.text === 'string') return o.text;
    if ('error' in o) return null;
  }
  return String(v);
}

/** .xlsx: exceljs's streaming reader, first worksheet only; formulas are never evaluated. */
async function* xlsxRows(buf: Buffer, maxRows: number): AsyncGenerator<SheetRow> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([buf]), {
    sharedStrings: 'cache',
    styles: 'cache', // needed to tell date cells from numbers
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  try {
    for await (const ws of reader) {
      for await (const r of ws) {
        if (r.number > maxRows + 1) throw tooManyRows(maxRows);
        // One pass, one array: exceljs's values are 1-based (index 0 is always empty).
        const values = r.values as unknown[];
        const cells: Cell[] = new Array(Math.max(0, values.length - 1));
        for (let i = 1; i < values.length; i++) cells[i - 1] = fromExcelJs(values[i]);
        yield { row: r.number, cells };
      }
      return; // first sheet only
    }
  } catch (err) {
    if (err instanceof ImportFailure) throw err;
    throw unreadable();
  }
}

/** .xls (BIFF): SheetJS reads the cached values (no formula evaluation), at most maxRows + 2 rows. */
async function* xlsRows(buf: Buffer, maxRows: number): AsyncGenerator<SheetRow> {
  let rows: unknown[][];
  let first = 0;
  try {
    const wb = XLSX.read(buf, { type: 'buffer', cellDates: true, cellFormula: false, cellHTML: false, cellText: false, cellStyles: false, sheetRows: maxRows + 2, dense: true });
    const ws = wb.Sheets[wb.SheetNames[0]];
    if (!ws) return;
    first = ws['!ref'] ? XLSX.utils.decode_range(ws['!ref']).s.r : 0;
    rows = XLSX.utils.sheet_to_json<unknown[]>(ws, { header: 1, raw: true, defval: null, blankrows: true, UTC: true });
  } catch {
    throw unreadable();
  }
  for (const [i, r] of rows.entries()) {
    const row = first + i + 1;
    if (row > maxRows + 1) throw tooManyRows(maxRows);
    yield { row, cells: r.map((v) => (v === undefined ? null : fromExcelJs(v))) };
  }
}

/** Every row of the first sheet, header row included, in order. Throws ImportFailure past maxRows data rows. */
export function readSheet(buf: Buffer, format: SheetFormat, maxRows: number): AsyncGenerator<SheetRow> {
  return format === 'xlsx' ? xlsxRows(buf, maxRows) : xlsRows(buf, maxRows);
}
