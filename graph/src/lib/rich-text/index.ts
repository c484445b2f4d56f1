export {
  ALLOWED_TAGS,
  BLOCK_TAGS,
  INLINE_TAGS,
  LINK_REL,
  LINK_SCHEMES,
  LINK_TARGET,
  ownFileImages,
  sanitizeInlineHtml,
  sanitizeRichHtml,
} from './allow-list.js';
export type { ImageUrlPolicy, SanitizeOptions } from './allow-list.js';
export { imageUrls, parseDocument } from './document.js';
export type {
  CounterType,
  HeaderBlock,
  ImageBlock,
  ListBlock,
  ListItem,
  ParagraphBlock,
  ParseOptions,
  RichTextBlock,
  RichTextDocument,
} from './document.js';
export { RichTextError } from './errors.js';
export type { RichTextErrorCode } from './errors.js';
export { htmlToDocument } from './from-html.js';
export type { ConvertOptions } from './from-html.js';
export { RICH_TEXT_LIMITS } from './limits.js';
export type { RichTextLimits } from './limits.js';
export { excerpt, inlineToText, toPlainText } from './plain-text.js';
export { MENTION_HREF, mentionedIds } from './mention.js';
export { renderHtml } from './render.js';
