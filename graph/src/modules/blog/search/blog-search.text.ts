import { badInput } from '../../../platform/errors.js';

/** The longest query accepted, in characters after normalization (a search phrase, not a document). */
export const MAX_QUERY_LENGTH = 50;

/**
 * The query as the index stores text (blog_search_norm in the migration: NFKC, lower case, each run
 * of whitespace one space, trimmed): ＡＩ finds ai, ｶｲｷﾞ finds カイギ. Katakana and hiragana stay
 * apart (かいぎ does not find カイギ), as most Japanese search boxes behave.
 */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** A checked, normalized query: refused with its Japanese message when empty or too long. */
export function checkQuery(raw: unknown): string {
  const q = typeof raw === 'string' ? normalizeText(raw) : '';
  if (!q) throw badInput('検索する言葉を入力してください。', [{ field: 'query', message: '必須' }]);
  if ([...q].length > MAX_QUERY_LENGTH) {
    throw badInput(`検索する言葉は${MAX_QUERY_LENGTH}文字以内にしてください。`, [{ field: 'query', message: `${MAX_QUERY_LENGTH}文字以内` }]);
  }
  return q;
}

/**
 * The index keys a match must have (blog_search_grams): its one character, or every distinct pair
 * of adjacent characters. Characters are code points, as PostgreSQL's substr counts them.
 */
export function queryGrams(q: string): string[] {
  const chars = [...q];
  if (chars.length === 1) return chars;
  const grams = new Set<string>();
  for (let i = 0; i + 1 < chars.length; i++) grams.add(chars[i]! + chars[i + 1]!);
  return [...grams];
}

/** A range of a snippet's text to mark, in UTF-16 code units (JavaScript string offsets). */
export interface MatchRange {
  start: number;
  length: number;
}

/**
 * `text` normalized piece by piece, each piece (a character with its combining marks, so ｶﾞ stays
 * one) mapped back to where it came from: matches found in the normalized text become ranges of
 * the text as written.
 */
function normalizedWithMap(text: string): { norm: string; from: number[]; to: number[] } {
  let norm = '';
  const from: number[] = [];
  const to: number[] = [];
  let lastSpace = true; // a leading space is trimmed, as normalizeText does
  for (const m of text.matchAll(/[\s\S][\u3099\u309a\uff9e\uff9f\p{M}]*/gu)) {
    let piece = m[0].normalize('NFKC').toLowerCase();
    if (/^\s+$/.test(piece)) {
      if (lastSpace) continue;
      piece = ' ';
      lastSpace = true;
    } else lastSpace = false;
    for (let i = 0; i < piece.length; i++) {
      from.push(m.index);
      to.push(m.index + m[0].length);
    }
    norm += piece;
  }
  return { norm, from, to };
}

/** Every non-overlapping occurrence of the normalized query `q` in `text`, as ranges of `text`. */
export function matchRanges(text: string, q: string): MatchRange[] {
  const { norm, from, to } = normalizedWithMap(text);
  const out: MatchRange[] = [];
  for (let at = norm.indexOf(q); at >= 0 && q.length > 0; at = norm.indexOf(q, at + q.length)) {
    const start = from[at]!;
    out.push({ start, length: to[at + q.length - 1]! - start });
  }
  return out;
}

/** A piece of a searched text around its first match, with the matches in it marked. */
export interface Snippet {
  text: string;
  highlights: MatchRange[];
}

/**
 * The whole text when it is short (a title), else a window of about `width` characters starting a
 * little before the first match, "…" where it was cut. No match (the index and this function
 * normalize a rare sequence differently): the start of the text, nothing marked.
 */
export function snippetOf(text: string, q: string, width = 120): Snippet {
  const flat = text.replace(/\s+/g, ' ').trim();
  const ranges = matchRanges(flat, q);
  if (flat.length <= width) return { text: flat, highlights: ranges };
  const first = ranges[0]?.start ?? 0;
  let start = Math.max(0, first - Math.floor(width / 4));
  if (start > 0 && /[\uDC00-\uDFFF]/.test(flat[start]!)) start--;
  let end = Math.min(flat.length, start + width);
  if (end < flat.length && /[\uDC00-\uDFFF]/.test(flat[end]!)) end++;
  const lead = start > 0 ? '…' : '';
  const body = flat.slice(start, end);
  const highlights = ranges.filter((r) => r.start >= start && r.start + r.length <= end).map((r) => ({ start: r.start - start + lead.length, length: r.length }));
  return { text: lead + body + (end < flat.length ? '…' : ''), highlights };
}
