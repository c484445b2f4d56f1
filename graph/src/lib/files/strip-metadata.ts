import sharp from 'sharp';
import type { AttachmentKind } from './attachment-types.js';

/**
 * An image as it is stored and served: without the metadata a camera or phone writes into it (EXIF
 * with the GPS position, the camera and its serial, XMP, IPTC, comments), so no photo tells its
 * readers where it was taken. The pixels are kept as they are: JPEG segments and PNG chunks are
 * dropped without decoding, except a JPEG that EXIF says to turn, which is turned and encoded again
 * (its orientation lives in the EXIF that goes). Colour profiles stay. GIFs carry no EXIF and are
 * stored as they are.
 */
export async function withoutMetadata(bytes: Uint8Array, kind: AttachmentKind): Promise<Uint8Array> {
  if (kind === 'jpeg') {
    const { orientation } = await sharp(bytes).metadata();
    if (orientation && orientation !== 1)
      return sharp(bytes).rotate().jpeg({ quality: 92, chromaSubsampling: '4:4:4' }).toBuffer();
    return stripJpeg(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
  }
  if (kind === 'png') return stripPng(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
  return bytes;
}

/** APP1 (EXIF, XMP), APP12 (Ducky), APP13 (IPTC / Photoshop) and comments; APP0 (JFIF), APP2 (ICC) and APP14 (Adobe colour) stay. */
const JPEG_DROP = new Set([0xe1, 0xec, 0xed, 0xfe]);

function stripJpeg(b: Buffer): Buffer {
  if (b[0] !== 0xff || b[1] !== 0xd8) return b;
  const parts: Buffer[] = [b.subarray(0, 2)];
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return b; // not a segment where one must be: leave the file as it is
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    if (marker === 0xda) {
      parts.push(b.subarray(i)); // start of scan: the compressed image and the rest, as they are
      return Buffer.concat(parts);
    }
    const length = b.readUInt16BE(i + 2);
    const end = i + 2 + length;
    if (length < 2 || end > b.length) return b;
    if (!JPEG_DROP.has(marker)) parts.push(b.subarray(i, end));
    i = end;
  }
  return b;
}

/** eXIf (EXIF), the text chunks (XMP lives in iTXt) and tIME. */
const PNG_DROP = new Set(['eXIf', 'tEXt', 'zTXt', 'iTXt', 'tIME']);

function stripPng(b: Buffer): Buffer {
  const SIGNATURE = 8;
  if (b.length < SIGNATURE) return b;
  const parts: Buffer[] = [b.subarray(0, SIGNATURE)];
  let i = SIGNATURE;
  while (i + 12 <= b.length) {
    const length = b.readUInt32BE(i);
    const type = b.toString('latin1', i + 4, i + 8);
    const end = i + 12 + length;
    if (end > b.length) return b;
    if (!PNG_DROP.has(type)) parts.push(b.subarray(i, end));
    i = end;
    if (type === 'IEND') break;
  }
  return Buffer.concat(parts);
}
