import fs from 'node:fs';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';

/** Content codings the web build writes next to its files (web/scripts/precompress.mjs), best first. */
const CODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;
type Coding = (typeof CODINGS)[number];

/** Hashed build output (web/dist/assets/*-<hash>.*): a new build writes new names, so it never changes. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Unhashed files (favicon): cached a while, then revalidated. */
const SHORT = 'public, max-age=3600';

/**
 * The codings an Accept-Encoding header allows, in the server's order of preference (br, then
 * gzip). `q=0` refuses a coding; `*` stands for every coding not named.
 */
export function acceptedCodings(header: string | undefined): Coding[] {
  if (!header) return [];
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    if (name) q.set(name, Number.isFinite(value) ? value : 0);
  }
  return CODINGS.filter((c) => (q.get(c.name) ?? q.get('*') ?? 0) > 0);
}

/** The file under `root` a URL path names, or null when it would leave `root`. */
function fileUnder(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const file = path.join(root, path.normalize(decoded));
  return file.startsWith(root + path.sep) ? file : null;
}

/**
 * Sends `file` in the best precompressed form the client accepts (`<file>.br`, `<file>.gz`), with
 * the original's Content-Type, Content-Encoding and `Vary: Accept-Encoding`; calls `fallback` when
 * the build wrote no such variant (small files and images are not compressed).
 */
function sendPrecompressed(
  req: Request,
  res: Response,
  file: string,
  cacheControl: string,
  fallback: () => void,
): void {
  res.vary('Accept-Encoding');
  const codings = acceptedCodings(req.get('accept-encoding'));
  const tryNext = (i: number): void => {
    if (i >= codings.length) return fallback();
    const coding = codings[i];
    fs.stat(file + coding.suffix, (err, stat) => {
      if (err || !stat.isFile()) return tryNext(i + 1);
      res.setHeader('Content-Encoding', coding.name);
      res.setHeader('Cache-Control', cacheControl);
      res.type(path.extname(file));
      res.sendFile(file + coding.suffix, { cacheControl: false, dotfiles: 'deny' }, (sendErr) => {
        // A client that went away mid-file is no error of ours.
        if (sendErr && !res.headersSent) {
          res.removeHeader('Content-Encoding');
          fallback();
        }
      });
    });
  };
  tryNext(0);
}

/**
 * The built web app (web/dist): its files with precompressed variants and long-lived caching for
 * the hashed assets, and every other GET answered by index.html (the client-side routes), never
 * cached so that a new build is picked up at once.
 */
export function webApp(dist: string): Router {
  const root = path.resolve(dist);
  const router = express.Router();
  const plain = express.static(root, {
    index: false,
    setHeaders: (res, p) =>
      res.setHeader('Cache-Control', p.startsWith(path.join(root, 'assets') + path.sep) ? IMMUTABLE : SHORT),
  });

  router.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const file = fileUnder(root, req.path);
    // The HTML files are the app's routes' answers (below), not files of their own.
    if (!file || file.endsWith('.html')) return next();
    const cacheControl = file.startsWith(path.join(root, 'assets') + path.sep) ? IMMUTABLE : SHORT;
    sendPrecompressed(req, res, file, cacheControl, () => plain(req, res, next));
  });

  const indexHtml = path.join(root, 'index.html');
  router.get(/.*/, (req, res, next) => {
    // A missing hashed asset (an old page after a deploy) is a 404, not the app's HTML.
    if (req.path.startsWith('/assets/')) return next();
    const html = firstScreenHtml(root, req) ?? indexHtml;
    sendPrecompressed(req, res, html, 'no-cache', () => {
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(html);
    });
  });
  return router;
}

/** The reasons /login is opened with (web/src/app/auth/session.ts's loginPath) that add a banner to the page. */
const LOGIN_REASONS = new Set(['expired', 'signedOut']);

/**
 * The build pre-renders the sign-in page into its own HTML files (web/scripts/prerender.mjs), one per
 * banner it can open with: /login gets the one that matches, so its first paint is the page itself.
 * Every other route gets index.html (the session check). Null when the build wrote no such file.
 */
function firstScreenHtml(root: string, req: Request): string | null {
  if (req.path !== '/login') return null;
  const reason =
    typeof req.query.reason === 'string' && LOGIN_REASONS.has(req.query.reason) ? `-${req.query.reason}` : '';
  const file = path.join(root, `login${reason}.html`);
  return fs.existsSync(file) ? file : null;
}
