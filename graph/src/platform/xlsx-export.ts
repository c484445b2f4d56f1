import type { Response } from 'express';
import ExcelJS from 'exceljs';

export type CellValue = string | number | null | undefined;

export interface XlsxColumn<R> {
  header: string;
  width?: number;
  /** YYYY-MM-DD text becomes a real date cell (yyyy-mm-dd). */
  date?: boolean;
  value(r: R): CellValue;
}

/** A whole filtered list ready to stream: rows are read in batches while the file is written. */
export interface XlsxExport<R> {
  /** The Japanese file name (without extension); today's date is appended. */
  title: string;
  /** ASCII fallback name for old clients. */
  asciiTitle: string;
  columns: XlsxColumn<R>[];
  rows: AsyncIterable<R>;
}

/** RFC 6266 / RFC 5987: an ASCII `filename` and the UTF-8 `filename*`. */
export function contentDisposition(name: string, ascii: string): string {
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encoded}`;
}

/** The headers of an .xlsx download (status 200, RFC 5987 name, never cached, never sniffed). */
export function startXlsxDownload(res: Response, name: string, ascii: string): void {
  res.status(200);
  res.setHeader('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  res.setHeader('Content-Disposition', contentDisposition(name, ascii));
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
}

const today = () => new Date().toLocaleDateString('sv-SE', { timeZone: 'Asia/Tokyo' }).replaceAll('-', '');
const toDate = (v: CellValue) =>
  typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? new Date(`${v}T00:00:00Z`) : v;

/**
 * Streams an export as .xlsx (exceljs streaming writer): a bold Japanese header row, then every row.
 *
 * Text goes out exactly as stored, always as a string cell: exceljs writes a string value as an
 * inline string (`t="inlineStr"`), never as a formula, so text a spreadsheet would run as one
 * (= + - @, tab, carriage return) opens as text in Excel and LibreOffice, and the import reads back
 * what was exported (export → import changes nothing). The export before this put a quote in front
 * of such text, which the import then stored; the import drops that quote (import.rows.ts, unquote).
 */
export async function sendXlsx<R>(res: Response, x: XlsxExport<R>): Promise<void> {
  const stamp = today();
  startXlsxDownload(res, `${x.title}_${stamp}.xlsx`, `${x.asciiTitle}_${stamp}.xlsx`);
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: res, useStyles: true, useSharedStrings: false });
  const ws = wb.addWorksheet(x.title, { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = x.columns.map((c, i) => ({
    key: String(i),
    width: c.width ?? 14,
    style: c.date ? { numFmt: 'yyyy-mm-dd' } : {},
  }));
  const header = ws.addRow(x.columns.map((c) => c.header));
  header.font = { bold: true };
  header.commit();
  try {
    for await (const r of x.rows) {
      ws.addRow(x.columns.map((c) => (c.date ? toDate(c.value(r)) : c.value(r)) ?? null)).commit();
    }
    ws.commit();
    await wb.commit();
  } catch (err) {
    // The header is gone already: the only honest signal left is a broken download.
    res.destroy(err as Error);
  }
}
