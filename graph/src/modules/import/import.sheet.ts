import * as XLSX from '@e965/xlsx';
import { CellError, type Cell, type SheetRow } from '../../lib/xlsx/cell.js';
import { XlsxTooLarge } from '../../lib/xlsx/errors.js';
import { readFirstSheet } from '../../lib/xlsx/xlsx-reader.js';
import { zipBomb, type SheetFormat } from './import.sniff.js';

/** A job-level failure (the file as a whole cannot be imported), with a Japanese message. */
export class ImportFailure extends Error {
  override readonly name = 'ImportFailure';
}

export const tooManyRows = (max: number) =>
  new ImportFailure(`行数が多すぎます（上限 ${max.toLocaleString('ja-JP')} 行）。ファイルを分けて取り込んでください。`);
const unreadable = () =>
  new ImportFailure('ファイルを読み込めませんでした。壊れているか、Excel のファイルではありません。');

/** SheetJS's cell values (text, numbers, dates, booleans; formulas come as their cached result) → Cell. */
function cellOf(v: unknown): Cell {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || v instanceof Date || v instanceof CellError) return v;
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  return String(v);
}

/**
 * .xlsx: the first sheet (lib/xlsx), formulas never evaluated, in batches of a few hundred
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
const BIFF_ERRORS: Record<number, string> = {
  0x00: '#NULL!',
  0x07: '#DIV/0!',
  0x0f: '#VALUE!',
  0x17: '#REF!',
  0x1d: '#NAME?',
  0x24: '#NUM!',
  0x2a: '#N/A',
};

type DenseCell = { t?: string; v?: unknown; w?: string } | undefined;

/**
 * The most cells (all sheets together) an .xls may hold. SheetJS reads a BIFF workbook whole into
 * its own model, about 560 bytes a cell (a 4.8 MB file of 262,144 numbers: 146 MB of heap), and a
 * 20 MB upload can hold 3 million cells: read as it was, that is gigabytes. 200,000 cells keep it
 * near 110 MB; a bigger workbook is refused, with the advice to save it as .xlsx (read streaming).
 */
export const XLS_MAX_CELLS = 200_000;
export const xlsTooBig = (max: number) =>
  new ImportFailure(
    `Excel 97-2003（.xls）のファイルはセル ${max.toLocaleString('ja-JP')} 個までしか取り込めません。.xlsx 形式で保存し直して取り込んでください。`,
  );

/** BIFF8 cell records: NUMBER, RK, LABELSST, LABEL, FORMULA, BOOLERR (one cell each); MULRK holds several. */
const ONE_CELL = new Set([0x0203, 0x027e, 0x00fd, 0x0204, 0x0006, 0x0205]);
const MULRK = 0x00bd;

/**
 * The cells of a BIFF workbook stream (every sheet's), counted from its record headers without
 * reading the records; null when the file is not a compound document with a workbook stream
 * (SheetJS then says whether it can read it at all). Stops counting past `max`.
 */
export function xlsCellCount(buf: Buffer, max: number): number | null {
  let content: Uint8Array | undefined;
  try {
    const cfb = XLSX.CFB.read(buf, { type: 'buffer' });
    content = (XLSX.CFB.find(cfb, 'Workbook') ?? XLSX.CFB.find(cfb, 'Book'))?.content;
  } catch {
    return null;
  }
  if (!content) return null;
  const b = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  let cells = 0;
  for (let p = 0; p + 4 <= b.length && cells <= max;) {
    const type = b.readUInt16LE(p);
    const len = b.readUInt16LE(p + 2);
    if (ONE_CELL.has(type)) cells++;
    else if (type === MULRK && len >= 6) cells += Math.floor((len - 6) / 6);
    p += 4 + len;
  }
  return cells;
}

/**
 * .xls (BIFF): SheetJS reads the first visible sheet's cached values (no formula evaluation), from a
 * workbook of at most XLS_MAX_CELLS cells (SheetJS holds all of them at once). Only
 * the rows that hold a cell become rows (the range's blank rows are never made, and do not count
 * toward maxRows); a row's array ends at its last non-empty cell, gaps are null.
 */
async function* xlsRows(buf: Buffer, maxRows: number, maxCells: number): AsyncGenerator<SheetRow[]> {
  const cells = xlsCellCount(buf, maxCells);
  if (cells !== null && cells > maxCells) throw xlsTooBig(maxCells);
  let ws: XLSX.WorkSheet | undefined;
  try {
    const wb = XLSX.read(buf, {
      type: 'buffer',
      cellDates: true,
      cellFormula: false,
      cellHTML: false,
      cellText: false,
      cellStyles: false,
      dense: true,
    });
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
      rows = XLSX.utils.sheet_to_json<unknown[]>(ws, {
        header: 1,
        raw: true,
        defval: null,
        blankrows: true,
        UTC: true,
        range: { s: { r: from, c: range.s.c }, e: { r: to, c: range.e.c } },
      });
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
          if (cell?.t === 'e')
            cells[c - range.s.c] = new CellError(cell.w ?? BIFF_ERRORS[cell.v as number] ?? '#VALUE!');
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
 * ImportFailure past maxRows data rows, or when the file cannot be read (or the .xlsx parts inflate
 * past maxBytes, or an .xls holds more than xlsMaxCells cells).
 */
export function readSheet(
  buf: Buffer,
  format: SheetFormat,
  maxRows: number,
  maxBytes = DEFAULT_MAX_BYTES,
  xlsMaxCells = XLS_MAX_CELLS,
): AsyncGenerator<SheetRow[]> {
  return format === 'xlsx' ? xlsxRows(buf, maxRows, maxBytes) : xlsRows(buf, maxRows, xlsMaxCells);
}
