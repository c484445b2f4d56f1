import { broken, tooLong } from './errors.js';
import type { XlsxReadStats } from './stats.js';

// A small XML tokenizer: enough for SpreadsheetML parts (elements, attributes, text, CDATA; comments,
// processing instructions and the doctype skipped; no entity definitions, so no entity expansion).

/** The longest tag, comment, processing instruction or CDATA section held while its end is awaited. */
const MAX_MARKUP = 64 * 1024;

export interface Handler {
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
export function attr(s: string, a: number, b: number, name: string): string | null {
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
export const unescapeX = (t: string) =>
  t.indexOf('_x') < 0 ? t : t.replace(ST_X, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));

/**
 * A part's text fed in pieces cut anywhere (inside a tag, a value, a character reference): complete
 * tokens go to the handler, the unfinished rest (at most MAX_MARKUP characters) waits for the next
 * piece. Counts its work in `stats`.
 */
export class XmlFeed {
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
export function elements(open: Handler['open'], close: (name: string) => boolean = () => false): Handler {
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
export const own = (t: string) => (t.length < 13 ? t : (' ' + t).slice(1));
