import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { Logger } from 'pino';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createContext, type AppContext } from './context.js';
import { sessionCookieHeaders, tokenFrom } from './cookies.js';
import { rateLimitHeaders } from './rate-limit.js';
import { sendRevalidated, versionOfTag } from './conditional.js';
import { passwordChangeRequired, readOnlyKey } from './authz.js';
import {
  AppError,
  CONTROL_MESSAGE,
  DEPTH_MESSAGE,
  HTTP_STATUS,
  NUL_MESSAGE,
  badInput,
  toAppError,
  type ErrorCode,
  type FieldError,
} from './errors.js';
import { inputProblem } from './validation.js';
import { idempotency } from './idempotency.js';
import type { Services } from './services.js';

declare module 'express-serve-static-core' {
  interface Request {
    ctx?: AppContext;
  }
}

export type RouteHandler = (ctx: AppContext, req: Request, res: Response) => Promise<unknown>;

type Body = Record<string, unknown>;

/**
 * How one field of a service's input is read from a request body: the body's name for it (a string),
 * or the names it may come under, in the order they are read (the first one given wins), with how its
 * value is read. `read` gets the value of the first name the body has (`a ?? b`), the whole body and
 * the context.
 */
export type BodyField =
  string | { from: string | readonly string[]; read?: (value: unknown, body: Body, ctx: AppContext) => unknown };

/**
 * A resource's request body → service input table, read both ways: `read` builds the input from a
 * body; `nameOf` names a service input field (a field error's `field`) as the body named it, so a
 * `/api` caller hears `login_id` or `members.0`, never `loginId` or `memberIds.0`.
 */
export interface BodyTable<K extends string = string> {
  read(ctx: AppContext, body: Body): Promise<Record<K, unknown>>;
  nameOf(field: string, body: Body): string;
  /** Each service input field and the body names it is read from, first one first (docs/api.md's names table). */
  names(): { field: K; from: readonly string[] }[];
}

const namesOf = (f: BodyField): readonly string[] =>
  typeof f === 'string' ? [f] : typeof f.from === 'string' ? [f.from] : f.from;

export function bodyTable<K extends string>(fields: Record<K, BodyField>): BodyTable<K> {
  const entries = Object.entries(fields) as [K, BodyField][];
  return {
    async read(ctx, body) {
      const input = {} as Record<K, unknown>;
      for (const [key, f] of entries) {
        const value = namesOf(f).reduce<unknown>((v, name) => v ?? body[name], undefined);
        input[key] = typeof f !== 'string' && f.read ? await f.read(value, body, ctx) : value;
      }
      return input;
    },
    names: () => entries.map(([field, f]) => ({ field, from: namesOf(f) })),
    nameOf(field, body) {
      const [head, ...rest] = field.split('.');
      if (!Object.hasOwn(fields, head)) return field;
      const names = namesOf(fields[head as K]);
      const given = (n: string) => body[n] !== undefined && body[n] !== null && body[n] !== '';
      const name = names.find(given) ?? names.find((n) => body[n] !== undefined) ?? names[0];
      return [name, ...rest].join('.');
    },
  };
}

/** What `/api` knows of one resource: its REST record, and how a request body becomes the service's input. */
export interface RestResource<V, K extends string = string> {
  /** The REST record of a service view: what GET /{id} answers, what a write answers, and a 409's `current` (may read more, as the caller). */
  toApi(view: V, ctx: AppContext): unknown;
  body: BodyTable<K>;
  /** Who may write it, checked before the body is read (reading may look names up: others learn no more than 403). */
  guard?(ctx: AppContext): void;
}

export interface RouteOptions<V = never> {
  /** The success status (200). */
  status?: number;
  /** The route reads its body through this table: field errors name the body's fields. */
  body?: BodyTable;
  /** The route answers this resource: a 409's `current` (a service view) is answered as its REST record. */
  toApi?: (view: V, ctx: AppContext) => unknown;
  /** The route takes a multipart/form-data upload (other routes refuse one with 415). */
  upload?: boolean;
}

const UPLOAD = Symbol('upload');

/** Path parameters that are record ids. */
const ID_PARAMS = ['id', 'employee_id'];

