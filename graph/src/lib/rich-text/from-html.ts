import { DomUtils, parseDocument as parseHtml } from 'htmlparser2';
import { OL_TYPES, sanitizeForConversion, type SanitizeOptions } from './allow-list.js';
import {
  COUNTER_TYPES,
  parseDocument,
  type CounterType,
  type ImageBlock,
  type ListItem,
  type RichTextBlock,
  type RichTextDocument,
} from './document.js';
import { RichTextError } from './errors.js';
import { RICH_TEXT_LIMITS, type RichTextLimits } from './limits.js';

type Node = ReturnType<typeof parseHtml>['children'][number];
type Element = Parameters<typeof DomUtils.getAttributeValue>[0];
type Text = Extract<Node, { type: 'text' }>;

// domutils 4 has no isTag/isText at run time (its types re-export domhandler's): guards of our own.
const isText = (n: Node): n is Text => n.type === 'text';
const isTag = (n: Node): n is Element => n.type === 'tag' || n.type === 'script' || n.type === 'style';

const MARKS = new Set(['b', 'i', 'u', 's', 'a']);
const BLOCKS = new Set(['p', 'div', 'h1', 'h2', 'h3', 'ul', 'ol', 'li', 'figure', 'figcaption', 'img']);
const COUNTER_OF_TYPE = Object.fromEntries(
  OL_TYPES.map((t, i) => [t, (['numeric', 'lower-alpha', 'upper-alpha', 'lower-roman', 'upper-roman'] as const)[i]]),
) as Record<string, CounterType>;

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string) => escapeText(s).replace(/"/g, '&quot;');
/** HTML whitespace (not U+3000 or U+00A0, which are text: Japanese indents with U+3000). */
const collapse = (s: string) => s.replace(/[ \t\n\r\f]+/g, ' ');
const trimEdges = (html: string) => html.replace(/^(?:[ \t\n\r\f]|<br>)+|(?:[ \t\n\r\f]|<br>)+$/g, '');

const hasBlock = (el: Element): boolean => el.children.some((c) => isTag(c) && (BLOCKS.has(c.name) || hasBlock(c)));

/** The inline HTML of marks and text; blocks met inside are flattened to lines, images left to the caller. */
function inline(node: Node, images: ImageBlock[]): string {
  if (isText(node)) return escapeText(collapse(node.data));
  if (!isTag(node)) return '';
  if (node.name === 'br') return '<br>';
  if (node.name === 'img') {
    images.push(image(node, ''));
    return '';
  }
  const inner = node.children.map((c) => inline(c, images)).join('');
  if (node.name === 'a') return `<a href="${escapeAttr(node.attribs.href ?? '')}">${inner}</a>`;
  if (MARKS.has(node.name)) return `<${node.name}>${inner}</${node.name}>`;
  if (node.name === 'ul' || node.name === 'ol')
    return node.children
      .map((c) => inline(c, images))
      .filter((s) => trimEdges(s))
      .join('<br>');
  // A block inside inline content: its text on a line of its own.
  return BLOCKS.has(node.name) && trimEdges(inner) ? `<br>${inner}<br>` : inner;
}

function image(img: Element, caption: string): ImageBlock {
  return {
    type: 'image',
    data: {
      file: { url: img.attribs.src ?? '' },
      caption: caption || escapeText(img.attribs.alt ?? ''),
      withBorder: false,
      withBackground: false,
      stretched: false,
    },
  };
}

/** Walks sanitized HTML, turning each block element into an Editor.js block and loose inline content into paragraphs. */
class Converter {
  readonly blocks: RichTextBlock[] = [];
  private buffer = '';

  constructor(private readonly maxDepth: number) {}

  /** Ends the paragraph being gathered; an explicit empty `<p>` stays (authors space paragraphs so). */
  private flush(explicit: boolean): void {
    const html = trimEdges(this.buffer.replace(/(<br>[ \t\n\r\f]*){3,}/g, '<br><br>'));
    this.buffer = '';
    if (html || explicit) this.blocks.push({ type: 'paragraph', data: { text: html } });
  }

  private pushImages(images: ImageBlock[]): void {
    this.blocks.push(...images.filter((i) => i.data.file.url));
  }

  flow(nodes: Node[]): void {
    for (const node of nodes) {
      if (isText(node)) {
        this.buffer += escapeText(collapse(node.data));
        continue;
      }
      if (!isTag(node)) continue;
      const name = node.name;
      if (name === 'br') this.buffer += '<br>';
      else if (MARKS.has(name) && !hasBlock(node)) this.buffer += inline(node, []);
      else if ((name === 'h1' || name === 'h2' || name === 'h3') && !hasBlock(node)) {
        this.flush(false);
        const images: ImageBlock[] = [];
        const text = trimEdges(node.children.map((c) => inline(c, images)).join(''));
        if (text) this.blocks.push({ type: 'header', data: { text, level: Number(name[1]) as 1 | 2 | 3 } });
      } else if (name === 'ul' || name === 'ol') {
        this.flush(false);
        this.list(node);
      } else if (name === 'img') {
        this.flush(false);
        this.pushImages([image(node, '')]);
      } else if (name === 'figure') {
        this.flush(false);
        const img = DomUtils.findOne((e) => e.name === 'img', node.children);
        const captionEl = DomUtils.findOne((e) => e.name === 'figcaption', node.children);
        const images: ImageBlock[] = [];
        const caption = captionEl ? trimEdges(captionEl.children.map((c) => inline(c, images)).join('')) : '';
        if (img) this.pushImages([image(img, caption)]);
        else if (caption) this.blocks.push({ type: 'paragraph', data: { text: caption } });
        this.flow(
          node.children.filter(
            (c) =>
              c !== img &&
              c !== captionEl &&
              !(isTag(c) && DomUtils.findOne((e) => e === img || e === captionEl, c.children) !== null),
          ),
        );
        this.flush(false);
      } else if (BLOCKS.has(name)) {
        // p, div (any other block element), li or figcaption out of place, or a header holding blocks: a paragraph of its own.
        this.flush(false);
        const before = this.blocks.length;
        this.flow(node.children);
        this.flush(name === 'p' && this.blocks.length === before);
      } else {
        this.flow(node.children);
      }
    }
  }

  end(): void {
    this.flush(false);
  }

  private list(el: Element): void {
    const images: ImageBlock[] = [];
    const style = el.name === 'ol' ? 'ordered' : 'unordered';
    const start = Number(el.attribs.start);
    const counterType = COUNTER_OF_TYPE[el.attribs.type ?? ''];
    const meta =
      style === 'ordered'
        ? {
            ...(Number.isInteger(start) && start > 1 ? { start } : {}),
            ...(counterType && counterType !== 'numeric' && COUNTER_TYPES.includes(counterType) ? { counterType } : {}),
          }
        : {};
    const items = this.items(el, 1, images);
    if (items.length) this.blocks.push({ type: 'list', data: { style, meta, items } });
    this.pushImages(images);
  }

  /** The items of a list element; levels past the bound are lifted to the deepest allowed level. */
  private items(list: Element, depth: number, images: ImageBlock[]): ListItem[] {
    const out: ListItem[] = [];
    let loose = '';
    const endLoose = () => {
      const content = trimEdges(loose);
      if (content) out.push({ content, meta: {}, items: [] });
      loose = '';
    };
    for (const child of list.children) {
      if (isTag(child) && child.name === 'li') {
        endLoose();
        out.push(...this.item(child, depth, images));
      } else if (isTag(child) && (child.name === 'ul' || child.name === 'ol')) {
        endLoose();
        const nested = this.items(child, Math.min(depth + 1, this.maxDepth), images);
        const last = out[out.length - 1];
        if (last && depth < this.maxDepth) last.items.push(...nested);
        else out.push(...nested);
      } else loose += inline(child, images);
    }
    endLoose();
    return out;
  }

  private item(li: Element, depth: number, images: ImageBlock[]): ListItem[] {
    let content = '';
    const sub: ListItem[] = [];
    for (const child of li.children) {
      if (isTag(child) && (child.name === 'ul' || child.name === 'ol'))
        sub.push(...this.items(child, Math.min(depth + 1, this.maxDepth), images));
      else content += inline(child, images);
    }
    const item: ListItem = {
      content: trimEdges(content.replace(/(<br>){2,}/g, '<br>')),
      meta: {},
      items: depth < this.maxDepth ? sub : [],
    };
    return depth < this.maxDepth ? [item] : [item, ...sub];
  }
}

export interface ConvertOptions extends SanitizeOptions {
  limits?: Partial<RichTextLimits>;
}

/**
 * HTML sent by other tools (the REST facade's `content`) as a document: sanitized with the same
 * allow-list first (other tools' `strong`/`em`/`del`/`h4`… renamed to ours, block elements we have
 * no block for turned into paragraphs, all else dropped with its text kept), then read into
 * paragraphs, headers, lists and images, then checked by parseDocument like any document.
 */
export function htmlToDocument(html: string, options: ConvertOptions = {}): RichTextDocument {
  const limits = { ...RICH_TEXT_LIMITS, ...options.limits };
  if (html.length > limits.maxHtmlLength) {
    throw new RichTextError(
      'RICH_TEXT_TOO_LONG',
      `本文が長すぎます（HTML で上限 ${limits.maxHtmlLength.toLocaleString('ja-JP')} 文字）。`,
    );
  }
  const clean = sanitizeForConversion(html, options);
  const converter = new Converter(limits.maxListDepth);
  converter.flow(parseHtml(clean, { decodeEntities: true }).children);
  converter.end();
  return parseDocument({ blocks: converter.blocks }, options);
}
