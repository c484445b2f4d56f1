export {
  ATTACHMENT_KINDS,
  ATTACHMENT_TYPES,
  IMAGE_KINDS,
  MAX_ATTACHMENT_BYTES,
  MAX_IMAGE_PIXELS,
  extensionOf,
  kindOfExtension,
} from './attachment-types.js';
export type { AttachmentKind, AttachmentType } from './attachment-types.js';
export { checkAttachment, textCharset } from './check.js';
export type { CheckedAttachment, CheckOptions, TextCharset } from './check.js';
export { maxBase64Length, parseDataUrl, parseUploadFiles } from './data-url.js';
export type { DataUrl, UploadFile } from './data-url.js';
export { safeDisplayName } from './display-name.js';
export { FILE_ERROR_STATUS, FileCheckError, FileKeyError, FileStoreUnavailableError } from './errors.js';
export type { FileErrorCode } from './errors.js';
export { FILES_URL_PREFIX, fileKeyFromUrl, fileUrl, isFileKey, newFileKey, thumbnailKey } from './file-key.js';
export { FILE_CSP, encodeRfc5987, fileResponseHeaders } from './serve-headers.js';
export type { ServedFile } from './serve-headers.js';
export { LocalFileStorage, defaultFilesRoot } from './storage.js';
export { S3FileStorage } from './s3-storage.js';
export type { S3StorageOptions } from './s3-storage.js';
export type { FileMeta, FileStorage, StoredFile } from './storage.js';
export { makeThumbnail } from './thumbnail.js';
export type { Thumbnail, ThumbnailOptions } from './thumbnail.js';
