/**
 * Bounds of one document. A long blog post is a few thousand characters in a few dozen blocks; these
 * leave room for that many times over and still keep one post's rendering and storage small.
 */
export const RICH_TEXT_LIMITS = {
  /** Blocks in a document. */
  maxBlocks: 500,
  /** Characters of one text (a paragraph, header, list item or caption) as stored inline HTML. */
  maxTextLength: 20_000,
  /** Characters of all texts of a document together. */
  maxTotalLength: 200_000,
  /** List items in a document, at every level together. */
  maxListItems: 2_000,
  /** Levels of a list: 1 is a flat list. */
  maxListDepth: 5,
  /** Characters of HTML accepted for conversion (REST `content`). */
  maxHtmlLength: 1_000_000,
} as const;

export type RichTextLimits = { [K in keyof typeof RICH_TEXT_LIMITS]: number };
