import { checkDeclaredSizes, zipEntries } from '../../lib/zip/central-directory.js';
import { ZipBroken, ZipTooLarge } from '../../lib/zip/errors.js';
import { hasMagic } from '../../lib/sniff/magic.js';
import { AppError } from '../../platform/errors.js';

/** Why an upload is refused before it becomes a job (the REST answer's `reason`, beside code BAD_USER_INPUT). */
export type UploadRefusal =
  'IMPORT_TOO_LARGE' | 'IMPORT_UNSUPPORTED_TYPE' | 'IMPORT_NOT_SPREADSHEET' | 'IMPORT_ZIP_BOMB';
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
export const tooLarge = (max: number) =>
  new UploadRefused('IMPORT_TOO_LARGE', `ファイルが大きすぎます（上限 ${mib(max)}）。`);
export const zipBomb = () =>
  new UploadRefused(
    'IMPORT_ZIP_BOMB',
    '展開後のサイズが大きすぎるか、含まれるファイルが多すぎるため、このファイルは取り込めません。',
  );
const notSpreadsheet = (format: SheetFormat) =>
  new UploadRefused(
    'IMPORT_NOT_SPREADSHEET',
    `このファイルは ${format === 'xlsx' ? 'Excel（.xlsx）' : 'Excel 97-2003（.xls）'}のファイルではありません。`,
  );

/** The zip library's refusals as the upload's (ZipTooLarge: a bomb; ZipBroken: a broken file); anything else as it is. */
export function asRefusal(err: unknown): unknown {
  if (err instanceof ZipTooLarge) return zipBomb();
  if (err instanceof ZipBroken)
    return new UploadRefused('IMPORT_NOT_SPREADSHEET', 'ファイルが壊れているため読み込めません。');
  return err;
}

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
  if (!hasMagic(buf, format === 'xlsx' ? 'zip' : 'ole2')) throw notSpreadsheet(format);
  if (format === 'xlsx') {
    try {
      const entries = zipEntries(buf, limits.maxZipEntries);
      if (!entries || !entries.some((e) => e.name === '[Content_Types].xml')) throw notSpreadsheet(format);
      checkDeclaredSizes(entries, limits.maxUncompressedBytes);
    } catch (err) {
      throw asRefusal(err);
    }
  }
  return format;
}
