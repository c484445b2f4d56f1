import { StringDecoder } from 'node:string_decoder';
import { createInflateRaw } from 'node:zlib';
import { CellError, type Cell, type SheetRow } from '../../modules/import/import.sheet.js';
import { zipEntries, type ZipEntry } from '../../modules/import/import.sniff.js';

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
export class XlsxUnreadable extends Error {
  override readonly name = 'XlsxUnreadable';
}

/** A part inflates past the budget (a zip bomb, or a workbook too big to import). */
export class XlsxTooLarge extends XlsxUnreadable {}

const broken = (what: string) => new XlsxUnreadable(`not a readable .xlsx: ${what}`);
const tooLarge = (name: string, max: number) => new XlsxTooLarge(`not a readable .xlsx: ${name} inflates past ${max} bytes`);
const tooLong = (what: string, max: number) => new XlsxTooLarge(`not a readable .xlsx: ${what} longer than ${max} characters`);

/** Inflated part text per step: about 600 rows of a 17-column sheet. */
const PIECE = 256 * 1024;
/** The longest tag, comment, processing instruction or CDATA section held while its end is awaited. */
const MAX_MARKUP = 64 * 1024;
/** The longest cell text or shared string (Excel's own limit is 32,767 characters). */
const MAX_TEXT = 64 * 1024;
/** Empty cells before a cell up to which a row's array holds nulls; past it, a hole. */
const SPARSE_GAP = 64;
/** Excel's last column (XFD), 0-based. */
const LAST_COLUMN = 16_383;
/** What one row may hold (8 bytes a cell slot, 2 a character of its text): about 16,384 cells of 32 characters. */
const MAX_ROW_COST = 8 * 1024 * 1024;
/** A batch of rows is handed on once it holds this much (cell slots, text, rows), even in the middle of a piece. */
const BATCH_COST = 2 * 1024 * 1024;
/** The shared string table's default budget (2 bytes a character, 6 an entry): 1 million strings of 13 characters. */
const SHARED_STRING_BYTES = 32 * 1024 * 1024;

/** The bytes of one zip entry as stored (compressed or not). */
function stored(buf: Buffer, e: ZipEntry): Buffer {
  const p = e.localOffset;
  if (p + 30 > buf.length || buf.readUInt32LE(p) !== 0x04034b50) throw broken(`entry ${e.name}`);
  const start = p + 30 + buf.readUInt16LE(p + 26) + buf.readUInt16LE(p + 28);
  if (start + e.compressedSize > buf.length) throw broken(`entry ${e.name}`);
  return buf.subarray(start, start + e.compressedSize);
}

class Zip {
  private readonly entries = new Map<string, ZipEntry>();
  /** Bytes inflated so far, all parts together. */
  private inflated = 0;

  constructor(
    readonly buf: Buffer,
    /** Most bytes all the parts read may inflate to together, as they actually come out. */
    readonly maxBytes: number,
    readonly stats: XlsxReadStats = newStats(),
  ) {
    const list = zipEntries(buf, 10_000);
    if (!list) throw broken('no zip directory');
    // Part names are case-insensitive in OPC.
    for (const e of list) this.entries.set(e.name.toLowerCase(), e);
  }

  entry(name: string): ZipEntry | undefined {
    return this.entries.get(name.toLowerCase());
  }

  names(): string[] {
    return [...this.entries.values()].map((e) => e.name);
  }

  private count(name: string, n: number): void {
    this.inflated += n;
    this.stats.inflated = this.inflated;
    if (this.inflated > this.maxBytes) throw tooLarge(name, this.maxBytes);
  }

