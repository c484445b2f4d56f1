import type { Config } from '../config/config.js';

declare module 'node:http' {
  interface IncomingMessage {
    /** Set first for every request and WebSocket upgrade (server.ts): its session cookie may count. */
    fromOwnOrigin?: boolean;
  }
}

/**
 * Where a browser request comes from, by its Origin header:
 * - `own`: the platform's own pages (the Host it was sent to, or PUBLIC_ORIGIN behind a proxy), or no
 *   Origin at all (a navigation, a tool that is not a browser);
 * - `allowed`: another internal tool's origin an operator listed in ALLOWED_ORIGINS: CORS and the
 *   WebSocket are open to it, with bearer tokens only;
 * - `refused`: any other.
 * Cookies authenticate `own` requests only: a page of another origin never acts with the session
 * of the person who opened it, listed or not.
 */
export type RequestOrigin = 'own' | 'allowed' | 'refused';

export function requestOrigin(
  config: Pick<Config, 'PUBLIC_ORIGIN' | 'allowedOrigins'>,
  headers: { origin?: string; host?: string },
): RequestOrigin {
  const origin = headers.origin;
  if (!origin) return 'own';
  try {
    const o = new URL(origin);
    if (headers.host && o.host === headers.host) return 'own';
    if (config.PUBLIC_ORIGIN && o.origin === new URL(config.PUBLIC_ORIGIN).origin) return 'own';
    return config.allowedOrigins.includes(o.origin) ? 'allowed' : 'refused';
  } catch {
    return 'refused';
  }
}

/** What a listed origin's scripts may send and read (CORS): the API's own headers, never credentials. */
const ALLOW_HEADERS =
  'authorization, content-type, idempotency-key, if-none-match, x-requested-with, apollo-require-preflight, x-live-position';
const EXPOSE_HEADERS =
  'etag, retry-after, ratelimit-limit, ratelimit-remaining, ratelimit-reset, idempotent-replayed, x-request-id, x-total-count, x-next-cursor, content-disposition';

/**
 * CORS for `/api` and `/graphql`: a listed origin gets `Access-Control-Allow-Origin` (without
 * credentials: cookies stay the platform's own) and its preflights are answered; other origins get
 * no CORS headers, so browsers keep their scripts from reading anything.
 */
export function cors(config: Pick<Config, 'PUBLIC_ORIGIN' | 'allowedOrigins'>) {
  return (
    req: { method: string; headers: Record<string, string | string[] | undefined> },
    res: { setHeader(n: string, v: string): void; statusCode: number; end(): void },
    next: () => void,
  ) => {
    res.setHeader('Vary', 'Origin');
    const origin = req.headers.origin as string | undefined;
    if (!origin || requestOrigin(config, { origin, host: req.headers.host as string | undefined }) !== 'allowed')
      return next();
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Expose-Headers', EXPOSE_HEADERS);
    if (req.method !== 'OPTIONS' || !req.headers['access-control-request-method']) return next();
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE');
    res.setHeader('Access-Control-Allow-Headers', ALLOW_HEADERS);
    res.setHeader('Access-Control-Max-Age', '600');
    res.statusCode = 204;
    res.end();
  };
}
