import { extensionOf } from './attachment-types.js';

const MAX_NAME_LENGTH = 120;
/**
 * Characters that are never part of a name a person chose: C0/C1 controls, zero-width and
 * direction-override marks (which can make "gpj.exe" read as "exe.jpg"), interlinear annotations.
 */
const INVISIBLE =
  /[\u0000-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF\uFFF9-\uFFFB]/g;
/** Reserved in Windows file names; a download under such a name would be renamed or refused. */
const RESERVED = /[<>:"|?*]/g;

const graphemes = new Intl.Segmenter('ja', { granularity: 'grapheme' });

/**
 * The name to show and to offer for download: the last path segment of what the browser sent,
 * NFC-normalized (macOS sends decomposed kana: が as か + ゛), without invisible or reserved
 * characters, without leading dots or trailing dots and spaces, at most 120 characters with the
 * extension kept. Japanese (and U+3000 inside the name) is kept as is. Never empty: a name that
 * cleans to nothing becomes `添付ファイル.<ext>`.
 */
export function safeDisplayName(fileName: string, fallbackExt = extensionOf(fileName)): string {
  let name = String(fileName).normalize('NFC');
  name = name.split(/[\\/]/).pop() ?? '';
  name = name.replace(/\t/g, ' ').replace(INVISIBLE, '').replace(RESERVED, '_').replace(/ +/g, ' ').trim();
  const ext = extensionOf(name) && name.slice(name.length - extensionOf(name).length); // as written: .JPG stays .JPG
  const base = (ext ? name.slice(0, -(ext.length + 1)) : name).replace(/^[. ]+/, '').replace(/[. ]+$/, '');
  if (!base) return fallbackExt ? `添付ファイル.${fallbackExt}` : '添付ファイル';
  name = ext ? `${base}.${ext}` : base;
  if (name.length <= MAX_NAME_LENGTH) return name;
  const room = MAX_NAME_LENGTH - (ext ? ext.length + 1 : 0);
  let cut = '';
  for (const { segment } of graphemes.segment(base)) {
    if (cut.length + segment.length > room) break;
    cut += segment;
  }
  return ext ? `${cut.trimEnd()}.${ext}` : cut.trimEnd();
}
