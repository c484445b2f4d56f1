import sanitizeHtml from 'sanitize-html';
import { fileKeyFromUrl } from '../files/file-key.js';
import { MENTION_HREF } from './mention.js';

/**
 * The one allow-list of rich text. Inline marks are exactly what the editor's inline tools write:
 * bold `<b>`, italic `<i>` (Editor.js core, execCommand), underline `<u>` (@editorjs/underline,
 * whose `cdx-underline` class is dropped), strike `<s>`, link `<a href>` (rel and target are
 * ours, set on every link), and `<br>` (Shift+Enter). Blocks are what the renderer writes.
 * Everything else is dropped, its text kept, except inside elements whose content is not text.
 */
export const INLINE_TAGS = ['b', 'i', 'u', 's', 'a', 'br'] as const;
export const BLOCK_TAGS = ['p', 'h1', 'h2', 'h3', 'ul', 'ol', 'li', 'figure', 'img', 'figcaption'] as const;
export const ALLOWED_TAGS: readonly string[] = [...BLOCK_TAGS, ...INLINE_TAGS];

export const LINK_REL = 'noopener noreferrer';
export const LINK_TARGET = '_blank';
export const LINK_SCHEMES = ['http', 'https', 'mailto'] as const;
/** `<ol type>` for Editor.js list counter types. */
export const OL_TYPES = ['1', 'a', 'A', 'i', 'I'] as const;

/** Which image sources are ours. The default accepts only `/files/<key>` URLs of the file store. */
export type ImageUrlPolicy = (url: string) => boolean;
export const ownFileImages: ImageUrlPolicy = (url) => fileKeyFromUrl(url) !== null;

export interface SanitizeOptions {
  isAllowedImageUrl?: ImageUrlPolicy;
}

/** Elements whose content is not readable text (scripts, styles, embedded documents): dropped whole. */
const NON_TEXT_TAGS = [
  'script',
  'style',
  'textarea',
  'option',
  'select',
  'xmp',
  'noscript',
  'noembed',
  'noframes',
  'iframe',
  'template',
  'title',
  'object',
  'embed',
  'applet',
  'svg',
  'math',
  'plaintext',
  'head',
  'frameset',
  'canvas',
];

/** Tags from other tools renamed to ours before filtering (conversion only): same meaning, our spelling. */
const INLINE_RENAMES: Record<string, string> = { strong: 'b', em: 'i', strike: 's', del: 's', ins: 'u' };
/**
 * Block elements we have no block for become `div`s, read as paragraphs by the converter, so their
 * text keeps a line of its own. (Not `p`: a `p` opened inside a `p` closes it, splitting the text.)
 * `div` is allowed, without attributes, only on the way into the converter: no output holds one.
 */
const BLOCK_RENAMES: Record<string, string> = {
  h4: 'h3',
  h5: 'h3',
  h6: 'h3',
  ...Object.fromEntries(
    [
      'section',
      'article',
      'aside',
      'header',
      'footer',
      'main',
      'nav',
      'address',
      'blockquote',
      'pre',
      'center',
      'details',
      'summary',
      'dl',
      'dt',
      'dd',
      'table',
      'caption',
      'thead',
      'tbody',
      'tfoot',
      'tr',
      'td',
      'th',
      'fieldset',
      'legend',
      'form',
      'body',
      'html',
    ].map((t) => [t, 'div']),
  ),
};

// A mention (mention.ts) opens in the app; every other link in a new tab, without an opener.
const linkTransform: sanitizeHtml.Transformer = (_tag, attribs) => {
  const href = attribs.href?.trim();
  if (href !== undefined && MENTION_HREF.test(href)) return { tagName: 'a', attribs: { href } };
  return {
    tagName: 'a',
    attribs: { ...(href !== undefined ? { href } : {}), rel: LINK_REL, target: LINK_TARGET },
  };
};

const olTransform: sanitizeHtml.Transformer = (_tag, attribs) => ({
  tagName: 'ol',
  attribs: {
    ...(/^[1-9]\d{0,5}$/.test(attribs.start ?? '') ? { start: attribs.start } : {}),
    // sanitize-html empties a refused value rather than dropping the attribute: drop it here.
    ...((OL_TYPES as readonly string[]).includes(attribs.type ?? '') ? { type: attribs.type } : {}),
  },
});

