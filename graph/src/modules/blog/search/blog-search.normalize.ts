/**
 * The one text normalization of search, in JavaScript exactly as the index's `blog_search_norm`
 * computes it in PostgreSQL (NFKC, lower case, each run of whitespace one space, trimmed): the query
 * is normalized by it, and snippets map matches found in its output back to the text as written.
 *
 * Why it is not `text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ')`: that differs from the
 * database where a highlight (or a hit) goes missing:
 * - PostgreSQL collapses whitespace after NFKC, and NFKC makes spaces out of non-space characters
 *   (゛ U+309B is " ゙", ¨ is " ̈"): collapsing before normalizing left two spaces where the index has one;
 * - its `\s` is not JavaScript's (U+FEFF is a space to JavaScript only);
 * - its lower() maps one code point to one (İ → i, Σ → σ anywhere), JavaScript's toLowerCase maps
 *   İ to "i̇" and a final Σ to ς;
 * - NFKC composes across characters (ｶﾞ → ガ, conjoining Hangul jamo ᄀ+ᅡ → 가), so a text is
 *   normalized in pieces that never compose with each other: a character with what follows it and
 *   composes (marks, ﾞ ﾟ, Hangul medial and final jamo).
 * `blog-search.normalize.test.ts` compares it with the database over every code point.
 */

/** PostgreSQL's `\s` (its regex under the database's C.UTF-8): the only whitespace blog_search_norm collapses. */
const PG_SPACE = '\\t\\n\\v\\f\\r \\u1680\\u2000-\\u2006\\u2008-\\u200a\\u2028\\u2029\\u205f\\u3000';
const IS_SPACE = new RegExp(`^[${PG_SPACE}]$`, 'u');
/** Whitespace runs of a text as written, as a snippet shows it: every space NFKC makes a space, never U+FEFF. */
export const SPACE_RUN = /[^\S\uFEFF]+/g;

/**
 * A character and whatever follows it and may compose with it under NFKC: marks, ﾞ ﾟ, Hangul medial
 * and final jamo, and the compatibility and half-width jamo NFKC turns into them (가ㄳ is 갃).
 */
const PIECE = /[\s\S][\p{M}\uff9e\uff9f\u1160-\u11ff\ud7b0-\ud7ff\u3131-\u318e\uffa0-\uffdc]*/gu;

/** PostgreSQL's lower() under C.UTF-8: one code point to one (towlower). */
function lowerCodePoints(s: string): string {
  let out = '';
  for (const c of s) {
    const l = c.toLowerCase();
    out += [...l].length === 1 ? l : c === '\u0130' ? 'i' : c;
  }
  return out;
}

/**
 * `text` normalized, and for each UTF-16 unit of the result the range of `text` it came from
 * (`from[i]` to `to[i]`): a match found in `norm` is the range from[start]..to[end - 1] as written.
 */
export function normalizedWithMap(text: string): { norm: string; from: number[]; to: number[] } {
  let norm = '';
  const from: number[] = [];
  const to: number[] = [];
  let pendingSpace: { from: number; to: number } | null = null;
  const emit = (s: string, a: number, b: number) => {
    for (let i = 0; i < s.length; i++) {
      from.push(a);
      to.push(b);
    }
    norm += s;
  };
  for (const m of text.matchAll(PIECE)) {
    const a = m.index;
    const b = a + m[0].length;
    for (const c of lowerCodePoints(m[0].normalize('NFKC'))) {
      if (IS_SPACE.test(c)) {
        // A run of spaces is one, and none at either end (the run is written when text follows it).
        if (norm.length > 0) pendingSpace = pendingSpace ? { from: pendingSpace.from, to: b } : { from: a, to: b };
        continue;
      }
      if (pendingSpace) emit(' ', pendingSpace.from, pendingSpace.to);
      pendingSpace = null;
      emit(c, a, b);
    }
  }
  return { norm, from, to };
}

/** The text as the index stores it (blog_search_norm): the query is normalized by this too. */
export function normalizeText(text: string): string {
  return normalizedWithMap(text).norm;
}
