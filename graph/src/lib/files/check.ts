import { fileTypeFromBuffer } from 'file-type';
import sharp, { type Metadata } from 'sharp';
import {
  ATTACHMENT_KINDS,
  ATTACHMENT_TYPES,
  MAX_ATTACHMENT_BYTES,
  MAX_IMAGE_PIXELS,
  extensionOf,
  kindOfExtension,
  kindOfMime,
  type AttachmentKind,
} from './attachment-types.js';
import { safeDisplayName } from './display-name.js';
import { FileCheckError } from './errors.js';
import { withoutMetadata } from './strip-metadata.js';

export type TextCharset = 'utf-8' | 'shift_jis';

export interface CheckedAttachment {
  kind: AttachmentKind;
  /** What to store: the upload, or for an image the upload without its metadata (strip-metadata.ts). */
  bytes: Uint8Array;
  /** The type to store and serve, from the content (never from the request); text carries its charset. */
  contentType: string;
  /** The name's extension, lower case (jpg or jpeg as the user named it). */
  extension: string;
  size: number;
  displayName: string;
  charset?: TextCharset;
  image?: { width: number; height: number; frames: number };
}

export interface CheckOptions {
  maxBytes?: number;
  maxPixels?: number;
  allowed?: readonly AttachmentKind[];
  /**
   * The caller decodes the image itself and stores only what it encodes anew (profile pictures):
   * the header is still checked (format, pixel limit), but the whole-image decode that proves a
   * file stored as it is can be read, and the metadata strip, are left to it — a 24-megapixel
   * photo decoded twice took ten times the resize alone (bench/profiles-avatar).
   */
  reencodedByCaller?: boolean;
}

const MB = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;
const allowedList = (kinds: readonly AttachmentKind[]) =>
  kinds.flatMap((k) => ATTACHMENT_TYPES[k].extensions).join('、');

/** Controls that never appear in text: NUL and the other C0 codes but tab, LF, VT, FF, CR; DEL. */
const BINARY_CONTROL = /[\u0000-\u0008\u000E-\u001F\u007F]/;

/**
 * The charset a file reads as text in, or null for binary: valid UTF-8 (BOM or not) first, then
 * Shift_JIS (still what older Windows tools write in Japanese offices), with no NUL or other
 * control characters either way. UTF-16 holds NULs and is refused; save as UTF-8 instead.
 */
export function textCharset(bytes: Uint8Array): TextCharset | null {
  if (bytes.includes(0)) return null;
  for (const charset of ['utf-8', 'shift_jis'] as const) {
    try {
      const text = new TextDecoder(charset, { fatal: true }).decode(bytes);
      return BINARY_CONTROL.test(text) ? null : charset;
    } catch {
      // not this charset; try the next
    }
  }
  return null;
}

/** A PDF header at the start and the end-of-file marker in the last KB, as PDF readers look for them. */
function looksLikeWholePdf(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 16)).toString('latin1');
  const tailStart = Math.max(0, bytes.length - 1024);
  const tail = Buffer.from(bytes.buffer, bytes.byteOffset + tailStart, bytes.length - tailStart).toString('latin1');
  return /^%PDF-[12]\.\d/.test(head) && tail.includes('%%EOF');
}

const SHARP_FORMAT: Partial<Record<AttachmentKind, string>> = { png: 'png', jpeg: 'jpeg', gif: 'gif' };

/**
 * Decodes the whole image (every frame of a GIF) with sharp: a file that only starts like an image
 * fails here. The pixel count is checked from the header first, so a decompression bomb is refused
 * before any pixel is decoded; sharp's limitInputPixels stands behind that check.
 */
async function checkImage(
  bytes: Uint8Array,
  kind: AttachmentKind,
  maxPixels: number,
  decodeWhole: boolean,
): Promise<CheckedAttachment['image']> {
  const unreadable = () =>
    new FileCheckError(
      'FILE_UNREADABLE',
      `${ATTACHMENT_TYPES[kind].label}として読み取れませんでした。ファイルが壊れていないか確かめてください。`,
    );
  const tooLarge = () =>
    new FileCheckError(
      'FILE_IMAGE_TOO_LARGE',
      `画像の画素数が大きすぎます（上限 ${(maxPixels / 1_000_000).toLocaleString('ja-JP')} 百万画素）。縮小してから添付してください。`,
    );
  const open = () =>
    sharp(bytes, {
      limitInputPixels: maxPixels,
      failOn: 'error',
      sequentialRead: true,
      animated: kind === 'gif',
    }).timeout({ seconds: 20 });
  let meta: Metadata;
  try {
    meta = await open().metadata();
  } catch (e) {
    // sharp refuses at the header already when the declared size is past limitInputPixels.
    if (/pixel limit/i.test(String((e as Error).message))) throw tooLarge();
    throw unreadable();
  }
  if (meta.format !== SHARP_FORMAT[kind] || !meta.width || !meta.height) throw unreadable();
  const frames = meta.pages ?? 1;
  const frameHeight = meta.pageHeight ?? meta.height;
  if (meta.width * frameHeight * frames > maxPixels) throw tooLarge();
  if (!decodeWhole) return { width: meta.width, height: frameHeight, frames };
  try {
    await open().stats();
  } catch (e) {
    if (/pixel limit/i.test(String((e as Error).message))) throw tooLarge();
    throw unreadable();
  }
  return { width: meta.width, height: frameHeight, frames };
}