  /** A part's text in pieces as it inflates (a multi-byte character is never split; a BOM dropped). */
  async *stream(name: string): AsyncGenerator<string> {
    const e = this.entry(name);
    if (!e) throw broken(`missing ${name}`);
    const data = stored(this.buf, e);
    const decoder = new StringDecoder('utf8');
    let first = true;
    const text = (b: Buffer) => {
      const t = decoder.write(b);
      if (!first || !t) return t;
      first = false;
      return t.charCodeAt(0) === 0xfeff ? t.slice(1) : t;
    };
    if (e.method === 0) {
      for (let i = 0; i < data.length; i += PIECE) {
        const b = data.subarray(i, i + PIECE);
        this.count(name, b.length);
        yield text(b);
      }
    } else if (e.method === 8) {
      const z = createInflateRaw({ chunkSize: PIECE });
      z.end(data);
      try {
        for await (const chunk of z as AsyncIterable<Buffer>) {
          this.count(name, chunk.length);
          yield text(chunk);
        }
      } catch (err) {
        if (err instanceof XlsxUnreadable) throw err;
        throw broken(`cannot inflate ${name}`);
      } finally {
        z.destroy();
      }
    } else throw broken(`compression method ${e.method}`);
    const rest = decoder.end();
    if (rest) yield rest;
  }

  /** Runs a whole part through a handler, streaming (until the handler is done); false when the zip has no such part. */
  async parse(name: string, h: Handler): Promise<boolean> {
    if (!this.entry(name)) return false;
    const feed = new XmlFeed(h, name, this.stats);
    for await (const piece of this.stream(name)) {
      feed.feed(piece);
      if (h.done) return true;
    }
    feed.end();
    return true;
  }
}

/** The most text a peek at a part's start inflates. */
const PEEK_OUT = 256 * 1024;

/** The start of a part as text (at most PEEK_OUT bytes: inflation stops there), or null when it cannot be read. */
async function peek(zip: Zip, name: string): Promise<string | null> {
  const e = zip.entry(name);
  if (!e) return null;
  const data = stored(zip.buf, e);
  if (e.method === 0) return data.subarray(0, PEEK_OUT).toString('utf8');
  if (e.method !== 8) return null;
  const z = createInflateRaw({ chunkSize: 64 * 1024 });
  z.end(data);
  const out: Buffer[] = [];
  let n = 0;
  try {
    for await (const chunk of z as AsyncIterable<Buffer>) {
      out.push(chunk);
      n += chunk.length;
      if (n >= PEEK_OUT) break;
    }
  } catch {
    return null; // broken: the reader says so
  } finally {
    z.destroy();
  }
  return Buffer.concat(out).subarray(0, PEEK_OUT).toString('utf8');
}

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
export async function sheetOutline(buf: Buffer, maxBytes: number): Promise<{ part: string; rows: number | null } | null> {
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


// ---------------------------------------------------------------------------------------------
// A small XML tokenizer: enough for SpreadsheetML parts (elements, attributes, text, CDATA; comments,
// processing instructions and the doctype skipped; no entity definitions, so no entity expansion).

interface Handler {
  /** Element start; `a`..`b` is its attribute text. */
  open(name: string, s: string, a: number, b: number): void;
  close(name: string): void;
  /** Raw text between tags (entities not yet decoded), only asked for while `wantsText`. */
  text(raw: string, cdata: boolean): void;
  wantsText: boolean;
  done: boolean;
  /** Set to stop the tokenizer after the current token (the feed resumes where it stopped). */
  paused?: boolean;
}

/** Where a name's local part starts (after its prefix's colon, if any) within [from, to). */
function localStart(s: string, from: number, to: number): number {
  for (let i = to - 1; i >= from; i--) if (s.charCodeAt(i) === 0x3a) return i + 1;
  return from;
}
/**
 * An element's local name. The sheet's own names come back as the literal strings (no substring per
 * tag, and comparisons against them are pointer checks); others are sliced.
 */
function localName(s: string, from: number, to: number): string {
  const ls = localStart(s, from, to);
  const len = to - ls;
  const c = s.charCodeAt(ls);
  if (len === 1) {
    if (c === 0x63) return 'c';
    if (c === 0x76) return 'v';
    if (c === 0x74) return 't';
  } else if (len === 3) {
    if (c === 0x72 && s.charCodeAt(ls + 1) === 0x6f && s.charCodeAt(ls + 2) === 0x77) return 'row';
  } else if (len === 2) {
    if (c === 0x73 && s.charCodeAt(ls + 1) === 0x69) return 'si';
    if (c === 0x69 && s.charCodeAt(ls + 1) === 0x73) return 'is';
  }
  return s.slice(ls, to);
}

/** The index of the '>' that ends the tag from `i` on (quoted values skipped), or -1 if it is not in `s` yet. */
function tagEnd(s: string, i: number): number {
  const n = s.length;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x3e) return i;
    if (c === 0x22 || c === 0x27) {
      const e = s.indexOf(c === 0x22 ? '"' : "'", i + 1);
      if (e < 0) return -1;
      i = e;
    }
  }
  return -1;
}

