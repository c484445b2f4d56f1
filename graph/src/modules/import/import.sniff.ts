import { createInflateRaw } from 'node:zlib';
import { AppError } from '../../platform/errors.js';

/** Why an upload is refused before it becomes a job (the REST answer's `reason`, beside code BAD_USER_INPUT). */
export type UploadRefusal = 'IMPORT_TOO_LARGE' | 'IMPORT_UNSUPPORTED_TYPE' | 'IMPORT_NOT_SPREADSHEET' | 'IMPORT_ZIP_BOMB';
export type SheetFormat = 'xlsx' | 'xls';

export interface ImportLimits {
  maxBytes: number;
  maxUncompressedBytes: number;
  maxZipEntries: number;
}

/** A refused upload: BAD_USER_INPUT (413 for a file over the limit) with the specific `reason`. */
export class UploadRefused extends AppError {
  constructor(
    readonly reason: UploadRefusal,
    message: string,
  ) {
    super('BAD_USER_INPUT', message, { reason });
  }

  get httpStatus(): number {
    return this.reason === 'IMPORT_TOO_LARGE' ? 413 : 400;
  }
}

const mib = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;
export const tooLarge = (max: number) => new UploadRefused('IMPORT_TOO_LARGE', `ファイルが大きすぎます（上限 ${mib(max)}）。`);
export const zipBomb = () => new UploadRefused('IMPORT_ZIP_BOMB', '展開後のサイズが大きすぎるか、含まれるファイルが多すぎるため、このファイルは取り込めません。');
const notSpreadsheet = (format: SheetFormat) =>
  new UploadRefused('IMPORT_NOT_SPREADSHEET', `このファイルは ${format === 'xlsx' ? 'Excel（.xlsx）' : 'Excel 97-2003（.xls）'}のファイルではありません。`);

const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** The format the file name claims (.xlsx or .xls); anything else is refused. */
export function formatOf(fileName: string): SheetFormat {
  const ext = /\.([^.]+)$/.exec(fileName.trim())?.[1]?.toLowerCase();
  if (ext === 'xlsx' || ext === 'xls') return ext;
  throw new UploadRefused('IMPORT_UNSUPPORTED_TYPE', 'Excel ファイル（.xlsx または .xls）を選んでください。');
}

/**
 * Checks an uploaded file before it is stored: size, magic bytes that agree with the extension
 * (xlsx = zip, xls = OLE2), and for .xlsx the zip's central directory (entry count and the sum of
 * the declared uncompressed sizes). Returns the format.
 */
export function sniff(fileName: string, buf: Buffer, limits: ImportLimits): SheetFormat {
  const format = formatOf(fileName);
  if (buf.length > limits.maxBytes) throw tooLarge(limits.maxBytes);
  const magic = format === 'xlsx' ? ZIP : OLE2;
  if (buf.length < magic.length || !buf.subarray(0, magic.length).equals(magic)) throw notSpreadsheet(format);
  if (format === 'xlsx') checkCentralDirectory(buf, limits, () => notSpreadsheet(format));
  return format;
}

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

