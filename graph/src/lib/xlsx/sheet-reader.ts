import { CellError, type Cell, type SheetRow } from './cell.js';
import { broken, tooLong, XlsxTooLarge } from './errors.js';
import { MAX_TEXT, SHARED_STRING_BYTES, StringTable } from './shared-strings.js';
import { newStats, type XlsxReadStats } from './stats.js';
import { attr, unescapeX, XmlFeed, xmlText, type Handler } from './xml.js';

/** Empty cells before a cell up to which a row's array holds nulls; past it, a hole. */
const SPARSE_GAP = 64;
/** Excel's last column (XFD), 0-based. */
const LAST_COLUMN = 16_383;
/** What one row may hold (8 bytes a cell slot, 2 a character of its text): about 16,384 cells of 32 characters. */
const MAX_ROW_COST = 8 * 1024 * 1024;
/** A batch of rows is handed on once it holds this much (cell slots, text, rows), even in the middle of a piece. */
export const BATCH_COST = 2 * 1024 * 1024;

const DAY_MS = 86_400_000;
/** An Excel serial day number as a Date (UTC), as exceljs converts it. */
const serialDate = (v: number, date1904: boolean) => new Date(Math.round((v - 25569 + (date1904 ? 1462 : 0)) * DAY_MS));

/** `t="d"` cells: ISO 8601 text; without a zone it is read as UTC, like the serial dates. */
function isoDate(text: string): Cell {
  const t = text.trim();
  const d = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(t) || !t.includes('T') ? t : `${t}Z`);
  return Number.isNaN(d.getTime()) ? t : d;
}

export class SheetReader implements Handler {
  wantsText = false;
  done = false;
  paused = false;
  rows: SheetRow[] = [];
  /** What `rows` holds (see BATCH_COST), and what the open row does (MAX_ROW_COST). */
  private batchCost = 0;
  private rowCost = 0;
  private inData = false;
  private rowNumber = 0;
  private cells: Cell[] | null = null;
  private col = 0;
  // The open cell.
  private cellCol = -1;
  private style = 0;
  private type: string | null = null;
  private value: string | null = null;
  private inline: string | null = null;
  private phonetic = 0;
  private capture: 'v' | 't' | null = null;

  constructor(
    private readonly strings: StringTable,
    private readonly dates: boolean[],
    private readonly date1904: boolean,
  ) {}

  /** The rows completed since the last take (a pause is over once they are taken). */
  take(): SheetRow[] {
    const rows = this.rows;
    this.rows = [];
    this.batchCost = 0;
    return rows;
  }

  open(name: string, s: string, a: number, b: number): void {
    if (this.cells !== null && this.cellCol >= 0) {
      if (name === 'v') {
        this.value = '';
        this.capture = 'v';
        this.wantsText = true;
      } else if (name === 'is') this.inline = '';
      else if (name === 'rPh') this.phonetic++;
      else if (name === 't' && this.inline !== null && this.phonetic === 0) {
        this.capture = 't';
        this.wantsText = true;
      }
      return;
    }
    if (name === 'c') {
      if (this.cells === null) return;
      this.cellAttributes(s, a, b);
      this.value = null;
      this.inline = null;
      this.phonetic = 0;
    } else if (name === 'row') {
      if (!this.inData) return;
      const r = attr(s, a, b, 'r');
      const n = r === null ? NaN : parseInt(r, 10);
      this.rowNumber = Number.isInteger(n) && n > this.rowNumber ? n : this.rowNumber + 1;
      this.cells = [];
      this.col = 0;
      this.rowCost = 64;
    } else if (name === 'sheetData') this.inData = true;
  }

  text(raw: string, cdata: boolean): void {
    const t = cdata ? raw : xmlText(raw);
    let length: number;
    if (this.capture === 'v') length = (this.value += t).length;
    else if (this.capture === 't') length = (this.inline += t).length;
    else return;
    if (length > MAX_TEXT) throw tooLong('a cell', MAX_TEXT);
    this.rowCost += t.length * 2;
  }

  close(name: string): void {
    if (this.cellCol >= 0) {
      if (name === 'v' || name === 't') {
        this.capture = null;
        this.wantsText = false;
      } else if (name === 'rPh') this.phonetic--;
      else if (name === 'c') {
        const cells = this.cells!;
        const v = this.cellValue();
        if (v !== null) {
          // A short gap is filled with nulls; a long one is left a hole (read as empty: undefined), so a
          // cell at XFD costs one slot, not 16,384 written one by one.
          const gap = this.cellCol - cells.length;
          this.rowCost += gap > SPARSE_GAP ? 32 : (gap + 1) * 8;
          if (this.rowCost > MAX_ROW_COST)
            throw new XlsxTooLarge(`not a readable .xlsx: row ${this.rowNumber} holds more than ${MAX_ROW_COST} bytes`);
          if (gap <= SPARSE_GAP) while (cells.length < this.cellCol) cells.push(null);
          cells[this.cellCol] = v;
        }
        this.col = this.cellCol + 1;
        this.cellCol = -1;
      }
      return;
    }
    if (name === 'row' && this.cells !== null) {
      this.rows.push({ row: this.rowNumber, cells: this.cells });
      this.cells = null;
      this.batchCost += this.rowCost;
      if (this.batchCost >= BATCH_COST) this.paused = true;
    } else if (name === 'sheetData') this.done = true;
  }