/**
 * Where text that runs to the end of a piece may be cut: before a trailing `&` that may start an
 * entity the next piece ends (the longest, `&#x10FFFF;`, is 10 characters).
 */
function textCut(s: string, i: number, n: number): number {
  const amp = s.lastIndexOf('&', n - 1);
  return amp >= i && n - amp < 10 && s.indexOf(';', amp) < 0 ? amp : n;
}

/**
 * Feeds the complete tokens of `s` from `from` on to `h` (until it is done or paused); returns where
 * the unfinished rest starts (the caller prepends it to the next piece). Text that runs on into the
 * next piece is handed over now when the handler wants it (but for a possibly cut entity) and
 * dropped when not: only an unfinished tag, comment, PI or CDATA section is carried over.
 */
function tokenize(s: string, h: Handler, from = 0): number {
  let i = from;
  const n = s.length;
  while (i < n && !h.done && !h.paused) {
    const lt = s.indexOf('<', i);
    if (lt < 0) {
      if (!h.wantsText) return n;
      const cut = textCut(s, i, n);
      if (cut > i) h.text(s.slice(i, cut), false);
      return cut;
    }
    if (lt > i && h.wantsText) h.text(s.slice(i, lt), false);
    const c = s.charCodeAt(lt + 1);
    if (c === 0x21 /* ! */) {
      if (s.startsWith('<![CDATA[', lt)) {
        const end = s.indexOf(']]>', lt + 9);
        if (end < 0) return lt;
        if (h.wantsText) h.text(s.slice(lt + 9, end), true);
        i = end + 3;
      } else if (s.startsWith('<!--', lt)) {
        const end = s.indexOf('-->', lt + 4);
        if (end < 0) return lt;
        i = end + 3;
      } else {
        const end = tagEnd(s, lt + 2);
        if (end < 0) return lt;
        if (s.slice(lt, end).includes('[')) throw broken('internal DTD subsets are not accepted');
        i = end + 1;
      }
      continue;
    }
    if (c === 0x3f /* ? */) {
      const end = s.indexOf('?>', lt + 2);
      if (end < 0) return lt;
      i = end + 2;
      continue;
    }
    if (lt + 1 >= n) return lt;
    const end = tagEnd(s, lt + 1);
    if (end < 0) return lt;
    if (c === 0x2f /* / */) {
      let ne = end;
      while (ne > lt + 2 && s.charCodeAt(ne - 1) <= 0x20) ne--;
      h.close(localName(s, lt + 2, ne));
    } else {
      let ne = lt + 1;
      for (; ne < end; ne++) {
        const ch = s.charCodeAt(ne);
        if (ch <= 0x20 || ch === 0x2f) break;
      }
      const self = s.charCodeAt(end - 1) === 0x2f;
      const name = localName(s, lt + 1, ne);
      h.open(name, s, ne, self ? end - 1 : end);
      if (self) h.close(name);
    }
    i = end + 1;
  }
  return h.done ? n : i;
}

/** One attribute's value (by local name, so `r:id` is `id`), raw (entities not decoded), or null. */
function attr(s: string, a: number, b: number, name: string): string | null {
  let i = a;
  while (i < b) {
    while (i < b && s.charCodeAt(i) <= 0x20) i++;
    const eq = s.indexOf('=', i);
    if (eq < 0 || eq >= b) return null;
    let ne = eq;
    while (ne > i && s.charCodeAt(ne - 1) <= 0x20) ne--;
    let q = eq + 1;
    while (q < b && s.charCodeAt(q) <= 0x20) q++;
    const quote = s[q];
    if (quote !== '"' && quote !== "'") return null;
    const ve = s.indexOf(quote, q + 1);
    if (ve < 0 || ve > b) return null;
    const ls = localStart(s, i, ne);
    if (ne - ls === name.length && s.startsWith(name, ls)) return s.slice(q + 1, ve);
    i = ve + 1;
  }
  return null;
}

