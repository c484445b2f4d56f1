import type { SheetRow } from './cell.js';
import { workbook } from './package.js';
import { SHARED_STRING_BYTES, sharedStrings } from './shared-strings.js';
import { SheetPieces, SheetReader } from './sheet-reader.js';
import type { XlsxReadStats } from './stats.js';
import { dateStyles } from './styles.js';
import { Zip } from './zip-part.js';

/**
 * The first worksheet of an .xlsx, read straight from the zip: the cells' values as the import
 * needs them, nothing else (no styles beyond "is this number a date", no formulas evaluated, no
 * workbook model). Why not exceljs's streaming reader (ARCHITECTURE.md names it): it builds a row
 * object, a cell object and a style model per cell and a sax event per tag, about 45 µs of CPU per
 * 17-column row on this machine, most of the import's own CPU; this reader does the same rows in a
 * fraction of that. It also reads what exceljs's reader gets wrong: rows and cells without an `r`
 * reference, inline strings of several runs, `t="d"` (ISO date) cells, date-formatted formula
 * results, the East Asian built-in date formats (ids 27–36, 50–58, which Japanese Excel uses),
 * the 1904 date system, and namespace prefixes (`<x:c>`). Phonetic guides (`<rPh>`, the furigana
 * Japanese Excel stores with typed text) are left out of the text, as Excel shows it.
 *
 * Every part it reads (workbook, relationships, styles, shared strings, the sheet) is inflated as a
 * stream and tokenized piece by piece: a window, never a whole part, in memory, and each character
 * scanned about once (text nobody reads is dropped at once, not carried to the next piece). What a
 * hostile file could make it hold is bounded: all parts together inflate to at most `maxBytes`,
 * counted on the bytes that actually come out (not on what the zip's headers declare); a tag,
 * comment or CDATA section holds at most MAX_MARKUP characters, a cell's text or a shared string
 * MAX_TEXT, a row MAX_ROW_COST, a batch of rows about BATCH_COST; the shared string table is stored
 * packed within `maxSharedStringBytes`; a column past XFD (Excel's last) is refused.
 */

export interface XlsxReadOptions {
  /** Most bytes the parts read may inflate to, all together (a zip bomb fails as too large). */
  maxBytes: number;
  /** The shared string table's budget (2 bytes a character, 6 an entry; default 32 MiB). */
  maxSharedStringBytes?: number;
  /** Filled in as the read goes (tests: the work done and the most held at once). */
  stats?: XlsxReadStats;
}

/**
 * Every row of the workbook's first visible sheet (the first tab a user sees), in file order, in
 * batches of the rows completed per inflated piece (smaller when a piece holds more than BATCH_COST;
 * none empty). Cells are 0-based; a row's array ends at its last non-empty cell, gaps are null
 * (a gap of more than SPARSE_GAP cells is a hole in the array: undefined, not null).
 * Throws XlsxUnreadable for anything that is not a readable .xlsx (XlsxTooLarge past a bound).
 */
export async function* readFirstSheet(buf: Buffer, opts: XlsxReadOptions): AsyncGenerator<SheetRow[]> {
  const zip = new Zip(buf, opts.maxBytes, opts.stats);
  const wb = await workbook(zip);
  const strings = await sharedStrings(zip, wb.sharedStrings, opts.maxSharedStringBytes ?? SHARED_STRING_BYTES);
  const sheet = new SheetPieces(
    new SheetReader(strings, await dateStyles(zip, wb.styles), wb.date1904),
    wb.sheet,
    zip.stats,
  );
  for await (const piece of zip.stream(wb.sheet)) {
    yield* sheet.feed(piece);
    if (sheet.done) return;
  }
  sheet.end();
}
