import { DomUtils, parseDocument } from 'htmlparser2';
import type { ListItem, RichTextDocument } from './document.js';

/** The text of one inline HTML string, entities decoded, `<br>` as a line break. */
export function inlineToText(html: string): string {
  if (!/[<&]/.test(html)) return html;
  const dom = parseDocument(html.replace(/<br\s*\/?>/gi, '\n'), { decodeEntities: true });
  return DomUtils.textContent(dom);
}

/** Each text of a document in reading order: paragraphs, headers, list items (depth first), captions. */
function* texts(doc: RichTextDocument): Generator<string> {
  function* items(list: ListItem[]): Generator<string> {
    for (const item of list) {
      yield item.content;
      yield* items(item.items);
    }
  }
  for (const block of doc.blocks) {
    if (block.type === 'paragraph' || block.type === 'header') yield block.data.text;
    else if (block.type === 'list') yield* items(block.data.items);
    else if (block.data.caption) yield block.data.caption;
  }
}

/**
 * The document as plain text for search: one line per text, at most `maxLength` characters (cut at
 * a character boundary; the search index never needs the whole of an unusually long post).
 */
export function toPlainText(doc: RichTextDocument, maxLength = 100_000): string {
  let out = '';
  for (const html of texts(doc)) {
    const line = inlineToText(html).trim();
    if (!line) continue;
    out += (out ? '\n' : '') + line;
    if (out.length >= maxLength) break;
  }
  return truncate(out, maxLength, '');
}

/** A one-line summary for cards and notifications: whitespace collapsed, cut to `maxLength` with "…". */
export function excerpt(doc: RichTextDocument, maxLength = 200): string {
  const text = toPlainText(doc, maxLength * 4 + 16)
    .replace(/\s+/g, ' ')
    .trim();
  return truncate(text, maxLength, '…');
}

const graphemes = new Intl.Segmenter('ja', { granularity: 'grapheme' });

/** At most `max` user-perceived characters (an emoji or a voiced kana is never split), `ellipsis` appended when cut. */
export function truncate(text: string, max: number, ellipsis: string): string {
  if (text.length <= max) return text;
  const limit = Math.max(0, max - ellipsis.length);
  let end = 0;
  let count = 0;
  for (const { index, segment } of graphemes.segment(text)) {
    if (count === limit) {
      end = index;
      break;
    }
    count++;
    end = index + segment.length;
  }
  return text.slice(0, end).trimEnd() + ellipsis;
}
