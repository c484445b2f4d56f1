/** Why a rich-text document or HTML was refused. The blog maps these to 400 with the message as is. */
export type RichTextErrorCode =
  | 'RICH_TEXT_MALFORMED' // not an Editor.js document, or a field of the wrong shape
  | 'RICH_TEXT_UNSUPPORTED_BLOCK' // a block type or list style the blog does not have
  | 'RICH_TEXT_TOO_MANY_BLOCKS'
  | 'RICH_TEXT_TOO_LONG' // one text, or all of them together, past its bound
  | 'RICH_TEXT_TOO_DEEP' // lists nested past the bound
  | 'RICH_TEXT_IMAGE_NOT_ALLOWED'; // an image that is not one of our stored files

/** A refused document: a typed code, a Japanese message for the user, and where in the document. */
export class RichTextError extends Error {
  override readonly name = 'RichTextError';
  constructor(
    readonly code: RichTextErrorCode,
    message: string,
    /** Where the problem is, e.g. `blocks[3].data.items[0].items[1].content`; empty for the whole. */
    readonly path = '',
  ) {
    super(message);
  }
}
