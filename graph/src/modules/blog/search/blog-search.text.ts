import { badInput } from '../../../platform/errors.js';
import { normalizedWithMap, normalizeText, SPACE_RUN } from './blog-search.normalize.js';

/** The longest query accepted, in characters after normalization (a search phrase, not a document). */
export const MAX_QUERY_LENGTH = 50;
/** The most terms a query may have (each is looked up and checked on every candidate post). */
export const MAX_TERMS = 5;

/** Quotes that open or close a phrase, after NFKC (＂ is "). */
const QUOTE = /["“”]/;

/**
 * A query's terms, normalized as the index stores text (blog-search.normalize.ts: NFKC, lower case;
 * ＡＩ finds ai, ｶｲｷﾞ finds カイギ; katakana and hiragana stay apart, as most Japanese search boxes
 * behave). Words separated by spaces (half-width or full-width U+3000) are separate terms; "..." keeps
 * what it quotes as one term, spaces included (an unclosed quote runs to the end). Repeated terms
 * count once.
 */
export function queryTerms(normalized: string): string[] {
  const terms: string[] = [];
  let i = 0;
  const chars = [...normalized];
  while (i < chars.length) {
    const quoted = QUOTE.test(chars[i]!);
    if (quoted) i++;
    let term = '';
    while (i < chars.length && !QUOTE.test(chars[i]!) && (quoted || chars[i] !== ' ')) term += chars[i++];
    if (quoted)
      i++; // the closing quote
    else if (chars[i] === ' ') i++;
    term = term.trim();
    if (term && !terms.includes(term)) terms.push(term);
  }
  return terms;
}

/** A checked query's terms: refused with its Japanese message when empty, too long or of too many terms. */
export function checkQuery(raw: unknown): string[] {
  const q = typeof raw === 'string' ? normalizeText(raw) : '';
  const terms = queryTerms(q);
  if (!terms.length) throw badInput('検索する言葉を入力してください。', [{ field: 'query', message: '必須' }]);
  if ([...q].length > MAX_QUERY_LENGTH) {
    throw badInput(`検索する言葉は${MAX_QUERY_LENGTH}文字以内にしてください。`, [
      { field: 'query', message: `${MAX_QUERY_LENGTH}文字以内` },
    ]);
  }
  if (terms.length > MAX_TERMS) {
    throw badInput(`検索する言葉は${MAX_TERMS}つまでにしてください（スペースで区切った言葉の数）。`, [
      { field: 'query', message: `${MAX_TERMS}語まで` },
    ]);
  }
  return terms;
}

/**
 * The index keys looked up for a term (blog_search_grams): its one character, or pairs of adjacent
 * characters that together cover it without overlapping (the last pair overlaps when the length is
 * odd). A text with the term has them all; the substring match confirms. Every pair would narrow
 * little more at twice the posting lists read. Characters are code points, as PostgreSQL's substr
 * counts them.
 */
export function queryGrams(term: string): string[] {
  const chars = [...term];
  if (chars.length === 1) return chars;
  const grams = new Set<string>();
  for (let i = 0; i + 1 < chars.length; i += 2) grams.add(chars[i]! + chars[i + 1]!);
  if (chars.length % 2) grams.add(chars[chars.length - 2]! + chars[chars.length - 1]!);
  return [...grams];
}

/** A range of a snippet's text to mark, in UTF-16 code units (JavaScript string offsets). */
export interface MatchRange {
  start: number;
  length: number;
}

/**
 * Every occurrence of each term in `text`, as ranges of `text` as written, in order; overlapping or
 * touching ranges (会 and 会議, or two terms side by side) are one.
 */
export function matchRanges(text: string, terms: string[]): MatchRange[] {
  const { norm, from, to } = normalizedWithMap(text);
  const found: { start: number; end: number }[] = [];
  for (const t of terms) {
    if (!t) continue;
    for (let at = norm.indexOf(t); at >= 0; at = norm.indexOf(t, at + t.length))
      found.push({ start: from[at]!, end: to[at + t.length - 1]! });
  }
  found.sort((a, b) => a.start - b.start);
  const merged: { start: number; end: number }[] = [];
  for (const r of found) {
    const last = merged[merged.length - 1];
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else merged.push({ ...r });
  }
  return merged.map((r) => ({ start: r.start, length: r.end - r.start }));
}

/** A piece of a searched text around its first match, with the matches in it marked. */
export interface Snippet {
  text: string;
  highlights: MatchRange[];
}

/**
 * The whole text when it is short (a title), else a window of about `width` characters starting a
 * little before the first match of any term, "…" where it was cut; every term's matches in it marked.
 */
export function snippetOf(text: string, terms: string[], width = 120): Snippet {
  const flat = text.replace(SPACE_RUN, ' ').replace(/^ | $/g, '');
  const ranges = matchRanges(flat, terms);
  if (flat.length <= width) return { text: flat, highlights: ranges };
  const first = ranges[0]?.start ?? 0;
  let start = Math.max(0, first - Math.floor(width / 4));
  if (start > 0 && /[\uDC00-\uDFFF]/.test(flat[start]!)) start--;
  let end = Math.min(flat.length, Math.max(start + width, ranges[0] ? first + ranges[0].length : 0));
  if (end < flat.length && /[\uDC00-\uDFFF]/.test(flat[end]!)) end++;
  const lead = start > 0 ? '…' : '';
  const body = flat.slice(start, end);
  const highlights = ranges
    .filter((r) => r.start >= start && r.start + r.length <= end)
    .map((r) => ({ start: r.start - start + lead.length, length: r.length }));
  return { text: lead + body + (end < flat.length ? '…' : ''), highlights };
}
