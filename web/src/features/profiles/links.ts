export const profileListPath = (narrow: boolean) => (narrow ? '/profile_list/sp' : '/profile_list');

/** Whether a chip's text holds one of the searched words (the server's folding: NFKC, lower case). */
export function matches(text: string, words: readonly string[]): boolean {
  if (words.length === 0) return false;
  const folded = text.normalize('NFKC').toLowerCase();
  return words.some((w) => folded.includes(w.normalize('NFKC').toLowerCase()));
}
