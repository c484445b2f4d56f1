import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import express from 'express';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import { MaxTokensParserWLexer } from '@escape.tech/graphql-armor-max-tokens';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import { GraphQLError, specifiedRules, validate, visit, type GraphQLFormattedError, NoSchemaIntrospectionCustomRule, type DocumentNode, type GraphQLSchema, type ValidationRule } from 'graphql';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from './config/config.js';
import { createContext, type AppContext } from './platform/context.js';
import { sessionCookieHeaders, tokenFrom } from './platform/cookies.js';
import { AppError, NUL_MESSAGE, toAppError } from './platform/errors.js';
import { hasNul } from './platform/validation.js';
import { jitGateway } from './platform/jit-executor.js';
import { directFrames, subscribeShared } from './platform/live-execution.js';
import { apiRouter } from './platform/rest.js';
import type { Services } from './platform/services.js';
import { pendingMigrations } from './db/orm.js';
import { mountApiRoutes } from './platform/api-routes.js';
import { repoRoot } from './platform/paths.js';

export const WEB_DIST = path.join(repoRoot(import.meta.url), 'web/dist');

export interface AppServer {
  http: http.Server;
  url: string;
  close(): Promise<void>;
}

function armorFor(config: Config) {
  return new ApolloArmor({
    maxDepth: { n: config.GRAPHQL_MAX_DEPTH },
    maxAliases: { n: config.GRAPHQL_MAX_ALIASES },
    costLimit: { maxCost: config.GRAPHQL_MAX_COST },
    maxTokens: { n: config.GRAPHQL_MAX_TOKENS },
    maxDirectives: { n: 20 },
    // Its plugin rewrites error messages in place, which fails on frozen errors; formatError and
    // the WebSocket path mask suggestions instead (maskSuggestions).
    blockFieldSuggestion: { enabled: false },
  }).protect();
}

/** A NUL character in a string literal of the document. */
function hasNulLiteral(doc: DocumentNode): boolean {
  let found = false;
  visit(doc, { StringValue: (n) => void (found ||= n.value.includes('\u0000')) });
  return found;
}

/** Suggestions ("Did you mean …?") leak the schema; strip them everywhere. */
const maskSuggestions = (message: string) => message.replace(/\s*Did you mean[^?]*\?/g, '');

/**
 * Apollo's formatError: typed errors keep their code and message; validation, parse and limit
 * errors are the caller's; anything else is ours, logged, and answered without internals.
 */
export function graphqlErrorFormatter(log: Logger) {
  return (formatted: GraphQLFormattedError, err: unknown): GraphQLFormattedError => {
    const e = toAppError(err);
    if (e.code === 'INTERNAL_SERVER_ERROR') {
      const code = formatted.extensions?.code;
      if (code && code !== 'INTERNAL_SERVER_ERROR') return { ...formatted, message: maskSuggestions(formatted.message) };
      log.error({ err }, 'graphql resolver failed');
      return { message: e.message, extensions: { code: e.code }, path: formatted.path, locations: formatted.locations };
    }
    const { http: _http, ...extensions } = e.extensions; // the status hint is Apollo's, not the caller's
    // e.message, not formatted.message: for a database error mapped to BAD_USER_INPUT the latter is the driver's SQL text.
    return { ...formatted, message: maskSuggestions(e.message), extensions };
  };
}

function originAllowed(config: Config, origin: string | undefined, host: string | undefined): boolean {
  if (!origin) return true; // non-browser clients send no Origin; they still need a session
  try {
    const o = new URL(origin);
    if (host && o.host === host) return true;
    return config.allowedOrigins.includes(o.origin);
  } catch {
    return false;
  }
}

