import { workbook } from './package.js';
import { peek, Zip } from './zip-part.js';

const DIMENSION = /<(?:[A-Za-z_][\w.-]*:)?dimension\b[^>]*?\sref\s*=\s*["']([^"']*)["']/;
const ROW_START = /<(?:[A-Za-z_][\w.-]*:)?row[\s>/]/g;
/** Rows the peek must hold for an estimate from the sheet's size. */
const ESTIMATE_FROM = 20;

/**
 * The first visible sheet's part, and how many rows (`<row>` elements, the header's included) it
 * has by its own account, read from its first bytes only: the last row its `<dimension ref>`
 * declares (what Excel, LibreOffice and SheetJS write before the rows: `A1:Q100001` → 100001), or,
 * without one (exceljs's streaming writer, which our exports use, writes none), an estimate: the
 * sheet's uncompressed size (as the zip declares it) over the bytes per row of the first rows.
 * `rows` is null when the first bytes hold too few rows to tell. Null when the workbook cannot be
 * read (the reader then says why). Not a count: for a progress bar, never for a limit.
 */
export async function sheetOutline(
  buf: Buffer,
  maxBytes: number,
): Promise<{ part: string; rows: number | null } | null> {
  let part: string;
  let zip: Zip;
  try {
    zip = new Zip(buf, maxBytes);
    part = (await workbook(zip)).sheet;
  } catch {
    return null;
  }
  const entry = zip.entry(part)!;
  const head = await peek(zip, part);
  if (head === null) return { part: entry.name, rows: null };
  const dataAt = head.search(/<(?:[A-Za-z_][\w.-]*:)?sheetData\b/);
  const dim = DIMENSION.exec(dataAt >= 0 ? head.slice(0, dataAt) : head);
  const last = dim ? /(\d+)$/.exec(dim[1]!.trim()) : null;
  if (last) return { part: entry.name, rows: Number(last[1]) };
  const starts = [...head.matchAll(ROW_START)].map((m) => m.index);
  if (starts.length < ESTIMATE_FROM) return { part: entry.name, rows: null };
  const before = Buffer.byteLength(head.slice(0, starts[0]));
  const perRow = Buffer.byteLength(head.slice(starts[0], starts[starts.length - 1])) / (starts.length - 1);
  return { part: entry.name, rows: Math.max(starts.length, Math.round((entry.uncompressedSize - before) / perRow)) };
}
