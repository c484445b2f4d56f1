import * as XLSX from '@e965/xlsx';
import { zipBomb, type SheetFormat } from './import.sniff.js';
import { readFirstSheet, XlsxTooLarge } from './import.xlsx.js';

/** A cell that holds an Excel error value (#N/A, #DIV/0!, …), usually a formula's cached result. */
export class CellError {
  constructor(readonly code: string) {}
}

/** A cell as the import sees it: text, number, date, error value, or empty. Formulas arrive as their cached result. */
export type Cell = string | number | Date | CellError | null;

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

/** SheetJS's cell values (text, numbers, dates, booleans; formulas come as their cached result) → Cell. */
function cellOf(v: unknown): Cell {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || v instanceof Date || v instanceof CellError) return v;
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  return String(v);
}

/**
 * .xlsx: the first sheet (import.xlsx.ts), formulas never evaluated, in batches of a few hundred
 * rows as the sheet inflates. The limit counts the rows there are (a row with at least one cell),
 * not their numbers: a sheet of two rows, the second numbered 1,048,576, is two rows.
 */
async function* xlsxRows(buf: Buffer, maxRows: number, maxBytes: number): AsyncGenerator<SheetRow[]> {
  let count = 0;
  try {
    for await (const batch of readFirstSheet(buf, { maxBytes })) {
      for (const r of batch) if (r.cells.length) count++;
      if (count > maxRows + 1) throw tooManyRows(maxRows);
      yield batch;
    }
  } catch (err) {
    if (err instanceof ImportFailure) throw err;
    if (err instanceof XlsxTooLarge) throw new ImportFailure(zipBomb().message);
    throw unreadable();
  }
}

const XLS_BATCH = 500;
/** Rows SheetJS turns into arrays at a time (each as wide as the sheet's range, at most 256 columns in BIFF8). */
const XLS_WINDOW = 512;
/** BIFF's error value codes. */
const BIFF_ERRORS: Record<number, string> = { 0x00: '#NULL!', 0x07: '#DIV/0!', 0x0f: '#VALUE!', 0x17: '#REF!', 0x1d: '#NAME?', 0x24: '#NUM!', 0x2a: '#N/A' };

type DenseCell = { t?: string; v?: unknown; w?: string } | undefined;

/**
 * .xls (BIFF): SheetJS reads the first visible sheet's cached values (no formula evaluation). Only
 * the rows that hold a cell become rows (the range's blank rows are never made, and do not count
 * toward maxRows); a row's array ends at its last non-empty cell, gaps are null.
 */
async function* xlsRows(buf: Buffer, maxRows: number): AsyncGenerator<SheetRow[]> {
  let ws: XLSX.WorkSheet | undefined;
  try {
    const wb = XLSX.read(buf, { type: 'buffer', cellDates: true, cellFormula: false, cellHTML: false, cellText: false, cellStyles: false, dense: true });
    // The first tab a user sees, as for .xlsx (a hidden sheet before it is passed over).
    const visible = wb.SheetNames.find((_, i) => !wb.Workbook?.Sheets?.[i]?.Hidden) ?? wb.SheetNames[0];
    ws = wb.Sheets[visible];
  } catch {
    throw unreadable();
  }
  if (!ws?.['!ref']) return;
  const range = XLSX.utils.decode_range(ws['!ref']);
  const dense = (ws as { '!data'?: (DenseCell[] | undefined)[] })['!data'] ?? [];
  let count = 0;
  let batch: SheetRow[] = [];
  for (let from = range.s.r; from <= range.e.r; from += XLS_WINDOW) {
    const to = Math.min(range.e.r, from + XLS_WINDOW - 1);
    let any = false;
    for (let r = from; r <= to && !any; r++) any = !!dense[r]?.some((c) => c?.t !== undefined);
    if (!any) continue;
    let rows: unknown[][];
    try {
      // blankrows: one array per row of the window, in order (the window's r-th is row from + r).
      rows = XLSX.utils.sheet_to_json<unknown[]>(ws, { header: 1, raw: true, defval: null, blankrows: true, UTC: true, range: { s: { r: from, c: range.s.c }, e: { r: to, c: range.e.c } } });
    } catch {
      throw unreadable();
    }
    for (let i = 0; i < rows.length; i++) {
      const r = from + i;
      const cells = rows[i]!.map(cellOf);
      // sheet_to_json turns error values into blanks; put them back so the row is rejected, not cleared.
      const raw = dense[r];
      if (raw) {
        for (let c = range.s.c; c <= range.e.c && c < raw.length; c++) {
          const cell = raw[c];
          if (cell?.t === 'e') cells[c - range.s.c] = new CellError(cell.w ?? BIFF_ERRORS[cell.v as number] ?? '#VALUE!');
        }
      }
      let end = cells.length;
      while (end > 0 && cells[end - 1] === null) end--;
      if (end === 0) continue;
      cells.length = end;
      if (++count > maxRows + 1) throw tooManyRows(maxRows);
      batch.push({ row: r + 1, cells });
      if (batch.length >= XLS_BATCH) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length) yield batch;
}

/** What an .xlsx part may inflate to when the caller sets no budget of its own. */
const DEFAULT_MAX_BYTES = 512 * 1024 * 1024;

/**
 * Every row of the first sheet, header row included, in order, in batches (never empty). Throws
 * ImportFailure past maxRows data rows, or when the file cannot be read (or an .xlsx part inflates
 * past maxBytes).
 */
export function readSheet(buf: Buffer, format: SheetFormat, maxRows: number, maxBytes = DEFAULT_MAX_BYTES): AsyncGenerator<SheetRow[]> {
  return format === 'xlsx' ? xlsxRows(buf, maxRows, maxBytes) : xlsRows(buf, maxRows);
}