/** An error thrown by a route, in the route's REST terms: field errors named as the body names them, `current` as the REST record. */
async function inRestTerms(
  err: unknown,
  opts: RouteOptions<unknown>,
  body: Body,
  ctx: AppContext | undefined,
): Promise<unknown> {
  if (!(err instanceof AppError) || (!opts.body && !opts.toApi)) return err;
  const { code: _code, ...ext } = err.extensions as Record<string, unknown>;
  if (opts.body && Array.isArray(ext.fieldErrors)) {
    const table = opts.body;
    ext.fieldErrors = (ext.fieldErrors as FieldError[]).map((f) => ({ ...f, field: table.nameOf(f.field, body) }));
  }
  if (opts.toApi && ctx && err.code === 'CONFLICT' && ext.current != null)
    ext.current = await opts.toApi(ext.current, ctx);
  return new AppError(err.code, err.message, ext);
}

const bodyOf = (req: Request): Body => (req.body && typeof req.body === 'object' ? (req.body as Body) : {});

/**
 * Wraps a thin route: the service's answer becomes JSON; a typed error becomes its HTTP status with
 * `{ error, code, fieldErrors? }` (in the route's REST terms, see RouteOptions); anything else is a
 * logged 500 without internals.
 */
export function handle<V = never>(fn: RouteHandler, options: number | RouteOptions<V> = {}) {
  const opts: RouteOptions<V> = typeof options === 'number' ? { status: options } : options;
  const route = async (req: Request, res: Response, next: NextFunction) => {
    try {
      const ctx = req.ctx!;
      const body = await fn(ctx, req, res);
      for (const c of sessionCookieHeaders(ctx.cookies, ctx.meta.secure === true)) res.append('Set-Cookie', c);
      if (!res.headersSent) {
        for (const [name, value] of rateLimitHeaders(ctx.meta)) res.setHeader(name, value);
        if (req.method === 'GET')
          sendRevalidated(
            req,
            res,
            opts.status ?? 200,
            'application/json; charset=utf-8',
            JSON.stringify(body) ?? '',
            undefined,
            (body as { version?: unknown } | null)?.version,
          );
        else res.status(opts.status ?? 200).json(body);
      }
    } catch (err) {
      next(await inRestTerms(err, opts as RouteOptions<unknown>, bodyOf(req), req.ctx).catch((e: unknown) => e));
    }
  };
  return Object.assign(route, { [UPLOAD]: opts.upload === true });
}

/**
 * A route that writes one resource: the body is read through the resource's table and the service's
 * view answers as its REST record; errors speak the same terms (see handle).
 */
export function writeRoute<V, K extends string>(
  resource: RestResource<V, K>,
  fn: (ctx: AppContext, input: Record<K, unknown>, req: Request) => Promise<V>,
  status = 200,
) {
  return handle<V>(
    async (ctx, req) => {
      resource.guard?.(ctx);
      return resource.toApi(await fn(ctx, await resource.body.read(ctx, bodyOf(req)), req), ctx);
    },
    {
      status,
      body: resource.body as BodyTable,
      toApi: resource.toApi,
    },
  );
}

/** Body-parser refusals by status: too large, a charset or encoding it cannot read, anything else malformed. */
const PARSER_ERRORS: Record<number, [ErrorCode, string]> = {
  400: ['BAD_USER_INPUT', 'リクエストの形式が正しくありません。'],
  413: ['PAYLOAD_TOO_LARGE', 'リクエストが大きすぎます。'],
  415: [
    'UNSUPPORTED_MEDIA_TYPE',
    'リクエストの文字コードまたは圧縮形式に対応していません（UTF-8 の JSON で送信してください）。',
  ],
};

