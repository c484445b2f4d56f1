import { randomUUID } from 'node:crypto';

/**
 * Storage keys and the URLs that serve them. A key is 1–4 segments joined by "/", each a letter or
 * digit followed by letters, digits, "_" or "-", with at most one ".ext" at its end: no "..", no
 * leading dot, no backslash, no empty segment, so a key can never name a path outside the store.
 */
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}(?:\.[A-Za-z0-9]{1,10})?$/;
const MAX_KEY_LENGTH = 255;
const MAX_SEGMENTS = 4;

/** The path under which the server serves stored files: `/files/<key>`. */
export const FILES_URL_PREFIX = '/files/';

export function isFileKey(key: unknown): key is string {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) return false;
  const segments = key.split('/');
  return segments.length <= MAX_SEGMENTS && segments.every((s) => SEGMENT.test(s));
}

/** A fresh, unguessable key in a namespace (`blog`, `comments`, …) with the checked type's extension. */
export function newFileKey(namespace: string, ext: string): string {
  const key = `${namespace}/${randomUUID()}.${ext}`;
  if (!isFileKey(key)) throw new Error(`not a valid file key: ${key}`);
  return key;
}

/** The key of an image's thumbnail: the same name with `-thumb.webp` in place of the extension. */
export function thumbnailKey(key: string): string {
  const derived = `${key.replace(/\.[A-Za-z0-9]+$/, '')}-thumb.webp`;
  if (!isFileKey(derived)) throw new Error(`no thumbnail key for ${key}`);
  return derived;
}

/** The URL the server serves a key at (relative to the site, so it works behind any host name). */
export function fileUrl(key: string): string {
  if (!isFileKey(key)) throw new Error(`not a valid file key: ${key}`);
  return FILES_URL_PREFIX + key;
}

/** The key a URL of ours names, or null for anything else (other hosts, schemes, queries, odd paths). */
export function fileKeyFromUrl(url: unknown): string | null {
  if (typeof url !== 'string' || !url.startsWith(FILES_URL_PREFIX)) return null;
  const key = url.slice(FILES_URL_PREFIX.length);
  return isFileKey(key) ? key : null;
}