  /** `r` (its column; none: the next column), `s` and `t` of a `<c>`, in one pass over its attributes. */
  private cellAttributes(s: string, a: number, b: number): void {
    let col = -1;
    this.style = 0;
    this.type = null;
    let i = a;
    while (i < b) {
      const eq = s.indexOf('=', i);
      if (eq < 0 || eq >= b) break;
      let ne = eq;
      while (ne > i && s.charCodeAt(ne - 1) <= 0x20) ne--;
      let ns = ne - 1;
      while (ns > i && s.charCodeAt(ns - 1) > 0x20 && s.charCodeAt(ns - 1) !== 0x3a) ns--;
      let q = eq + 1;
      while (q < b && s.charCodeAt(q) <= 0x20) q++;
      const quote = s.charCodeAt(q);
      if (quote !== 0x22 && quote !== 0x27) break;
      const ve = s.indexOf(quote === 0x22 ? '"' : "'", q + 1);
      if (ve < 0 || ve > b) break;
      if (ne - ns === 1) {
        const k = s.charCodeAt(ns);
        if (k === 0x72 /* r */) {
          let n = 0;
          let j = q + 1;
          for (; j < ve; j++) {
            const ch = s.charCodeAt(j) | 0x20;
            if (ch < 0x61 || ch > 0x7a) break;
            n = n * 26 + (ch - 0x60);
          }
          if (j > q + 1) col = n - 1;
          if (col > LAST_COLUMN || j - q - 1 > 3)
            throw broken(`cell ${s.slice(q + 1, Math.min(ve, q + 12))} is past column XFD`);
        } else if (k === 0x73 /* s */) {
          let n = 0;
          for (let j = q + 1; j < ve; j++) n = n * 10 + (s.charCodeAt(j) - 0x30);
          this.style = n;
        } else if (k === 0x74 /* t */) {
          const len = ve - q - 1;
          const t0 = s.charCodeAt(q + 1);
          this.type =
            len === 1
              ? t0 === 0x73
                ? 's'
                : t0 === 0x6e
                  ? 'n'
                  : t0 === 0x62
                    ? 'b'
                    : t0 === 0x65
                      ? 'e'
                      : t0 === 0x64
                        ? 'd'
                        : s.slice(q + 1, ve)
              : s.slice(q + 1, ve);
        }
      }
      i = ve + 1;
    }
    this.cellCol = col >= 0 ? col : this.col;
    if (this.cellCol > LAST_COLUMN) throw broken(`row ${this.rowNumber} has cells past column XFD`);
  }

  private cellValue(): Cell {
    const v = this.value;
    switch (this.type) {
      case 's': {
        if (v === null) return null;
        return this.strings.get(parseInt(v, 10)) ?? null;
      }
      case 'inlineStr':
        return this.inline !== null ? unescapeX(this.inline) : v;
      case 'str':
        return v === null ? null : unescapeX(v);
      case 'b':
        return v === null || v.trim() === '' ? null : Number(v) !== 0 ? 'TRUE' : 'FALSE';
      case 'e':
        return new CellError(v === null || v.trim() === '' ? '#VALUE!' : v.trim());
      case 'd':
        return v === null ? null : isoDate(v);
      default: {
        if (v === null || v.trim() === '') return null;
        const n = Number(v);
        if (Number.isNaN(n)) return v.trim();
        return this.dates[this.style] ? serialDate(n, this.date1904) : n;
      }
    }
  }
}

/** Sheet XML in pieces cut anywhere (inside a tag, a value, a character reference): rows as they complete. */
export class SheetPieces {
  private readonly xml: XmlFeed;

  constructor(
    private readonly reader: SheetReader,
    part: string,
    stats: XlsxReadStats = newStats(),
  ) {
    this.xml = new XmlFeed(reader, part, stats);
  }

  get done(): boolean {
    return this.reader.done;
  }

  /** The batches of rows the piece completes (a piece of many wide rows gives several). */
  *feed(piece: string): Generator<SheetRow[]> {
    let paused = this.xml.feed(piece);
    for (;;) {
      const rows = this.reader.take();
      if (rows.length) yield rows;
      if (!paused) return;
      paused = this.xml.resume();
    }
  }

  end(): void {
    if (!this.reader.done) throw broken('the worksheet ends before its data does');
  }
}

/** Test hook: the rows of sheet XML fed in the given pieces (no shared strings, no date styles). */
export function sheetXmlRows(pieces: string[]): SheetRow[] {
  const sheet = new SheetPieces(new SheetReader(new StringTable(SHARED_STRING_BYTES), [], false), 'sheet');
  const rows: SheetRow[] = [];
  for (const p of pieces) {
    for (const b of sheet.feed(p)) rows.push(...b);
    if (sheet.done) break;
  }
  sheet.end();
  return rows;
}