const ENTITY = /&(?:#x([0-9a-fA-F]+)|#([0-9]+)|(lt|gt|amp|quot|apos));/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const fromCode = (n: number) => (n >= 0 && n <= 0x10ffff ? String.fromCodePoint(n) : '');
/** XML character and predefined entities; anything else stays as written. */
export function xmlText(raw: string): string {
  if (raw.indexOf('&') < 0) return raw;
  return raw.replace(ENTITY, (_m, hex: string | undefined, dec: string | undefined, named: string | undefined) =>
    hex ? fromCode(parseInt(hex, 16)) : dec ? fromCode(parseInt(dec, 10)) : NAMED[named!],
  );
}

/** SpreadsheetML's own escape for characters XML cannot carry (`_x000D_` is a carriage return). */
const ST_X = /_x([0-9A-Fa-f]{4})_/g;
const unescapeX = (t: string) => (t.indexOf('_x') < 0 ? t : t.replace(ST_X, (_m, h: string) => String.fromCharCode(parseInt(h, 16))));

/**
 * A part's text fed in pieces cut anywhere (inside a tag, a value, a character reference): complete
 * tokens go to the handler, the unfinished rest (at most MAX_MARKUP characters) waits for the next
 * piece. Counts its work in `stats`.
 */
class XmlFeed {
  private carry = '';
  /** The text a pause stopped in, and where. */
  private pending = '';
  private at = 0;

  constructor(
    private readonly h: Handler,
    private readonly part: string,
    private readonly stats: XlsxReadStats,
  ) {}

  /** Tokenizes what was carried and `piece`; true when the handler paused (take what it holds, then resume()). */
  feed(piece: string): boolean {
    const s = this.carry ? this.carry + piece : piece;
    this.carry = '';
    return this.run(s, 0);
  }

  resume(): boolean {
    const s = this.pending;
    this.pending = '';
    this.h.paused = false;
    return this.run(s, this.at);
  }

  private run(s: string, from: number): boolean {
    const rest = tokenize(s, this.h, from);
    const st = this.stats;
    st.maxHeld = Math.max(st.maxHeld, s.length - from);
    if (this.h.paused && !this.h.done) {
      st.scanned += rest - from;
      this.pending = s;
      this.at = rest;
      return true;
    }
    st.scanned += s.length - from;
    if (this.h.done || rest >= s.length) return false;
    if (s.length - rest > MAX_MARKUP) throw tooLong(`markup in ${this.part}`, MAX_MARKUP);
    this.carry = s.slice(rest);
    st.maxCarry = Math.max(st.maxCarry, this.carry.length);
    return false;
  }

  end(): void {
    if (!this.h.done && this.carry.trim()) throw broken('unterminated markup');
  }
}

/** A handler of element starts (and ends: `close` returning true stops the scan), text ignored. */
function elements(open: Handler['open'], close: (name: string) => boolean = () => false): Handler {
  const h: Handler = {
    wantsText: false,
    done: false,
    open,
    close: (name) => void (h.done ||= close(name)),
    text() {},
  };
  return h;
}

/** A copy of a string that holds none of the piece it was cut from (which a slice would keep alive). */
const own = (t: string) => (t.length < 13 ? t : (' ' + t).slice(1));

// ---------------------------------------------------------------------------------------------
// Package structure: which part is the first sheet, the shared strings, the styles, date1904.

/**
 * Relationships of a part: id → target part name (resolved against the source part's folder), only
 * those `wanted` (by id or type: a part of millions of relationships holds no more than those).
 */
async function relationships(zip: Zip, source: string, wanted: (id: string, type: string) => boolean): Promise<Map<string, { type: string; target: string }>> {
  const slash = source.lastIndexOf('/');
  const dir = source.slice(0, slash + 1);
  const out = new Map<string, { type: string; target: string }>();
  await zip.parse(
    `${dir}_rels/${source.slice(slash + 1)}.rels`,
    elements((name, s, a, b) => {
      if (name !== 'Relationship') return;
      const id = attr(s, a, b, 'Id');
      const target = attr(s, a, b, 'Target');
      const type = attr(s, a, b, 'Type') ?? '';
      if (id === null || target === null || attr(s, a, b, 'TargetMode') === 'External' || out.has(id) || !wanted(id, type)) return;
      out.set(own(id), { type: own(type), target: resolvePart(dir, xmlText(target)) });
    }),
  );
  return out;
}

function resolvePart(dir: string, target: string): string {
  const parts = (target.startsWith('/') ? target.slice(1) : dir + target).split('/');
  const out: string[] = [];
  for (const p of parts) {
    if (p === '..') out.pop();
    else if (p !== '.' && p !== '') out.push(p);
  }
  return out.join('/');
}

const byType = (rels: Map<string, { type: string; target: string }>, suffix: string) => [...rels.values()].find((r) => r.type.endsWith(suffix))?.target ?? null;

interface Workbook {
  sheet: string;
  sharedStrings: string | null;
  styles: string | null;
  date1904: boolean;
}

const OFFICE_DOCUMENT = '/officeDocument';
const SHARED_STRINGS = '/sharedStrings';
const STYLES = '/styles';

async function workbook(zip: Zip): Promise<Workbook> {
  const root = await relationships(zip, '', (_id, type) => type.endsWith(OFFICE_DOCUMENT));
  const wbPart = byType(root, OFFICE_DOCUMENT) ?? 'xl/workbook.xml';
  // The first tab the user sees: a hidden sheet before it (lookup tables often are) is passed over.
  let firstSheetRel: string | null = null;
  let firstHiddenRel: string | null = null;
  let date1904 = false;
  const found = await zip.parse(
    wbPart,
    elements(
      (name, s, a, b) => {
        if (name === 'workbookPr') {
          const v = attr(s, a, b, 'date1904');
          date1904 = v === '1' || v === 'true';
        } else if (name === 'sheet' && firstSheetRel === null) {
          const state = attr(s, a, b, 'state');
          if (state === 'hidden' || state === 'veryHidden') firstHiddenRel ??= attr(s, a, b, 'id');
          else firstSheetRel = attr(s, a, b, 'id');
        }
      },
      (name) => name === 'sheets',
    ),
  );
  if (!found) throw broken('no workbook part');
  const seen = new Set<string>();
  const rels = await relationships(zip, wbPart, (id, type) => {
    if (id === firstSheetRel || id === firstHiddenRel) return true;
    // The first of each type only.
    const kind = type.endsWith(SHARED_STRINGS) ? SHARED_STRINGS : type.endsWith(STYLES) ? STYLES : null;
    if (kind === null || seen.has(kind)) return false;
    seen.add(kind);
    return true;
  });
  const fallback = zip
    .names()
    .filter((n) => /^xl\/worksheets\/sheet\d*\.xml$/i.test(n))
    .sort((x, y) => x.length - y.length || x.localeCompare(y))[0];
  const rel = firstSheetRel ?? firstHiddenRel;
  const sheet = (rel !== null ? rels.get(rel)?.target : undefined) ?? fallback;
  if (!sheet || !zip.entry(sheet)) throw broken('no worksheet');
  return {
    sheet,
    sharedStrings: byType(rels, SHARED_STRINGS) ?? (zip.entry('xl/sharedStrings.xml') ? 'xl/sharedStrings.xml' : null),
    styles: byType(rels, STYLES) ?? (zip.entry('xl/styles.xml') ? 'xl/styles.xml' : null),
    date1904,
  };
}

/**
 * The shared string table, packed: the strings' text joined into chunks of about CHUNK characters
 * (one string object per chunk, not per entry, and none of them holding an inflated piece alive)
 * and 6 bytes an entry for where each one is, in blocks of BLOCK entries (allocated as needed, never
 * copied). Within a byte budget: 2 bytes a character (what a string of non-Latin-1 text takes) and 6
 * an entry of the blocks allocated.
 */
export class StringTable {
  private static readonly CHUNK = 1 << 18;
  private static readonly BLOCK = 1 << 16;
  private readonly chunks: string[] = [];
  /** Where each chunk starts in the text of all entries. */
  private readonly chunkAt: number[] = [];
  private parts: string[] = [];
  private partsLength = 0;
  private total = 0;
  /** Entry i ends at ends[i] of the text of all entries (and starts where i - 1 ends), in chunk chunkOf[i]. */
  private readonly ends: Uint32Array[] = [];
  private readonly chunkOf: Uint16Array[] = [];
  private n = 0;

  constructor(private readonly maxBytes: number) {}

  get size(): number {
    return this.n;
  }

  push(t: string): void {
    const B = StringTable.BLOCK;
    const blocks = this.ends.length + (this.n % B === 0 ? 1 : 0);
    if ((this.total + t.length) * 2 + blocks * B * 6 > this.maxBytes) throw new XlsxTooLarge(`not a readable .xlsx: the shared strings take more than ${this.maxBytes} bytes`);
    if (this.n % B === 0) {
      this.ends.push(new Uint32Array(B));
      this.chunkOf.push(new Uint16Array(B));
    }
    if (this.partsLength + t.length > StringTable.CHUNK && this.partsLength > 0) this.seal();
    this.parts.push(t);
    this.partsLength += t.length;
    this.total += t.length;
    const b = this.n >>> 16;
    const k = this.n & (B - 1);
    this.ends[b]![k] = this.total;
    this.chunkOf[b]![k] = this.chunks.length;
    this.n++;
  }

  /** The entry's text (undefined past the end). */
  get(i: number): string | undefined {
    if (!(i >= 0 && i < this.n)) return undefined;
    const c = this.chunkOf[i >>> 16]![i & (StringTable.BLOCK - 1)]!;
    if (c === this.chunks.length) this.seal();
    const at = this.chunkAt[c]!;
    const start = i === 0 ? 0 : this.ends[(i - 1) >>> 16]![(i - 1) & (StringTable.BLOCK - 1)]!;
    return this.chunks[c]!.slice(start - at, this.ends[i >>> 16]![i & (StringTable.BLOCK - 1)]! - at);
  }

  private seal(): void {
    this.chunkAt.push(this.total - this.partsLength);
    // join copies: the chunk holds none of the pieces its parts were cut from.
    this.chunks.push(this.parts.length === 1 ? own(this.parts[0]!) : this.parts.join(''));
    this.parts = [];
    this.partsLength = 0;
  }
}

/** The shared string table: each `<si>`'s text (its runs joined; phonetic guides left out). */
async function sharedStrings(zip: Zip, part: string | null, maxBytes: number): Promise<StringTable> {
  const out = new StringTable(maxBytes);
  if (part === null) return out;
  let text = '';
  let phonetic = 0;
  const h: Handler = {
    wantsText: false,
    done: false,
    open(name) {
      if (name === 'si') text = '';
      else if (name === 'rPh') phonetic++;
      else if (name === 't' && phonetic === 0) this.wantsText = true;
    },
    close(name) {
      if (name === 't') this.wantsText = false;
      else if (name === 'rPh') phonetic--;
      else if (name === 'si') {
        out.push(unescapeX(text));
        text = '';
      }
    },
    text(raw, cdata) {
      text += cdata ? raw : xmlText(raw);
      if (text.length > MAX_TEXT) throw tooLong('a shared string', MAX_TEXT);
    },
  };
  await zip.parse(part, h);
  return out;
}

/** Built-in number formats that show dates or times (the East Asian ids as Japanese Excel reads them). */
const BUILTIN_DATE = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58]);