export function restErrorHandler(log: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    // Body-parser errors (malformed JSON, too large) arrive with a status of their own.
    const status = (err as { status?: number; type?: string }).status;
    if (status && status >= 400 && status < 500 && !(err instanceof AppError)) {
      const [code, message] = PARSER_ERRORS[status] ?? PARSER_ERRORS[400];
      res.status(HTTP_STATUS[code]).json({ error: message, code });
      return;
    }
    // A browser that stops a download (a picture scrolled away, a closed tab) is not a failure.
    if (
      (err as NodeJS.ErrnoException | null)?.code === 'ERR_STREAM_PREMATURE_CLOSE' &&
      (res.headersSent || req.destroyed)
    ) {
      log.debug({ requestId: req.requestId, path: req.path }, 'download cut short by the client');
      if (!res.writableEnded) res.destroy();
      return;
    }
    const e = toAppError(err);
    if (e.code === 'INTERNAL_SERVER_ERROR')
      log.error({ err, requestId: req.requestId, method: req.method, path: req.path }, 'api request failed');
    if (e.code === 'SERVICE_UNAVAILABLE')
      log.warn(
        { err: (err as Error).message, requestId: req.requestId, method: req.method, path: req.path },
        'api request failed: database unavailable',
      );
    const { code: _code, ...extensions } = e.extensions as Record<string, unknown>;
    if (typeof extensions.retryAfterSeconds === 'number') {
      res.setHeader('Retry-After', String(extensions.retryAfterSeconds));
    }
    for (const [name, value] of rateLimitHeaders(req.ctx?.meta)) res.setHeader(name, value);
    res.status(HTTP_STATUS[e.code]).json({ error: e.message, code: e.code, ...extensions });
  };
}

interface RouteLayer {
  route?: { path: string; methods: Record<string, boolean>; stack: { handle: unknown }[] };
  match(path: string): boolean;
}

const routeLayers = (r: Router) => (r as unknown as { stack: RouteLayer[] }).stack.filter((l) => l.route);

