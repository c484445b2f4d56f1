/** The comment boxes' pure rules: where an emoji goes, and how an attachment is previewed (what Enter does: components/comments/enter-to-send.ts). */

/** `text` with `insert` put in place of the selection [start, end), and where the caret goes after it. */
export function insertAtCaret(
  text: string,
  start: number,
  end: number,
  insert: string,
): { text: string; caret: number } {
  const from = Math.max(0, Math.min(start, text.length));
  const to = Math.max(from, Math.min(end, text.length));
  return { text: text.slice(0, from) + insert + text.slice(to), caret: from + insert.length };
}

/** How the preview dialog shows an attachment: a picture inline, a PDF in a frame, anything else as a download link. */
export function previewKind(type: string): 'image' | 'pdf' | 'download' {
  if (/^image\/(png|jpeg|gif)$/.test(type)) return 'image';
  if (type === 'application/pdf') return 'pdf';
  return 'download';
}