function options(
  tags: readonly string[],
  policy: ImageUrlPolicy,
  renames: Record<string, string>,
): sanitizeHtml.IOptions {
  return {
    allowedTags: [...tags],
    allowedAttributes: {
      a: ['href', { name: 'rel', values: [LINK_REL] }, { name: 'target', values: [LINK_TARGET] }],
      ol: ['start', { name: 'type', values: [...OL_TYPES] }],
      img: ['src', 'alt', { name: 'loading', values: ['lazy'] }],
    },
    allowedSchemes: [...LINK_SCHEMES],
    // Images carry no scheme at all: only our own relative /files/ URLs, checked below.
    allowedSchemesByTag: { img: [] },
    allowProtocolRelative: false,
    allowedClasses: {},
    allowedStyles: {},
    allowVulnerableTags: false,
    disallowedTagsMode: 'discard',
    nonTextTags: NON_TEXT_TAGS,
    // Deeper nesting than any real document: bounds the work and the converter's recursion.
    nestingLimit: 64,
    parser: { lowerCaseTags: true, lowerCaseAttributeNames: true, decodeEntities: true },
    transformTags: {
      ...Object.fromEntries(
        Object.entries(renames).map(([from, to]) => [from, sanitizeHtml.simpleTransform(to, {}, false)]),
      ),
      a: linkTransform,
      ol: olTransform,
    },
    exclusiveFilter: (frame) => {
      if (frame.tag === 'img') return !(frame.attribs.src && policy(frame.attribs.src));
      // A link whose URL was refused stays as its text.
      if (frame.tag === 'a' && !frame.attribs.href) return 'excludeTag';
      return false;
    },
  };
}

const policyOf = (o?: SanitizeOptions) => o?.isAllowedImageUrl ?? ownFileImages;

/** The inline HTML of one text (paragraph, header, list item, caption): marks and links only. */
export function sanitizeInlineHtml(html: string, o?: SanitizeOptions): string {
  return tidyInlineHtml(sanitizeHtml(html, options(INLINE_TAGS, policyOf(o), {})));
}

// Over sanitize-html's output, whose marks carry no attributes but a link's and whose break is `<br />`.
const EMPTY_MARK = /<(b|i|u|s)><\/\1>|<a [^>]*><\/a>/g;
const FINAL_BREAK = /<br \/>((?:<\/(?:b|i|u|s|a)>)*)$/;
const TRAILING_MARK_TAGS = /(?:<\/?(?:b|i|u|s)>|<a [^>]*>|<\/a>)*$/;

function withoutEmptyMarks(html: string): string {
  let out = html;
  for (let before = ''; before !== out;) {
    before = out;
    out = out.replace(EMPTY_MARK, '');
  }
  return out;
}

/**
 * What the browser's editing leaves in a text and nobody sees: marks around nothing, and the
 * closing `<br>` of a line with content (a block's last break draws no line; Enter at the end of bold
 * text can leave `<b><br></b>` behind). A break that draws a line stays: between lines, the second
 * of two at the end, or the only content (a blank line the author made). Idempotent.
 */
export function tidyInlineHtml(html: string): string {
  let out = withoutEmptyMarks(html);
  const end = FINAL_BREAK.exec(out);
  if (end) {
    const before = out.slice(0, end.index).replace(TRAILING_MARK_TAGS, '');
    if (before !== '' && !before.endsWith('<br />')) out = withoutEmptyMarks(out.slice(0, end.index) + end[1]);
  }
  return out;
}

/** Any HTML reduced to the rich-text allow-list (what the renderer's output is passed through). */
export function sanitizeRichHtml(html: string, o?: SanitizeOptions): string {
  return sanitizeHtml(html, options(ALLOWED_TAGS, policyOf(o), {}));
}

/** HTML from other tools reduced to the allow-list, other tools' equivalents renamed to ours first. */
export function sanitizeForConversion(html: string, o?: SanitizeOptions): string {
  return sanitizeHtml(html, options([...ALLOWED_TAGS, 'div'], policyOf(o), { ...INLINE_RENAMES, ...BLOCK_RENAMES }));
}
