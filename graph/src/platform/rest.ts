import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { Logger } from 'pino';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createContext, type AppContext } from './context.js';
import { sessionCookieHeaders, tokenFrom } from './cookies.js';
import { AppError, HTTP_STATUS, NUL_MESSAGE, badInput, toAppError } from './errors.js';
import { hasNul } from './validation.js';
import type { Services } from './services.js';

declare module 'express-serve-static-core' {
  interface Request {
    ctx?: AppContext;
  }
}

export type RouteHandler = (ctx: AppContext, req: Request, res: Response) => Promise<unknown>;

/**
 * Wraps a thin route: the service's answer becomes JSON; a typed error becomes its HTTP status with
 * `{ error, code, fieldErrors? }`; anything else is a logged 500 without internals.
 */
export function handle(fn: RouteHandler, status = 200) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const ctx = req.ctx!;
      const body = await fn(ctx, req, res);
      for (const c of sessionCookieHeaders(ctx.cookies, ctx.meta.secure === true)) res.append('Set-Cookie', c);
      if (!res.headersSent) res.status(status).json(body);
    } catch (err) {
      next(err);
    }
  };
}

export function restErrorHandler(log: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    // Body-parser errors (malformed JSON, too large) arrive with a status of their own.
    const status = (err as { status?: number; type?: string }).status;
    if (status && status >= 400 && status < 500 && !(err instanceof AppError)) {
      const message = status === 413 ? 'リクエストが大きすぎます。' : 'リクエストの形式が正しくありません。';
      res.status(status).json({ error: message, code: 'BAD_USER_INPUT' });
      return;
    }
    const e = toAppError(err);
    if (e.code === 'INTERNAL_SERVER_ERROR') log.error({ err, path: req.path }, 'api request failed');
    const { code: _code, ...extensions } = e.extensions as Record<string, unknown>;
    if (e.code === 'TOO_MANY_REQUESTS' && typeof extensions.retryAfterSeconds === 'number') {
      res.setHeader('Retry-After', String(extensions.retryAfterSeconds));
    }
    res.status(HTTP_STATUS[e.code]).json({ error: e.message, code: e.code, ...extensions });
  };
}

interface RouteLayer {
  route?: { path: string; methods: Record<string, boolean> };
  match(path: string): boolean;
}

const routeLayers = (r: Router) => (r as unknown as { stack: RouteLayer[] }).stack.filter((l) => l.route);

/** The methods of some routes, as an Allow header lists them (HEAD with GET). */
function methodsOf(layers: RouteLayer[]): string[] {
  const methods = new Set<string>();
  for (const l of layers) for (const [m, on] of Object.entries(l.route!.methods)) if (on && m !== '_all') methods.add(m.toUpperCase());
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

/** The methods the router's routes answer at `path` (for 405 and its Allow header); none when no route has that path. */
const allowedMethods = (r: Router, path: string) => methodsOf(routeLayers(r).filter((l) => l.match(path)));

/** Express matches a path without parameters case-insensitively and with or without a trailing slash. */
const literalKey = (path: string) => path.toLowerCase().replace(/\/+$/, '') || '/';

/** The methods of each route without parameters (`/computers/export`, not `/computers/:id`), by literalKey. */
function literalRoutes(r: Router): Map<string, string[]> {
  const byPath = new Map<string, RouteLayer[]>();
  for (const l of routeLayers(r)) {
    if (l.route!.path.includes(':')) continue;
    const key = literalKey(l.route!.path);
    byPath.set(key, [...(byPath.get(key) ?? []), l]);
  }
  return new Map([...byPath].map(([path, layers]) => [path, methodsOf(layers)]));
}

function methodNotAllowed(req: Request, res: Response, allow: string[]): void {
  res.setHeader('Allow', allow.join(', '));
  res.status(405).json({ error: `${req.baseUrl}${req.path} に ${req.method} は使えません（${allow.join(', ')}）。`, code: 'METHOD_NOT_ALLOWED' });
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The `/api` router: JSON bodies, the request context (session from cookie or bearer), CSRF
 * defence for cookie-authenticated writes (they must be non-simple requests: JSON content type or
 * an X-Requested-With header, which a cross-site form cannot send), and the rule that an
 * `x-user-id` header, if a caller still sends one, must name the signed-in user.
 */
export function apiRouter(orm: MikroORM, services: Services, log: Logger, mount: (r: Router) => void): Router {
  const r = express.Router();
  r.use(express.json({ limit: '8mb' }));
  r.use(async (req, _res, next) => {
    try {
      const { token, viaCookie, device } = tokenFrom(req.headers);
      req.ctx = createContext(services, orm.em, null, { ip: req.ip ?? 'unknown', userAgent: req.get('user-agent'), token, deviceCookie: device, secure: req.secure });
      const user = (req.ctx.user = await services.sessions.resolve(req.ctx.em, token)); // one fork per request
      if (UNSAFE.has(req.method) && viaCookie) {
        const ct = (req.get('content-type') ?? '').toLowerCase();
        const nonSimple = ct.startsWith('application/json') || req.get('x-requested-with') || req.get('apollo-require-preflight');
        if (!nonSimple) throw new AppError('FORBIDDEN', 'CSRF対策のため、このリクエストは受け付けられません（JSONで送信してください）。');
      }
      const claimed = req.get('x-user-id');
      if (claimed !== undefined && user && claimed !== String(user.id)) {
        throw new AppError('FORBIDDEN', 'x-user-id がログイン中のユーザーと一致しません。');
      }
      // NUL anywhere in the query or a JSON body is refused here, before any service (a NUL in SQL text breaks the protocol).
      if (hasNul(req.query) || hasNul(req.body)) throw badInput(NUL_MESSAGE);
      // Every query parameter is one string: a repeated one (`?status=a&status=b`) is refused, not half-read.
      const repeated = Object.keys(req.query).filter((k) => typeof req.query[k] !== 'string');
      if (repeated.length) {
        throw badInput(
          `クエリパラメータ ${repeated.join(', ')} は1回だけ指定してください。`,
          repeated.map((field) => ({ field, message: '1つの値' })),
        );
      }
      next();
    } catch (err) {
      next(err);
    }
  });
  // A path that is a resource of its own (`/computers/export`) asked with a method it does not
  // answer is a 405, not a request to the `/computers/:id` beside it with the id "export".
  // OPTIONS answers with the same Allow.
  let literals = new Map<string, string[]>(); // read from the routes right after mount(r), below
  r.use((req, res, next) => {
    const literal = literals.get(literalKey(req.path));
    if (req.method === 'OPTIONS') {
      const allow = literal ?? allowedMethods(r, req.path);
      if (!allow.length) return next();
      res.setHeader('Allow', [...allow, 'OPTIONS'].sort().join(', '));
      res.status(204).end();
      return;
    }
    if (literal && !literal.includes(req.method)) return methodNotAllowed(req, res, literal);
    next();
  });
  mount(r);
  literals = literalRoutes(r);
  r.use((req, res) => {
    const allow = allowedMethods(r, req.path);
    if (allow.length) return methodNotAllowed(req, res, allow);
    res.status(404).json({ error: `${req.method} ${req.baseUrl}${req.path} は存在しません。`, code: 'NOT_FOUND' });
  });
  r.use(restErrorHandler(log));
  return r;
}