/** Whether a format code shows a date or time: y m d h s outside literals, colours/locales and escapes. */
export function isDateFormat(code: string): boolean {
  const bare = code.replace(/"[^"]*"|\[[^\]]*\]|\\.|[_*]./g, '');
  return /[ymdhs]/i.test(bare); // "General" has none of them
}

/** More cell formats than Excel allows (64,000) are refused; as many custom number formats. */
const MAX_FORMATS = 65_536;

/** For each cell style index (`s`): whether its number format is a date or time. */
async function dateStyles(zip: Zip, part: string | null): Promise<boolean[]> {
  if (part === null) return [];
  // Custom format id → whether it shows a date (the code itself is not kept).
  const custom = new Map<number, boolean>();
  const xfFormats: number[] = [];
  let inCellXfs = false;
  const tooMany = () => new XlsxTooLarge(`not a readable .xlsx: more than ${MAX_FORMATS} formats`);
  await zip.parse(
    part,
    elements(
      (name, s, a, b) => {
        if (name === 'numFmt') {
          const id = Number(attr(s, a, b, 'numFmtId'));
          const code = attr(s, a, b, 'formatCode');
          if (Number.isInteger(id) && code !== null) custom.set(id, isDateFormat(xmlText(code)));
          if (custom.size > MAX_FORMATS) throw tooMany();
        } else if (name === 'cellXfs') inCellXfs = true;
        else if (name === 'xf' && inCellXfs) {
          xfFormats.push(Number(attr(s, a, b, 'numFmtId') ?? 0));
          if (xfFormats.length > MAX_FORMATS) throw tooMany();
        }
      },
      (name) => name === 'cellXfs',
    ),
  );
  return xfFormats.map((id) => custom.get(id) ?? BUILTIN_DATE.has(id));
}

