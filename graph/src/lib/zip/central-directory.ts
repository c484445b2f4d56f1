import { ZipTooLarge } from './errors.js';

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localOffset: number;
}

/** The offset of the zip's end-of-central-directory record (within the last 64 KiB + 22 bytes), or -1. */
function endRecord(buf: Buffer): number {
  const min = Math.max(0, buf.length - 0xffff - 22);
  for (let i = buf.length - 22; i >= min; i--) if (buf.readUInt32LE(i) === 0x06054b50) return i;
  return -1;
}

/**
 * Reads the zip's central directory (end record within the last 64 KiB + 22 bytes); no Zip64.
 * Null when there is none or it is broken; ZipTooLarge when it lists more than `maxEntries`.
 */
export function zipEntries(buf: Buffer, maxEntries: number): ZipEntry[] | null {
  const eocd = endRecord(buf);
  if (eocd < 0) return null;
  const count = buf.readUInt16LE(eocd + 10);
  if (count > maxEntries) throw new ZipTooLarge(`more than ${maxEntries} zip entries`);
  let p = buf.readUInt32LE(eocd + 16);
  const entries: ZipEntry[] = [];
  for (let n = 0; n < count; n++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) return null;
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    entries.push({
      name: buf.toString('utf8', p + 46, p + 46 + nameLen),
      method: buf.readUInt16LE(p + 10),
      compressedSize: buf.readUInt32LE(p + 20),
      uncompressedSize: buf.readUInt32LE(p + 24),
      localOffset: buf.readUInt32LE(p + 42),
    });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/**
 * What the entries declare, against a limit: ZipTooLarge past `maxUncompressedBytes` declared in
 * all, or for Zip64 sizes (0xffffffff, which no spreadsheet of an allowed size needs).
 */
export function checkDeclaredSizes(entries: ZipEntry[], maxUncompressedBytes: number): void {
  let total = 0;
  for (const e of entries) {
    if (e.uncompressedSize === 0xffffffff || e.compressedSize === 0xffffffff) throw new ZipTooLarge('Zip64 sizes');
    total += e.uncompressedSize;
  }
  if (total > maxUncompressedBytes) throw new ZipTooLarge(`declares more than ${maxUncompressedBytes} bytes`);
}
