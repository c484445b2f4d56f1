import {
  htmlToDocument,
  parseDocument,
  renderHtml,
  RichTextError,
  type RichTextDocument,
} from '../../lib/rich-text/index.js';
import { blogInput } from './blog.errors.js';
import { isBlogImageUrl } from './blog-image.service.js';

/** A body's pictures are the blog's own uploads (blog-image.service.ts), in the document and in the HTML. */
const IMAGES = { isAllowedImageUrl: isBlogImageUrl };

/** A post's body as stored: the checked Editor.js document and the sanitized HTML rendered from it. */
export class PostContent {
  constructor(
    readonly doc: RichTextDocument,
    readonly html: string,
  ) {}
}

function refused(e: unknown, field: string): never {
  if (e instanceof RichTextError)
    throw blogInput('POST_CONTENT', e.message, field, { richTextCode: e.code, path: e.path });
  throw e;
}

/** An Editor.js document from the editor (GraphQL): checked, normalized, rendered. */
export function contentFromDocument(input: unknown, field = 'content'): PostContent {
  try {
    const doc = parseDocument(input ?? { blocks: [] }, IMAGES);
    return new PostContent(doc, renderHtml(doc, IMAGES));
  } catch (e) {
    refused(e, field);
  }
}

/**
 * `/api`'s `content`: HTML from other tools (sanitized with the allow-list and converted), or the
 * JSON text of an Editor.js document (what the web app itself stores).
 */
export function contentFromRest(input: unknown, field = 'content'): PostContent {
  if (input === undefined || input === null) return contentFromDocument({ blocks: [] }, field);
  if (typeof input === 'object') return contentFromDocument(input, field);
  if (typeof input !== 'string') throw blogInput('POST_CONTENT', '本文は HTML の文字列で指定してください。', field);
  if (/^\s*\{/.test(input)) return contentFromDocument(input, field);
  try {
    const doc = htmlToDocument(input, IMAGES);
    return new PostContent(doc, renderHtml(doc, IMAGES));
  } catch (e) {
    refused(e, field);
  }
}
