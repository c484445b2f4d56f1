import { MAX_ATTACHMENT_BYTES } from './attachment-types.js';
import { FileCheckError } from './errors.js';
import { fileKeyFromUrl } from './file-key.js';

export interface DataUrl {
  /** The media type the sender declared, lower case; only a hint: the content is checked on its own. */
  mediaType: string;
  bytes: Buffer;
}

const malformed = (detail: string) =>
  new FileCheckError('FILE_DATA_MALFORMED', `ファイルのデータ形式が正しくありません（${detail}）。`);
const tooLarge = (maxBytes: number) =>
  new FileCheckError(
    'FILE_TOO_LARGE',
    `ファイルサイズが上限（${Math.round((maxBytes / 1024 / 1024) * 10) / 10} MB）を超えています。`,
  );
const MAX_HEADER = 256;
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Characters of base64 that decode to at most `maxBytes`. */
export const maxBase64Length = (maxBytes: number) => Math.ceil(maxBytes / 3) * 4;

/**
 * Reads `data:<mime>[;param]*;base64,<data>` as a browser's FileReader writes it. The length is
 * checked before anything is decoded: a payload longer than `maxBytes` could decode to is refused
 * at once, so an oversized upload costs no allocation beyond the request body itself. Only strict
 * base64 (no whitespace, padded) is taken.
 */
export function parseDataUrl(value: unknown, maxBytes = MAX_ATTACHMENT_BYTES): DataUrl {
  if (typeof value !== 'string' || !/^data:/i.test(value)) throw malformed('data: で始まるデータ URL ではありません');
  const comma = value.slice(0, MAX_HEADER).indexOf(',');
  if (comma < 0) throw malformed('データ URL の見出しが読めません');
  const params = value
    .slice(5, comma)
    .split(';')
    .map((p) => p.trim());
  if (params.length < 2 || params.pop()!.toLowerCase() !== 'base64')
    throw malformed('base64 のデータ URL だけ受け付けます');
  const mediaType = (params[0] || 'application/octet-stream').toLowerCase();
  if (!MEDIA_TYPE.test(mediaType)) throw malformed('メディアタイプが正しくありません');
  const length = value.length - comma - 1;
  if (length > maxBase64Length(maxBytes)) throw tooLarge(maxBytes);
  if (length === 0) throw new FileCheckError('FILE_EMPTY', '空のファイルは添付できません。');
  const payload = value.slice(comma + 1);
  if (length % 4 !== 0 || !BASE64.test(payload)) throw malformed('base64 として読めません');
  const bytes = Buffer.from(payload, 'base64');
  if (bytes.length > maxBytes) throw tooLarge(maxBytes);
  return { mediaType, bytes };
}

/** One file of the REST facade's `upload_files`: new bytes, a file already stored, or nothing. */
export type UploadFile =
  | { kind: 'upload'; uid?: string; name: string; declaredType?: string; mediaType: string; bytes: Buffer }
  | { kind: 'stored'; uid?: string; name: string; key: string };

const text = (v: unknown, max: number): string | undefined =>
  typeof v === 'string' && v.length <= max ? v : undefined;

/**
 * The spec's `upload_files`: a JSON string (or the parsed value) of one file `{uid, name, url,
 * type}` whose url is a data URL, or one of our `/files/` URLs when a post keeps its attachment.
 * An array of one is taken as that one; empty values (null, '', '[]', '{}') mean no file. The JSON
 * text is bounded before it is parsed.
 */
export function parseUploadFiles(value: unknown, maxBytes = MAX_ATTACHMENT_BYTES): UploadFile | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'string') {
    if (value.length > maxBase64Length(maxBytes) + 64 * 1024) throw tooLarge(maxBytes);
    try {
      value = JSON.parse(value);
    } catch {
      throw malformed('upload_files が JSON として読めません');
    }
  }
  if (Array.isArray(value)) {
    if (value.length > 1) throw new FileCheckError('FILE_TOO_MANY', '添付できるファイルは 1 つだけです。');
    value = value[0];
  }
  if (value === null || value === undefined) return null;
  if (typeof value !== 'object') throw malformed('upload_files はファイル 1 つのオブジェクトです');
  const v = value as Record<string, unknown>;
  if (v.url === undefined && v.name === undefined) return null;
  const name = text(v.name, 1000);
  if (!name) throw malformed('ファイル名（name）がありません');
  const uid = text(v.uid, 200);
  const url = v.url;
  if (typeof url === 'string' && /^data:/i.test(url)) {
    const { mediaType, bytes } = parseDataUrl(url, maxBytes);
    const declaredType = text(v.type, 200);
    return {
      kind: 'upload',
      ...(uid ? { uid } : {}),
      name,
      ...(declaredType ? { declaredType } : {}),
      mediaType,
      bytes,
    };
  }
  const key = fileKeyFromUrl(url);
  if (!key) throw malformed('url はデータ URL か、この画面で添付したファイルの URL です');
  return { kind: 'stored', ...(uid ? { uid } : {}), name, key };
}
