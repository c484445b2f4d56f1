import type { Readable } from 'node:stream';
import {
  checkAttachment,
  fileResponseHeaders,
  FileCheckError,
  IMAGE_KINDS,
  makeThumbnail,
  newFileKey,
  parseDataUrl,
  parseUploadFiles,
  thumbnailKey,
  type FileErrorCode,
  type FileStorage,
} from '../../lib/files/index.js';
import { notFound } from '../../platform/errors.js';
import { blogInput, type BlogErrorReason } from './blog.errors.js';

/** What a save does to a post's one attachment. */
export type AttachmentChange = { kind: 'keep' } | { kind: 'remove' } | { kind: 'upload'; name: string; bytes: Buffer };

/** The columns of a stored attachment. */
export interface StoredAttachment {
  key: string;
  name: string;
  type: string;
  size: number;
  thumbKey: string | null;
}

/** The URL of a post's attachment (and of its thumbnail): served only to those who may read the post. */
export const attachmentUrl = (postId: number, thumbnail = false) =>
  `/api/blogs/${postId}/attachment${thumbnail ? '/thumbnail' : ''}`;

const REASON: Record<FileErrorCode, BlogErrorReason> = {
  FILE_EMPTY: 'POST_FILE_UNREADABLE',
  FILE_TOO_LARGE: 'POST_FILE_SIZE',
  FILE_IMAGE_TOO_LARGE: 'POST_FILE_SIZE',
  FILE_TYPE_NOT_ALLOWED: 'POST_FILE_TYPE',
  FILE_CONTENT_MISMATCH: 'POST_FILE_TYPE',
  FILE_UNREADABLE: 'POST_FILE_UNREADABLE',
  FILE_DATA_MALFORMED: 'POST_FILE_UNREADABLE',
  FILE_TOO_MANY: 'POST_FILE_TOO_MANY',
};

/** A refused file as the blog's typed error (the spec's 'File type not allowed', 'File size exceeds limit', 'Failed to process file'). */
export function fileRefused(e: unknown, field: string): never {
  if (e instanceof FileCheckError) throw blogInput(REASON[e.code], e.message, field, { fileCode: e.code });
  throw e;
}

/**
 * The spec's `upload_files` (JSON text of one `{uid, name, url, type}` whose url is a data URL):
 * a new file; the post's own attachment URL sent back unchanged keeps it; empty removes it (PUT
 * replaces the record).
 */
export function attachmentFromRest(value: unknown, field = 'upload_files'): AttachmentChange {
  const keeps = (v: unknown) =>
    typeof v === 'object' &&
    v !== null &&
    typeof (v as { url?: unknown }).url === 'string' &&
    /^\/api\/blogs\/\d+\/attachment$/.test((v as { url: string }).url);
  try {
    const parsed: unknown =
      typeof value === 'string' && value.length < 100_000 && /^\s*[[{]/.test(value) ? JSON.parse(value) : value;
    const one = Array.isArray(parsed) && parsed.length === 1 ? parsed[0] : parsed;
    if (keeps(one)) return { kind: 'keep' };
  } catch {
    // not JSON: parseUploadFiles below says so
  }
  try {
    const file = parseUploadFiles(value);
    if (!file) return { kind: 'remove' };
    if (file.kind === 'stored')
      throw new FileCheckError(
        'FILE_DATA_MALFORMED',
        'この投稿の添付ファイルではない URL です。新しいファイルはデータ URL で送ってください。',
      );
    return { kind: 'upload', name: file.name, bytes: file.bytes };
  } catch (e) {
    fileRefused(e, field);
  }
}

/** A comment's `attachment` (a data URL) named `attachment_filename`: a new file, or none when empty. */
export function attachmentFromDataUrl(dataUrl: unknown, name: unknown, field = 'attachment'): AttachmentChange {
  if (dataUrl === null || dataUrl === undefined || dataUrl === '') return { kind: 'remove' };
  try {
    const { bytes } = parseDataUrl(dataUrl);
    if (typeof name !== 'string' || !name.trim() || name.length > 255)
      throw new FileCheckError(
        'FILE_DATA_MALFORMED',
        'attachment_filename にファイル名（255 文字以内）を入れてください。',
      );
    return { kind: 'upload', name, bytes };
  } catch (e) {
    fileRefused(e, field);
  }
}

/**
 * The blog's attachments behind the storage interface: checked by content (lib/files: magic bytes,
 * images decoded), stored under a fresh key, images with a WebP thumbnail for the cards. Files are
 * written before the post's transaction and removed again if it fails; the files a save replaces are
 * removed after it commits.
 */
export class BlogAttachments {
  constructor(private readonly storage: FileStorage) {}

  async store(change: AttachmentChange, field = 'upload_files'): Promise<StoredAttachment | null> {
    if (change.kind !== 'upload') return null;
    const checked = await checkAttachment({ bytes: change.bytes, fileName: change.name }).catch((e: unknown) =>
      fileRefused(e, field),
    );
    const key = newFileKey('blog', checked.extension);
    let thumbKey: string | null = null;
    const thumb = IMAGE_KINDS.includes(checked.kind)
      ? await makeThumbnail(checked.bytes).catch((e: unknown) => fileRefused(e, field))
      : null;
    await this.storage.put(key, checked.bytes, { contentType: checked.contentType });
    if (thumb) {
      thumbKey = thumbnailKey(key);
      await this.storage.put(thumbKey, thumb.bytes, { contentType: thumb.contentType });
    }
    return { key, name: checked.displayName, type: checked.contentType, size: checked.size, thumbKey };
  }

  /** Removes stored files (a failed save's new ones, or the ones a committed save replaced). */
  async remove(keys: (string | null | undefined)[]): Promise<void> {
    await Promise.all(keys.filter((k): k is string => !!k).map((k) => this.storage.delete(k).catch(() => false)));
  }

  /**
   * A stored attachment (or its WebP thumbnail, named after it) with its response headers; NOT_FOUND
   * when there is none. The caller has already decided the reader may have it.
   */
  async openStored(columns: { key: string | null; thumbKey: string | null; name: string | null }, thumbnail: boolean) {
    const key = thumbnail ? columns.thumbKey : columns.key;
    const name = columns.name && (thumbnail ? `${columns.name.replace(/\.[^.]+$/, '')}.webp` : columns.name);
    const file = key && name ? await this.open(key, name) : null;
    if (!file) throw notFound('添付ファイル');
    return file;
  }

  /** The file and its response headers (Content-Disposition, nosniff, a CSP that runs no script). */
  async open(key: string, name: string): Promise<{ stream: Readable; headers: Record<string, string> } | null> {
    const file = await this.storage.get(key);
    if (!file) return null;
    return {
      stream: file.stream,
      headers: fileResponseHeaders({ contentType: file.contentType, displayName: name, size: file.size }),
    };
  }
}
