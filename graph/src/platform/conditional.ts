import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';

/**
 * Conditional reads (RFC 9110 13): a read's answer carries a strong `ETag` (a hash of its bytes) and
 * `Cache-Control: private, no-cache` (per person, revalidated each time); a request whose
 * `If-None-Match` names that tag gets a 304 without the body. The tag is of the bytes, so whatever
 * changes the answer (a record, a name it shows, the viewer's rights) changes the tag.
 */
export const etagOf = (bytes: string | Buffer) => `"${createHash('sha1').update(bytes).digest('base64url')}"`;

/** RFC 9110 13.1.2: weak comparison, a list of tags or `*`. */
export function matchesIfNoneMatch(req: Request, etag: string): boolean {
  const header = req.get('if-none-match');
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/** Sends a read's text with its ETag, or a 304 when the client has it already. */
export function sendRevalidated(req: Request, res: Response, status: number, contentType: string, text: string, cacheControl = 'private, no-cache'): void {
  const etag = etagOf(text);
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', cacheControl);
  if (status === 200 && matchesIfNoneMatch(req, etag)) return void res.status(304).end();
  res.status(status).type(contentType).send(text);
}
