import { ATTACHMENT_TYPES, extensionOf } from './attachment-types.js';

/** Types we serve as checked; anything else goes out as a download of unknown bytes. */
const SERVABLE = new Map<string, { inline: boolean }>([
  ...Object.values(ATTACHMENT_TYPES).map((t) => [t.mime, { inline: t.inline }] as const),
  ['image/webp', { inline: true }], // thumbnails
]);
const TEXT_CHARSETS = new Set(['utf-8', 'shift_jis']);

/**
 * The CSP of every served file. Nothing may load but images of ours; `sandbox` makes the response
 * an opaque origin without script, forms or popups, so a file a browser would render as HTML or SVG
 * despite nosniff could still do nothing with our origin. PDFs get the same policy, measured on this
 * machine's Chromium 156: a PDF under it shows in the built-in viewer both opened directly and in a
 * same-origin iframe, while an HTML file under it had its script blocked ("the document's frame is
 * sandboxed"). Older Chromium refused to start its PDF viewer in a sandboxed document (crbug
 * 413851) and drew it in a corner without inline styles (crbug 271452): `style-src 'unsafe-inline'`
 * is for those (styles run no script); if old browsers must show PDFs, drop `sandbox` for PDFs only.
 * The viewer runs in its own extension process, and PDF JavaScript is PDFium's, not the page's.
 * `frame-ancestors 'self'` (and X-Frame-Options SAMEORIGIN) lets our own preview dialog frame a
 * file and no other site.
 */
export const FILE_CSP =
  "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'; sandbox";

/** `filename*` per RFC 5987/8187: UTF-8, percent-encoded, with the characters encodeURIComponent leaves alone but the grammar does not allow. */
export const encodeRfc5987 = (value: string) =>
  encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** An ASCII stand-in for browsers that ignore `filename*`: non-ASCII and quoting characters replaced. */
function asciiFallback(name: string): string {
  const ext = extensionOf(name);
  const ascii = name.replace(/[^\x20-\x7E]|["\\%;]/g, '_');
  const base = ext ? ascii.slice(0, -(ext.length + 1)) : ascii;
  return /[A-Za-z0-9]/.test(base) ? ascii : ext ? `file.${ext}` : 'file';
}

export interface ServedFile {
  /** The type stored with the file when it was checked (never a type from the request). */
  contentType: string;
  /** The safe display name (safeDisplayName). */
  displayName: string;
  size?: number;
}

/**
 * The response headers for sending a stored file: Content-Type as checked, Content-Disposition
 * inline for images and PDF and attachment for text and anything else (`download` forces
 * attachment), nosniff, the CSP above, `Cache-Control: private, no-cache` (never in a shared
 * cache; the browser revalidates each use, so access removed from a viewer takes effect on their
 * next request), and the same-origin resource policy so other sites cannot embed the file.
 */
export function fileResponseHeaders(file: ServedFile, options: { download?: boolean } = {}): Record<string, string> {
  const [mime = '', ...params] = file.contentType.split(';').map((p) => p.trim().toLowerCase());
  const servable = SERVABLE.get(mime);
  const charset = params.find((p) => p.startsWith('charset='))?.slice('charset='.length);
  let contentType = 'application/octet-stream';
  if (servable)
    contentType =
      mime === 'text/plain' ? `text/plain; charset=${charset && TEXT_CHARSETS.has(charset) ? charset : 'utf-8'}` : mime;
  const inline = Boolean(servable?.inline) && !options.download;
  const name = file.displayName.replace(/[\u0000-\u001F\u007F]/g, '');
  const headers: Record<string, string> = {
    'Content-Type': contentType,
    'Content-Disposition': `${inline ? 'inline' : 'attachment'}; filename="${asciiFallback(name)}"; filename*=UTF-8''${encodeRfc5987(name)}`,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': FILE_CSP,
    'X-Frame-Options': 'SAMEORIGIN',
    'Cache-Control': 'private, no-cache',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Referrer-Policy': 'no-referrer',
  };
  if (file.size !== undefined) headers['Content-Length'] = String(file.size);
  return headers;
}
