import { OL_TYPES, sanitizeRichHtml, type SanitizeOptions } from './allow-list.js';
import type { CounterType, ListBlock, ListItem, RichTextBlock, RichTextDocument } from './document.js';
import { inlineToText } from './plain-text.js';

const OL_TYPE: Record<CounterType, (typeof OL_TYPES)[number]> = {
  numeric: '1',
  'lower-alpha': 'a',
  'upper-alpha': 'A',
  'lower-roman': 'i',
  'upper-roman': 'I',
};

const attr = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function list(data: ListBlock['data'], items: ListItem[], top: boolean): string {
  const tag = data.style === 'ordered' ? 'ol' : 'ul';
  let attrs = '';
  if (top && tag === 'ol') {
    if (data.meta.start !== undefined && data.meta.start !== 1) attrs += ` start="${data.meta.start}"`;
    if (data.meta.counterType && data.meta.counterType !== 'numeric')
      attrs += ` type="${OL_TYPE[data.meta.counterType]}"`;
  }
  const lis = items
    .map((item) => `<li>${item.content}${item.items.length ? list(data, item.items, false) : ''}</li>`)
    .join('');
  return `<${tag}${attrs}>${lis}</${tag}>`;
}

function block(b: RichTextBlock): string {
  switch (b.type) {
    case 'paragraph':
      return `<p>${b.data.text}</p>`;
    case 'header':
      return `<h${b.data.level}>${b.data.text}</h${b.data.level}>`;
    case 'list':
      return list(b.data, b.data.items, true);
    case 'image': {
      const caption = b.data.caption ? `<figcaption>${b.data.caption}</figcaption>` : '';
      return `<figure><img src="${attr(b.data.file.url)}" alt="${attr(inlineToText(b.data.caption))}" loading="lazy" />${caption}</figure>`;
    }
  }
}

/**
 * The HTML of a document (the REST facade's `content`, the cards' body). The result is passed
 * through the allow-list sanitizer as a whole, so even a document that skipped parseDocument
 * cannot put markup outside the allow-list on a page.
 */
export function renderHtml(doc: RichTextDocument, options?: SanitizeOptions): string {
  return sanitizeRichHtml(doc.blocks.map(block).join(''), options);
}