// ---------------------------------------------------------------------------------------------
// The sheet.

const DAY_MS = 86_400_000;
/** An Excel serial day number as a Date (UTC), as exceljs converts it. */
const serialDate = (v: number, date1904: boolean) => new Date(Math.round((v - 25569 + (date1904 ? 1462 : 0)) * DAY_MS));

/** `t="d"` cells: ISO 8601 text; without a zone it is read as UTC, like the serial dates. */
function isoDate(text: string): Cell {
  const t = text.trim();
  const d = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(t) || !t.includes('T') ? t : `${t}Z`);
  return Number.isNaN(d.getTime()) ? t : d;
}

class SheetReader implements Handler {
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
          if (this.rowCost > MAX_ROW_COST) throw new XlsxTooLarge(`not a readable .xlsx: row ${this.rowNumber} holds more than ${MAX_ROW_COST} bytes`);
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
          if (col > LAST_COLUMN || j - q - 1 > 3) throw broken(`cell ${s.slice(q + 1, Math.min(ve, q + 12))} is past column XFD`);
        } else if (k === 0x73 /* s */) {
          let n = 0;
          for (let j = q + 1; j < ve; j++) n = n * 10 + (s.charCodeAt(j) - 0x30);
          this.style = n;
        } else if (k === 0x74 /* t */) {
          const len = ve - q - 1;
          const t0 = s.charCodeAt(q + 1);
          this.type = len === 1 ? (t0 === 0x73 ? 's' : t0 === 0x6e ? 'n' : t0 === 0x62 ? 'b' : t0 === 0x65 ? 'e' : t0 === 0x64 ? 'd' : s.slice(q + 1, ve)) : s.slice(q + 1, ve);
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

export interface XlsxReadOptions {
  /** Most bytes the parts read may inflate to, all together (a zip bomb fails as too large). */
  maxBytes: number;
  /** The shared string table's budget (2 bytes a character, 6 an entry; default 32 MiB). */
  maxSharedStringBytes?: number;
  /** Filled in as the read goes (tests: the work done and the most held at once). */
  stats?: XlsxReadStats;
}

export interface XlsxReadStats {
  /** Bytes inflated, all parts together. */
  inflated: number;
  /** Characters of part text the tokenizer was handed (pieces, and what was carried over to them). */
  scanned: number;
  /** The most characters carried over from one piece to the next. */
  maxCarry: number;
  /** The most text of one part handed to the tokenizer at once. */
  maxHeld: number;
}
export const newStats = (): XlsxReadStats => ({ inflated: 0, scanned: 0, maxCarry: 0, maxHeld: 0 });

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
  const sheet = new SheetPieces(new SheetReader(strings, await dateStyles(zip, wb.styles), wb.date1904), wb.sheet, zip.stats);
  for await (const piece of zip.stream(wb.sheet)) {
    yield* sheet.feed(piece);
    if (sheet.done) return;
  }
  sheet.end();
}

/** Sheet XML in pieces cut anywhere (inside a tag, a value, a character reference): rows as they complete. */
class SheetPieces {
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