/** The methods of some routes, as an Allow header lists them (HEAD with GET). */
function methodsOf(layers: RouteLayer[]): string[] {
  const methods = new Set<string>();
  for (const l of layers)
    for (const [m, on] of Object.entries(l.route!.methods)) if (on && m !== '_all') methods.add(m.toUpperCase());
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
  res.status(405).json({
    error: `${req.baseUrl}${req.path} に ${req.method} は使えません（${allow.join(', ')}）。`,
    code: 'METHOD_NOT_ALLOWED' satisfies ErrorCode,
  });
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/** A request with a non-empty body (a chunked one counts: its length is not known in advance). */
const hasBody = (req: Request) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/**
 * What is wrong with a write's body, if anything: content that is neither JSON nor (on an upload
 * route) multipart/form-data is a 415 rather than being read as an empty body; JSON that is not an
 * object (an array, a string, null) is a 400. `routes` are the routes that answer the request.
 */
function bodyProblem(req: Request, routes: () => RouteLayer[]): AppError | null {
  if (!WITH_BODY.has(req.method) || !hasBody(req)) return null;
  if (req.is('application/json')) {
    const b: unknown = req.body;
    if (b !== undefined && (b === null || typeof b !== 'object' || Array.isArray(b))) {
      return badInput('リクエストの本文は JSON オブジェクト（{ … }）で送信してください。', [
        { field: '_', message: 'JSON オブジェクト' },
      ]);
    }
    return null;
  }
  const upload = routes().some((l) => l.route!.stack.some((s) => (s.handle as Record<symbol, boolean>)[UPLOAD]));
  if (upload && req.is('multipart/form-data')) return null;
  const sent = req.get('content-type') ? `Content-Type「${req.get('content-type')}」の本文` : 'Content-Type のない本文';
  const want = upload ? 'JSON（application/json）か multipart/form-data' : 'JSON（Content-Type: application/json）';
  return new AppError('UNSUPPORTED_MEDIA_TYPE', `${sent}は受け付けられません。${want}で送信してください。`);
}

/**
 * CSRF defence for a cookie-signed write: it must be a non-simple request (JSON content type or an
 * X-Requested-With header), which a cross-site form, link or image cannot send. Bearer tokens are
 * not sent by browsers on their own. The router applies it to every unsafe method; a write the spec
 * puts behind GET (the blog's toggles) calls it itself.
 */
export function checkCrossSiteSafe(req: Request): void {
  if (!tokenFrom(req.headers, { cookies: req.fromOwnOrigin === true }).viaCookie) return;
  const ct = (req.get('content-type') ?? '').toLowerCase();
  const nonSimple =
    ct.startsWith('application/json') || req.get('x-requested-with') || req.get('apollo-require-preflight');
  if (!nonSimple)
    throw new AppError('FORBIDDEN', 'CSRF対策のため、このリクエストは受け付けられません（JSONで送信してください）。');
}

/**
 * The `/api` router: JSON bodies (objects only; another content type is a 415, see bodyProblem),
 * the request context (session from cookie or bearer), CSRF defence for cookie-authenticated writes
 * (they must be non-simple requests: JSON content type or an X-Requested-With header, which a
 * cross-site form cannot send), and the rule that an `x-user-id` header, if a caller still sends
 * one, must name the signed-in user.
 */
export function apiRouter(orm: MikroORM, services: Services, log: Logger, mount: (r: Router) => void): Router {
  const r = express.Router();
  r.use(express.json({ limit: '8mb', strict: false })); // not only objects: a body that is not one gets its own 400 below
  r.use(async (req, _res, next) => {
    try {
      const { token, device, viaCookie } = tokenFrom(req.headers, { cookies: req.fromOwnOrigin === true });
      req.ctx = createContext(services, orm.em, null, {
        ip: req.ip ?? 'unknown',
        requestId: req.requestId,
        userAgent: req.get('user-agent'),
        token,
        deviceCookie: device,
        secure: req.secure,
      });
      const user = (req.ctx.user = await services.sessions.resolve(req.ctx.em, token, {
        cookie: viaCookie,
        ip: req.ctx.meta.ip,
      })); // one fork per request
      if (UNSAFE.has(req.method)) checkCrossSiteSafe(req);
      if (user?.mustChangePassword && !req.path.startsWith('/auth/')) throw passwordChangeRequired();
      if (user?.readOnly && !['GET', 'HEAD', 'OPTIONS'].includes(req.method)) throw readOnlyKey();
      const claimed = req.get('x-user-id');
      if (claimed !== undefined && user && claimed !== String(user.id)) {
        throw new AppError('FORBIDDEN', 'x-user-id がログイン中のユーザーと一致しません。');
      }
      // NUL or another control character anywhere in the query or a JSON body is refused here,
      // before any service (validation.ts says why), and so is a body nested deeper than any real input.
      const problem = inputProblem(req.query) ?? inputProblem(req.body);
      // If-Match with a record's tag stands for the body's version (conditional.ts); the body's own wins.
      const ifMatch = req.get('if-match');
      if (ifMatch !== undefined && (req.method === 'PUT' || req.method === 'PATCH')) {
        const version = versionOfTag(ifMatch);
        if (version === null)
          throw badInput('If-Match には、この記録の GET が返した ETag を指定してください。', [
            { field: 'If-Match', message: '記録の ETag' },
          ]);
        if (
          req.body &&
          typeof req.body === 'object' &&
          !Array.isArray(req.body) &&
          (req.body as Body).version === undefined
        )
          (req.body as Body).version = version;
      }
      if (problem)
        throw badInput(problem === 'nul' ? NUL_MESSAGE : problem === 'control' ? CONTROL_MESSAGE : DEPTH_MESSAGE);
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
  // A body the route cannot read is refused before it runs (not read as empty, which would answer
  // "please enter the name"); only for a request some route answers, so 404 and 405 stay as they are.
  r.use((req, _res, next) => {
    let routes: RouteLayer[] | undefined;
    const answering = () =>
      (routes ??= routeLayers(r).filter((l) => l.match(req.path) && l.route!.methods[req.method.toLowerCase()]));
    const problem = bodyProblem(req, answering);
    next(problem && answering().length ? problem : undefined);
  });
  // A POST with an Idempotency-Key runs once per person and key (idempotency.ts).
  r.use(idempotency(log));
  // Ids in paths are decimal digits and nothing else: Number() would read 0x1, 1e0, +1, 1.0 and
  // " 1" as 1, so one record would answer to many spellings of its address.
  for (const name of ID_PARAMS) {
    r.param(name, (_req, _res, next, value: string) =>
      next(
        /^[0-9]+$/.test(value)
          ? undefined
          : badInput(`パスの ${name} が正しくありません（数字だけで指定してください）。`, [
              { field: name, message: '正の整数' },
            ]),
      ),
    );
  }
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