export async function startServer(opts: {
  config: Config;
  orm: MikroORM;
  schema: GraphQLSchema;
  services: Services;
  log: Logger;
  port?: number;
}): Promise<AppServer> {
  const { config, orm, schema, services, log } = opts;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false); // API answers are not cacheable; hashing every body costs CPU
  app.set('trust proxy', config.TRUST_PROXY ? 1 : false);
  const httpServer = http.createServer(app);
  const armor = armorFor(config);
  const introspection = !config.isProduction || config.GRAPHQL_INTROSPECTION;

  // --- WebSocket: graphql-ws on /graphql, authenticated from the same session, Origin checked.
  const wss = new WebSocketServer({ noServer: true });
  const wsRules: ValidationRule[] = [...specifiedRules, ...armor.validationRules, ...(introspection ? [] : [NoSchemaIntrospectionCustomRule])];
  // Parsed and validated documents by query text: thousands of open tabs send the same few documents,
  // and sharing the document object lets live-execution.ts reuse one result per visibility class.
  const documents = new Map<string, DocumentNode>();
  const wsCleanup = useServer<Record<string, unknown>, { ctx?: AppContext }>(
    {
      schema,
      onConnect: async (c) => {
        const req = c.extra.request;
        // Browsers authenticate with the session cookie; tools may pass { authorization: 'Bearer …' }.
        const param = (c.connectionParams as { authorization?: unknown } | undefined)?.authorization;
        const { token } = tokenFrom(typeof param === 'string' ? { authorization: param } : req.headers);
        const em = orm.em.fork();
        const user = await services.sessions.resolve(em, token);
        if (!user) return false;
        c.extra.ctx = createContext(services, em, user, { ip: req.socket.remoteAddress ?? 'unknown', token });
        return true;
      },
      subscribe: subscribeShared,
      onSubscribe: (c, id, payload) => {
        let document = documents.get(payload.query);
        if (!document) {
          try {
            document = new MaxTokensParserWLexer(payload.query, { n: config.GRAPHQL_MAX_TOKENS }).parseDocument();
          } catch (err) {
            return [err instanceof GraphQLError ? err : new GraphQLError('Syntax Error')];
          }
          const errors = validate(schema, document, wsRules);
          if (errors.length) return errors.map((e) => new GraphQLError(maskSuggestions(e.message), { nodes: e.nodes }));
          if (documents.size >= 500) documents.delete(documents.keys().next().value!);
          documents.set(payload.query, document);
        }
        const base = c.extra.ctx!;
        const contextValue = createContext(services, orm.em, base.user, base.meta);
        directFrames(contextValue, c.extra.socket, id);
        return {
          schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue,
        };
      },
    },
    wss,
  );
  httpServer.on('upgrade', (req, socket, head) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    if (pathname !== '/graphql' || !originAllowed(config, req.headers.origin, req.headers.host)) {
      socket.write('HTTP/1.1 403 Forbidden\r\n\r\n');
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  // --- HTTP GraphQL: Apollo with graphql-jit as executor, armor limits, CSRF prevention on.
  const cookiePlugin: ApolloServerPlugin<AppContext> = {
    async requestDidStart() {
      return {
        async willSendResponse({ contextValue }) {
          // Apollo's HeaderMap holds one value per name, so Set-Cookie lines go straight to the response.
          contextValue.cookies.write?.(sessionCookieHeaders(contextValue.cookies, contextValue.meta.secure === true));
        },
      };
    },
  };
  // PostgreSQL text cannot hold NUL: a string argument or variable with one is refused before anything runs.
  const nulPlugin: ApolloServerPlugin<AppContext> = {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document }) {
          // A NUL in a literal can only be written as a \u escape, so most documents need no walk.
          const escapes = request.query === undefined || request.query.includes('\\u');
          if (hasNul(request.variables) || (escapes && hasNulLiteral(document))) {
            // Refused before execution, so Apollo answers with this status (a 500 without it).
            throw new AppError('BAD_USER_INPUT', NUL_MESSAGE, { fieldErrors: [], http: { status: 400 } });
          }
        },
      };
    },
  };
  const apollo = new ApolloServer<AppContext>({
    gateway: jitGateway(schema),
    introspection,
    csrfPrevention: true,
    // Cache hints are unused; the cache-control plugin would wrap every field resolver (and keep
    // graphql-jit from inlining them).
    plugins: [...armor.plugins, cookiePlugin, nulPlugin, ApolloServerPluginDrainHttpServer({ httpServer }), ApolloServerPluginCacheControlDisabled()] as ApolloServerPlugin<AppContext>[],
    validationRules: armor.validationRules,
    allowBatchedHttpRequests: false,
    includeStacktraceInErrorResponses: false,
    formatError: graphqlErrorFormatter(log),
  });
  await apollo.start();

  // One structured line per request (health probes excluded); not even timed when the level drops it.
  if (log.isLevelEnabled('info')) app.use((req, res, next) => {
    if (req.path === '/healthz') return next();
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log.info({ method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
    next();
  });

  app.get('/healthz', async (_req, res) => {
    try {
      await orm.em.getConnection().execute('select 1');
      const pending = await pendingMigrations(orm);
      const ok = pending.length === 0;
      res.status(ok ? 200 : 503).json({ status: ok ? 'ok' : 'migrations_pending', database: 'ok', pendingMigrations: pending });
    } catch (err) {
      log.warn({ err }, 'healthz: database unreachable');
      res.status(503).json({ status: 'error', database: 'unreachable' });
    }
  });

  app.use(
    '/graphql',
    express.json({ limit: '2mb' }),
    expressMiddleware(apollo, {
      context: async ({ req, res }) => {
        const { token, device } = tokenFrom(req.headers);
        const ctx = createContext(services, orm.em, null, { ip: req.ip ?? 'unknown', userAgent: req.get('user-agent'), token, deviceCookie: device, secure: req.secure });
        ctx.user = await services.sessions.resolve(ctx.em, token); // one EntityManager fork per request
        ctx.cookies.write = (headers) => headers.forEach((h) => res.append('Set-Cookie', h));
        return ctx;
      },
    }),
  );

  app.use(
    '/api',
    apiRouter(orm, services, log, mountApiRoutes),
  );

  // --- The web app (built by `npm run build:web`), with client-side routes falling back to index.html.
  if (fs.existsSync(path.join(WEB_DIST, 'index.html'))) {
    app.use(express.static(WEB_DIST, { index: false, maxAge: '1h', setHeaders: (res, p) => {
      if (p.includes(`${path.sep}assets${path.sep}`)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    } }));
    app.get(/.*/, (_req, res) => {
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(path.join(WEB_DIST, 'index.html'));
    });
  } else {
    app.get('/', (_req, res) => {
      res.status(503).type('text').send('The web app is not built. Run `npm run build:web` (npm start does it).');
    });
  }

  const port = opts.port ?? config.PORT;
  await new Promise<void>((resolve) => httpServer.listen(port, config.HOST, resolve));
  const address = httpServer.address() as import('node:net').AddressInfo;
  const url = `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${address.port}`;
  return {
    http: httpServer,
    url,
    close: async () => {
      await wsCleanup.dispose();
      await apollo.stop();
      await new Promise<void>((r) => httpServer.close(() => r()));
    },
  };
}
