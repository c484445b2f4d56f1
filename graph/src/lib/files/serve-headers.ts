import { ATTACHMENT_TYPES, extensionOf } from './attachment-types.js';

/** Types we serve as checked; anything else goes out as a download of unknown bytes. */
const SERVABLE = new Map<string, { inline: boolean }>([
  ...Object.values(ATTACHMENT_TYPES).map((t) => [t.mime, { inline: t.inline }] as const),
  ['image/webp', { inline: true }], // thumbnails
]);
const TEXT_CHARSETS = new Set(['utf-8', 'shift_jis']);

/**
 * The CSP of a served file. Nothing may load but images of ours, and inline style, which is what
 * Chromium's own image and PDF viewers put in the page they wrap the file in (without it the PDF
 * viewer draws in a fraction of the window, crbug 271452). `sandbox` makes the response an opaque
 * origin with no script, no forms, no popups: a file that a browser would render as HTML or SVG
 * despite nosniff could still do nothing with our origin. PDFs go without `sandbox`: Chromium
 * refuses to start its PDF viewer in a sandboxed document (crbug 413851, a blank page instead).
 * That costs nothing here: the PDF viewer runs in its own extension process with the PDF's own
 * script (PDFium's, not the page's) and `default-src 'none'` still stops the document from loading
 * or running anything of the page's. `frame-ancestors 'self'` lets our own preview dialog frame a
 * file (the app's pages are framed by no one) and no other site.
 */
export const FILE_CSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'; sandbox";
export const PDF_CSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'";

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
  if (servable) contentType = mime === 'text/plain' ? `text/plain; charset=${charset && TEXT_CHARSETS.has(charset) ? charset : 'utf-8'}` : mime;
  const inline = Boolean(servable?.inline) && !options.download;
  const name = file.displayName.replace(/[\u0000-\u001F\u007F]/g, '');
  const headers: Record<string, string> = {
    'Content-Type': contentType,
    'Content-Disposition': `${inline ? 'inline' : 'attachment'}; filename="${asciiFallback(name)}"; filename*=UTF-8''${encodeRfc5987(name)}`,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': mime === 'application/pdf' && servable ? PDF_CSP : FILE_CSP,
    'X-Frame-Options': 'SAMEORIGIN',
    'Cache-Control': 'private, no-cache',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Referrer-Policy': 'no-referrer',
  };
  if (file.size !== undefined) headers['Content-Length'] = String(file.size);
  return headers;
}
