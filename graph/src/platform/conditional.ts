import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';

/**
 * Conditional reads (RFC 9110 13): a read's answer carries a strong `ETag` (a hash of its bytes) and
 * `Cache-Control: private, no-cache` (per person, revalidated each time); a request whose
 * `If-None-Match` names that tag gets a 304 without the body. The tag is of the bytes, so whatever
 * changes the answer (a record, a name it shows, the viewer's rights) changes the tag.
 */
export const etagOf = (bytes: string | Buffer) => `"${createHash('sha1').update(bytes).digest('base64url')}"`;

/**
 * A record's tag names its version too (`"v7.<hash>"`), so `If-Match` on its update can stand for
 * the body's `version`: the service's optimistic lock then decides, and a stale tag is the same 409.
 */
const recordTag = (text: string, version: unknown) =>
  Number.isSafeInteger(version) ? `"v${String(version)}.${etagOf(text).slice(1)}` : etagOf(text);

/** The version an `If-Match` tag of a record names (a weak tag too), or null when it names none. */
export function versionOfTag(header: string): number | null {
  const m = /^\s*(?:W\/)?"v(\d{1,9})\.[\w-]+"\s*$/.exec(header);
  return m ? Number(m[1]) : null;
}

/** RFC 9110 13.1.2: weak comparison, a list of tags or `*`. */
export function matchesIfNoneMatch(req: Request, etag: string): boolean {
  const header = req.get('if-none-match');
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/** Sends a read's text with its ETag, or a 304 when the client has it already. */
export function sendRevalidated(
  req: Request,
  res: Response,
  status: number,
  contentType: string,
  text: string,
  cacheControl = 'private, no-cache',
  version?: unknown,
): void {
  const etag = recordTag(text, version);
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', cacheControl);
  if (status === 200 && matchesIfNoneMatch(req, etag)) return void res.status(304).end();
  res.status(status).type(contentType).send(text);
}
