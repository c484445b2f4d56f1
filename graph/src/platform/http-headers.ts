import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

declare module 'express-serve-static-core' {
  interface Request {
    /** This request's id: the caller's X-Request-Id when it is a sane token, else a new UUID. */
    requestId?: string;
  }
}

const SANE_ID = /^[\w.:-]{1,64}$/;

/** Gives every request an id, echoed in X-Request-Id and written in every log line about it. */
export function requestIds(req: Request, res: Response, next: NextFunction): void {
  const given = req.get('x-request-id');
  req.requestId = given && SANE_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', req.requestId);
  next();
}

/**
 * The web app's Content-Security-Policy: scripts and styles only from this origin (Google Identity
 * Services' script, style and frame when Google sign-in is on), frames of our own files (the comments'
 * PDF preview; files carry their own sandboxing CSP), no plugins, no framing by anyone,
 * forms and <base> only to this origin. Styles may be inline: Primer sets style attributes.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' https://accounts.google.com/gsi/client",
  "style-src 'self' 'unsafe-inline' https://accounts.google.com/gsi/style",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self' https://accounts.google.com/gsi/",
  "frame-src 'self' https://accounts.google.com/gsi/",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Security headers on every response (pages, assets, /graphql, /api, files). */
export function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin-allow-popups');
  next();
}
