/**
 * Every `reason` an error can carry beside its code: what a client switches on where one code
 * (BAD_USER_INPUT, FORBIDDEN, …) covers several rules. AppError takes only these, and
 * schema/openapi/api.yaml lists the same (openapi.test.ts holds the two equal).
 */
export const ERROR_REASONS = [
  // Access
  'PASSWORD_CHANGE_REQUIRED', // signed in with a one-time password: change it first
  'API_KEY_READ_ONLY', // a read-only API key tried to write
  // Retries (Idempotency-Key)
  'IDEMPOTENCY_KEY_REUSED', // the key was used for another request
  'IDEMPOTENCY_KEY_IN_PROGRESS', // the first request with the key is still running
  // Blog
  'TAG_CONTENT_EMPTY',
  'TAG_CONTENT_TOO_LONG',
  'TAG_CONTENT_TAKEN',
  'TAGS_NONE_SELECTED',
  'TAG_UNKNOWN',
  'CATEGORY_UNKNOWN',
  'CATEGORY_NOT_POSTABLE',
  'CATEGORY_IN_USE',
  'POST_FILE_TYPE', // checked by content, not by name
  'POST_FILE_SIZE',
  'POST_FILE_UNREADABLE',
  'POST_FILE_TOO_MANY', // a post or comment holds one file
  'POST_FILE_PROCESSING',
  'POST_CONTENT', // the Editor.js document (its own code in richTextCode)
  'MENTION_TOO_MANY',
  'MENTION_UNKNOWN',
  'MENTION_NOT_READER', // retired, or may not read the post: never told of it
  'MENTION_NOT_IN_TEXT', // a comment's mention is written in its text as @氏名
  // Profiles
  'EMPLOYEE_NOT_FOUND',
  'PROFILE_NOT_FOUND',
  'PROFILE_EXISTS',
  'PROFILE_VERSION',
  'PROFILE_IMAGE',
  // Import uploads
  'IMPORT_TOO_LARGE',
  'IMPORT_UNSUPPORTED_TYPE',
  'IMPORT_NOT_SPREADSHEET',
  'IMPORT_ZIP_BOMB',
  // Google consent callback (carried in the redirect's URL, hence lower case)
  'state',
  'expired',
  'user',
  'disabled',
  'exchange',
  'offline',
  'scope',
] as const;

export type ErrorReason = (typeof ERROR_REASONS)[number];