/**
 * Checks an attachment by its content: the size, the name's extension against the allowed kinds,
 * the magic bytes (file-type) against that extension, and then the content in full: text must
 * decode as UTF-8 or Shift_JIS with no binary, a PDF must have its header and end marker, an
 * image must decode completely within the pixel bound. Returns the checked type and a safe name;
 * throws FileCheckError with a typed code and a Japanese message.
 */
export async function checkAttachment(
  input: { bytes: Uint8Array; fileName: string },
  options: CheckOptions = {},
): Promise<CheckedAttachment> {
  const { bytes, fileName } = input;
  const maxBytes = options.maxBytes ?? MAX_ATTACHMENT_BYTES;
  const allowed = options.allowed ?? ATTACHMENT_KINDS;
  if (bytes.length === 0) throw new FileCheckError('FILE_EMPTY', '空のファイルは添付できません。');
  if (bytes.length > maxBytes)
    throw new FileCheckError('FILE_TOO_LARGE', `ファイルサイズが上限（${MB(maxBytes)}）を超えています。`);

  const extension = extensionOf(fileName.normalize('NFC'));
  const named = kindOfExtension(extension);
  if (!named || !allowed.includes(named)) {
    throw new FileCheckError(
      'FILE_TYPE_NOT_ALLOWED',
      `この種類のファイルは添付できません。添付できるのは ${allowedList(allowed)} です。`,
    );
  }

  // UTF-16 text starts with a byte-order mark that file-type takes for MPEG audio: say what it is.
  if (
    named === 'txt' &&
    bytes.length >= 2 &&
    ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
  ) {
    throw new FileCheckError(
      'FILE_CONTENT_MISMATCH',
      'UTF-16 のテキストは添付できません。UTF-8 で保存し直してから添付してください。',
    );
  }
  const detected = await fileTypeFromBuffer(bytes);
  // XML is text that file-type names by its first line; to us it is a .txt like any other.
  const detectedKind = detected && detected.mime !== 'application/xml' ? kindOfMime(detected.mime) : undefined;
  if (detected && detected.mime !== 'application/xml' && !detectedKind) {
    throw new FileCheckError(
      'FILE_TYPE_NOT_ALLOWED',
      `ファイルの中身が添付できない種類（${detected.ext}）です。添付できるのは ${allowedList(allowed)} です。`,
    );
  }
  let charset: TextCharset | undefined;
  let kind: AttachmentKind;
  if (detectedKind) kind = detectedKind;
  else {
    const c = textCharset(bytes);
    if (!c) {
      if (named === 'txt')
        throw new FileCheckError(
          'FILE_CONTENT_MISMATCH',
          'ファイルの中身がテキストではありません（.txt として添付できるのは UTF-8 か Shift_JIS のテキストだけです）。',
        );
      throw new FileCheckError(
        'FILE_UNREADABLE',
        `${ATTACHMENT_TYPES[named].label}として読み取れませんでした。ファイルが壊れていないか確かめてください。`,
      );
    }
    charset = c;
    kind = 'txt';
  }
  if (kind !== named) {
    throw new FileCheckError(
      'FILE_CONTENT_MISMATCH',
      `ファイルの中身（${ATTACHMENT_TYPES[kind].label}）が名前の拡張子（.${extension}）と合いません。正しい拡張子の名前にしてから添付してください。`,
    );
  }
  if (!allowed.includes(kind))
    throw new FileCheckError(
      'FILE_TYPE_NOT_ALLOWED',
      `この種類のファイルは添付できません。添付できるのは ${allowedList(allowed)} です。`,
    );

  let image: CheckedAttachment['image'];
  if (kind === 'pdf' && !looksLikeWholePdf(bytes)) {
    throw new FileCheckError(
      'FILE_UNREADABLE',
      'PDF として読み取れませんでした。ファイルが壊れていないか、最後まで保存されているか確かめてください。',
    );
  }
  if (SHARP_FORMAT[kind])
    image = await checkImage(bytes, kind, options.maxPixels ?? MAX_IMAGE_PIXELS, !options.reencodedByCaller);

  const mime = ATTACHMENT_TYPES[kind].mime;
  const stored = image && !options.reencodedByCaller ? await withoutMetadata(bytes, kind) : bytes;
  return {
    kind,
    bytes: stored,
    contentType: charset ? `${mime}; charset=${charset}` : mime,
    extension,
    size: stored.length,
    displayName: safeDisplayName(fileName, extension),
    ...(charset ? { charset } : {}),
    ...(image ? { image } : {}),
  };
}
