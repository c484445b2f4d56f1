import { AppError } from '../../platform/errors.js';

/**
 * Why the blog refused an input, beside the generic code (BAD_USER_INPUT, FORBIDDEN …): clients
 * switch on `reason`, people read the Japanese message. The spec's English and Vietnamese messages
 * are these, translated.
 */
export type BlogErrorReason =
  | 'TAG_CONTENT_EMPTY' // 'Tag content is empty'
  | 'TAG_CONTENT_TOO_LONG'
  | 'TAG_CONTENT_TAKEN'
  | 'TAGS_NONE_SELECTED' // 'Please select at least one tag to delete'
  | 'TAG_UNKNOWN'
  | 'CATEGORY_UNKNOWN' // the spec's "unknown category id"
  | 'CATEGORY_NOT_POSTABLE'
  | 'CATEGORY_IN_USE'
  | 'POST_FILE_TYPE' // 'File type not allowed'
  | 'POST_FILE_SIZE' // 'File size exceeds limit'
  | 'POST_FILE_UNREADABLE' // 'Failed to process file'
  | 'POST_FILE_TOO_MANY'
  | 'POST_FILE_PROCESSING' // 'Vui lòng chờ file được xử lý xong trước khi lưu blog.'
  | 'POST_CONTENT' // the Editor.js document was refused (its own code is in richTextCode)
  | 'MENTION_TOO_MANY'
  | 'MENTION_UNKNOWN' // no such employee
  | 'MENTION_NOT_READER' // retired, or may not read the post: never told of it
  | 'MENTION_NOT_IN_TEXT'; // a comment's mention not written in its text as @氏名

/** A refused input with its reason and the field at fault. */
export function blogInput(
  reason: BlogErrorReason,
  message: string,
  field: string,
  extra: Record<string, unknown> = {},
): AppError {
  return new AppError('BAD_USER_INPUT', message, { reason, fieldErrors: [{ field, message }], ...extra });
}
