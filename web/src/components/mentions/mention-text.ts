/** A person a text mentions (@氏名). */
export interface Mentioned {
  id: number;
  name: string;
}

/** What may come right before an @ that starts a mention: the start, a space, or Japanese punctuation and brackets. */
const BEFORE = /[\s\u3000(（「『【、。,.:：]/;
const MAX_QUERY = 30;

/**
 * The @-query the caret is in, from the text before the caret: what was typed after an @ that starts a
 * word (not the @ of a mail address), with where the @ is. Null when the caret is not in one.
 */
export function mentionQueryBefore(before: string): { query: string; at: number } | null {
  const at = before.lastIndexOf('@');
  if (at < 0) return null;
  const query = before.slice(at + 1);
  if (query.length > MAX_QUERY || /[\s\u3000@]/.test(query)) return null;
  if (at > 0 && !BEFORE.test(before[at - 1]!)) return null;
  return { query, at };
}

/** Of the people chosen while typing, those the text still writes out as @氏名 (each once). */
export function mentionsWritten(text: string, chosen: Mentioned[]): number[] {
  return [...new Set(chosen.filter((m) => text.includes(`@${m.name}`)).map((m) => m.id))];
}

/** A text cut into plain parts and mentions (each @氏名 of `mentions`, longest names first where two overlap). */
export function splitMentions(text: string, mentions: Mentioned[]): (string | Mentioned)[] {
  const named = [...mentions].sort((a, b) => b.name.length - a.name.length);
  const out: (string | Mentioned)[] = [];
  let plain = '';
  for (let i = 0; i < text.length;) {
    const m = text[i] === '@' ? named.find((n) => text.startsWith(n.name, i + 1)) : undefined;
    if (m) {
      if (plain) out.push(plain);
      plain = '';
      out.push(m);
      i += m.name.length + 1;
    } else plain += text[i++];
  }
  if (plain) out.push(plain);
  return out;
}
