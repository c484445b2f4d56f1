/**
 * The comment boxes' pure rules: what an Enter does (never sending the Enter that confirms a Japanese
 * IME conversion), where an emoji goes, and how an attachment is previewed.
 */

/** The parts of a keydown that decide what Enter does. */
export interface EnterKey {
  key: string;
  shiftKey: boolean;
  /** KeyboardEvent.isComposing: true while an IME conversion is open (Chrome, Firefox, Edge). */
  isComposing: boolean;
  /** 229: the key went to the IME (Safari sends the confirming Enter so, after compositionend). */
  keyCode: number;
}

/**
 * What a keydown in a box that sends on Enter does: 'send' for a plain Enter; 'newline' for
 * Shift+Enter (the textarea's own line break); 'ignore' for every other key and for an Enter that
 * belongs to the IME — composing, keyCode 229, or arriving right after compositionend (`justComposed`:
 * Safari ends the composition before the confirming keydown, in the same turn of the event loop).
 */
export function enterAction(e: EnterKey, justComposed: boolean): 'send' | 'newline' | 'ignore' {
  if (e.key !== 'Enter') return 'ignore';
  if (e.isComposing || e.keyCode === 229 || justComposed) return 'ignore';
  return e.shiftKey ? 'newline' : 'send';
}

/** `text` with `insert` put in place of the selection [start, end), and where the caret goes after it. */
export function insertAtCaret(text: string, start: number, end: number, insert: string): { text: string; caret: number } {
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
