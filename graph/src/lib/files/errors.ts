/** Why a file was refused. Each has a Japanese message for the user and an HTTP status for the API. */
export type FileErrorCode =
  | 'FILE_EMPTY'
  | 'FILE_TOO_LARGE' // past the byte limit (checked before decoding a data URL)
  | 'FILE_IMAGE_TOO_LARGE' // an image with more pixels than we decode (a decompression bomb, or a huge scan)
  | 'FILE_TYPE_NOT_ALLOWED' // an extension or a content type that is not one of the allowed ones
  | 'FILE_CONTENT_MISMATCH' // the content is an allowed type, but not the one the name's extension says
  | 'FILE_UNREADABLE' // says it is a PDF or image but does not read as one (broken, truncated)
  | 'FILE_DATA_MALFORMED' // a data URL or upload_files value that is not what the API takes
  | 'FILE_TOO_MANY'; // more than one file where one is allowed

export const FILE_ERROR_STATUS: Record<FileErrorCode, number> = {
  FILE_EMPTY: 400,
  FILE_TOO_LARGE: 413,
  FILE_IMAGE_TOO_LARGE: 413,
  FILE_TYPE_NOT_ALLOWED: 415,
  FILE_CONTENT_MISMATCH: 415,
  FILE_UNREADABLE: 400,
  FILE_DATA_MALFORMED: 400,
  FILE_TOO_MANY: 400,
};

export class FileCheckError extends Error {
  override readonly name = 'FileCheckError';
  constructor(
    readonly code: FileErrorCode,
    message: string,
  ) {
    super(message);
  }

  /** The HTTP status the REST facade answers with. */
  get status(): number {
    return FILE_ERROR_STATUS[this.code];
  }
}

/** A storage key that is not one (see file-key.ts): a programming error or a forged request, never user input to explain. */
export class FileKeyError extends Error {
  override readonly name = 'FileKeyError';
}

/** The file store could not be reached (an object store restarting, a network fault): the request may be retried. */
export class FileStoreUnavailableError extends Error {
  override readonly name = 'FileStoreUnavailableError';
}