/** Reads the zip's central directory (end record within the last 64 KiB + 22 bytes); no Zip64. */
export function zipEntries(buf: Buffer, maxEntries: number): ZipEntry[] | null {
  const eocd = endRecord(buf);
  if (eocd < 0) return null;
  const count = buf.readUInt16LE(eocd + 10);
  if (count > maxEntries) throw zipBomb();
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

function checkCentralDirectory(buf: Buffer, limits: ImportLimits, broken: () => UploadRefused): void {
  const entries = zipEntries(buf, limits.maxZipEntries);
  if (!entries || !entries.some((e) => e.name === '[Content_Types].xml')) throw broken();
  let total = 0;
  for (const e of entries) {
    // 0xffffffff marks Zip64 sizes, which no spreadsheet of the allowed size needs.
    if (e.uncompressedSize === 0xffffffff || e.compressedSize === 0xffffffff) throw zipBomb();
    total += e.uncompressedSize;
  }
  if (total > limits.maxUncompressedBytes) throw zipBomb();
}

/**
 * Inflates every entry (discarding the output) and fails once more than `max` bytes come out, so a
 * central directory that lies about its sizes cannot make the parser inflate a bomb. Streams: the
 * memory used stays at one inflate window whatever the entry claims. On the way it counts the
 * `<row` elements of the worksheet the reader reads (`sheet.part`; the first by name when the
 * workbook does not say) for the progress bar's total. With `sheet.skip` that worksheet is not
 * inflated here at all (its row count is known otherwise, and the reader inflates it under the same
 * budget: inflating it a second time was a third of the job's read) and nothing is counted.
 */
export async function inspectInflated(buf: Buffer, maxEntries: number, max: number, sheet: { part: string; skip: boolean } | null = null): Promise<{ sheetRows: number | null }> {
  const all = zipEntries(buf, maxEntries) ?? [];
  const firstByName = all.filter((e) => /^xl\/worksheets\/sheet\d*\.xml$/.test(e.name)).map((e) => e.name).sort((a, b) => a.length - b.length || a.localeCompare(b))[0];
  const counted = sheet ? (sheet.skip ? null : sheet.part) : (firstByName ?? null);
  const entries = sheet?.skip ? all.filter((e) => e.name !== sheet.part) : all;
  let total = 0;
  let sheetRows: number | null = null;
  for (const e of entries) {
    const p = e.localOffset;
    if (p + 30 > buf.length || buf.readUInt32LE(p) !== 0x04034b50) throw zipBomb();
    const start = p + 30 + buf.readUInt16LE(p + 26) + buf.readUInt16LE(p + 28);
    const data = buf.subarray(start, start + e.compressedSize);
    const counter = e.name === counted ? rowCounter() : null;
    if (e.method === 0) {
      total += data.length;
      counter?.add(data);
    } else if (e.method === 8) total += await inflatedLength(data, max - total, counter);
    else throw zipBomb();
    if (total > max) throw zipBomb();
    if (counter) sheetRows = counter.count;
  }
  return { sheetRows };
}

/** Counts `<row` in a byte stream (matches may straddle chunks). */
function rowCounter() {
  const needle = Buffer.from('<row');
  let tail: Buffer = Buffer.alloc(0);
  const scan = (b: Buffer, from: number, until: number) => {
    for (let i = b.indexOf(needle, from); i >= 0 && i < until; i = b.indexOf(needle, i + 4)) {
      const next = b[i + 4];
      if (next === 0x20 || next === 0x3e || next === 0x2f) c.count++; // '<row ' '<row>' '<row/'
    }
  };
  const c = {
    count: 0,
    add(chunk: Buffer) {
      // A match across the boundary: the previous chunk's last 4 bytes + this chunk's first 4 (no copy of the chunk).
      if (tail.length) scan(Buffer.concat([tail, chunk.subarray(0, 4)]), 0, tail.length);
      scan(chunk, 0, chunk.length);
      tail = Buffer.from((chunk.length >= 4 ? chunk : Buffer.concat([tail, chunk])).subarray(-4));
    },
  };
  return c;
}

function inflatedLength(data: Buffer, budget: number, counter: ReturnType<typeof rowCounter> | null): Promise<number> {
  return new Promise((resolve, reject) => {
    const z = createInflateRaw();
    let n = 0;
    z.on('data', (chunk: Buffer) => {
      n += chunk.length;
      counter?.add(chunk);
      if (n > budget) {
        z.destroy();
        reject(zipBomb());
      }
    });
    z.on('end', () => resolve(n));
    z.on('error', () => reject(new UploadRefused('IMPORT_NOT_SPREADSHEET', 'ファイルが壊れているため読み込めません。')));
    z.end(data);
  });
}
