import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import * as XLSX from '@e965/xlsx';
import { centralDirectoryOffset, zipEntries, type SheetFormat } from './import.sniff.js';

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

const WORKSHEET = /^xl\/worksheets\/sheet\d+\.xml$/;

/**
 * The .xlsx's zip entries as exceljs's streaming reader should meet them: worksheets last (in their
 * own order), after the shared strings, styles and workbook they depend on. Writers (exceljs's
 * streaming writer among them) often put the sheet first; exceljs then copies the whole inflated
 * sheet XML to a temp file and reads it back once the shared strings have come. The entries are
 * the upload's own bytes (local header, data, descriptor), only reordered, central directory last
 * (the streaming reader reads local headers in sequence and stops at it). Null: leave the file as
 * it is (no usable directory, overlapping entries, nothing to move).
 */
export function worksheetsLast(buf: Buffer): Buffer[] | null {
  const entries = zipEntries(buf, 10_000);
  const cd = centralDirectoryOffset(buf);
  if (!entries?.length || cd === null || cd > buf.length) return null;
  const byOffset = [...entries].sort((a, b) => a.localOffset - b.localOffset);
  const parts: { name: string; bytes: Buffer }[] = [];
  for (let i = 0; i < byOffset.length; i++) {
    const start = byOffset[i].localOffset;
    const end = i + 1 < byOffset.length ? byOffset[i + 1].localOffset : cd;
    if (end <= start || end > cd || (i === 0 && start !== 0)) return null;
    parts.push({ name: byOffset[i].name, bytes: buf.subarray(start, end) });
  }
  const firstSheet = parts.findIndex((p) => WORKSHEET.test(p.name));
  if (firstSheet < 0 || parts.slice(firstSheet).every((p) => WORKSHEET.test(p.name))) return null; // already in order
  return [...parts.filter((p) => !WORKSHEET.test(p.name)), ...parts.filter((p) => WORKSHEET.test(p.name)), { name: '', bytes: buf.subarray(cd) }].map((p) => p.bytes);
}

/** What exceljs's WorksheetReader.parse() yields: the events of one chunk of sheet XML. */
type SheetEvents = AsyncIterable<{ eventType: string; value: unknown }[]>;

/**
 * .xlsx: exceljs's streaming reader, first worksheet only; formulas are never evaluated. Rows come
 * in batches, one per chunk of sheet XML exceljs parsed (a few hundred rows): `ws.parse()` is what
 * the worksheet's own row iterator loops over, minus a promise (and its async-hook work) per row.
 */
async function* xlsxRows(buf: Buffer, maxRows: number): AsyncGenerator<SheetRow[]> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(worksheetsLast(buf) ?? [buf]), {
    sharedStrings: 'cache',
    styles: 'cache', // needed to tell date cells from numbers
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  try {
    for await (const ws of reader) {
      for await (const events of (ws as unknown as { parse(): SheetEvents }).parse()) {
        const batch: SheetRow[] = [];
        for (const e of events) {
          if (e.eventType !== 'row') continue;
          const r = e.value as ExcelJS.Row;
          if (r.number > maxRows + 1) throw tooManyRows(maxRows);
          // One pass, one array: exceljs's values are 1-based (index 0 is always empty).
          const values = r.values as unknown[];
          const cells: Cell[] = new Array(Math.max(0, values.length - 1));
          for (let i = 1; i < values.length; i++) cells[i - 1] = fromExcelJs(values[i]);
          batch.push({ row: r.number, cells });
        }
        if (batch.length) yield batch;
      }
      return; // first sheet only
    }
  } catch (err) {
    if (err instanceof ImportFailure) throw err;
    throw unreadable();
  }
}

const XLS_BATCH = 500;

/** .xls (BIFF): SheetJS reads the cached values (no formula evaluation), at most maxRows + 2 rows. */
async function* xlsRows(buf: Buffer, maxRows: number): AsyncGenerator<SheetRow[]> {
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
  let batch: SheetRow[] = [];
  for (const [i, r] of rows.entries()) {
    const row = first + i + 1;
    if (row > maxRows + 1) throw tooManyRows(maxRows);
    batch.push({ row, cells: r.map((v) => (v === undefined ? null : fromExcelJs(v))) });
    if (batch.length >= XLS_BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/**
 * Every row of the first sheet, header row included, in order, in batches (never empty). Throws
 * ImportFailure past maxRows data rows.
 */
export function readSheet(buf: Buffer, format: SheetFormat, maxRows: number): AsyncGenerator<SheetRow[]> {
  return format === 'xlsx' ? xlsxRows(buf, maxRows) : xlsRows(buf, maxRows);
}
