/**
 * A mention in rich text is a link to a person's profile whose text starts with `@`:
 * `<a href="/profile/12">@山田 太郎</a>`. It is an ordinary link to the stored form (so other tools'
 * HTML can mention too); it opens in the app (no `target`), and the services read who is mentioned
 * from the rendered HTML.
 */
export const MENTION_HREF = /^\/profile\/([1-9]\d{0,9})$/;

// Over sanitized output only: attributes quoted by sanitize-html, href first.
const MENTION_LINK = /<a href="\/profile\/([1-9]\d{0,9})"[^>]*>(?:<(?:b|i|u|s)>)*@/g;

/** The people a rendered body mentions, each once, in order of first mention. */
export function mentionedIds(html: string): number[] {
  const ids = new Set<number>();
  for (const m of html.matchAll(MENTION_LINK)) ids.add(Number(m[1]));
  return [...ids];
}
