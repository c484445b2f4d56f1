import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import { NoSchemaIntrospectionCustomRule, type GraphQLSchema } from 'graphql';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from './config/config.js';
import { createContext, type AppContext } from './platform/context.js';
import { AppError } from './platform/errors.js';
import { sessionCookieHeaders, tokenFrom } from './platform/cookies.js';
import { rateLimitHeaders } from './platform/rate-limit.js';
import { cors, requestOrigin } from './platform/origins.js';
import { errorLogPlugin, formatGraphqlError, inputGuardPlugin } from './platform/graphql-guards.js';
import { idempotencyPlugin } from './platform/idempotency.js';
import { readiness, type ReadyCheck } from './platform/readiness.js';
import { graphqlWebSocket } from './platform/live/graphql-ws.js';
import { jitGateway } from './platform/jit-executor.js';
import { livePositionPlugin } from './platform/live/position.js';
import { scheduleGridCacheEndpoints } from './modules/schedules/schedule.grid-cache.plugin.js';
import type { LiveSockets } from './platform/live/sockets.js';
import { apiRouter } from './platform/rest.js';
import { requestIds, securityHeaders } from './platform/http-headers.js';
import type { Services } from './platform/services.js';
import { pendingMigrations } from './db/orm.js';
import { mountApiRoutes } from './platform/api-routes.js';
import { listCostPlugin } from './platform/graphql-list-cost.js';
import { repoRoot } from './platform/paths.js';
import { webApp } from './platform/web-app.js';

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
    // The token limit is graphql-js's own parser option (parseOptions below): armor's plugin parses
    // a second time and turns every syntax error into a 500.
    maxTokens: { enabled: false },
    maxDirectives: { n: 20 },
    // Its plugin rewrites error messages in place, which fails on frozen errors; the formatter
    // masks suggestions instead (maskSuggestions).
    blockFieldSuggestion: { enabled: false },
  }).protect();
}

export async function startServer(opts: {
  config: Config;
  orm: MikroORM;
  schema: GraphQLSchema;
  services: Services;
  sockets: LiveSockets;
  log: Logger;
  port?: number;
  /** The events' checks for /readyz (the outbox; with Kafka, the live feed). */
  readyChecks?: Record<string, ReadyCheck>;
}): Promise<AppServer> {
  const { config, orm, schema, services, log } = opts;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false); // /api reads tag their own answers (platform/conditional.ts); the rest are not revalidated
  app.set('trust proxy', config.TRUST_PROXY ? 1 : false);
  const httpServer = http.createServer(app);
  const armor = armorFor(config);
  const introspection = !config.isProduction || config.GRAPHQL_INTROSPECTION;
  const validationRules = [...armor.validationRules, ...(introspection ? [] : [NoSchemaIntrospectionCustomRule])];

  // --- HTTP GraphQL: Apollo with graphql-jit as executor, armor limits, CSRF prevention on.
  const cookiePlugin: ApolloServerPlugin<AppContext> = {
    async requestDidStart() {
      return {
        async willSendResponse({ contextValue, response }) {
          // Apollo's HeaderMap holds one value per name, so Set-Cookie lines go straight to the response.
          contextValue.cookies.write?.(sessionCookieHeaders(contextValue.cookies, contextValue.meta.secure === true));
          for (const [name, value] of rateLimitHeaders(contextValue.meta))
            response.http.headers.set(name.toLowerCase(), value);
        },
      };
    },
  };
  // Week-grid answers from the cache: Apollo keeps and serves them; a POST hit skips Apollo.
  const gridCache = scheduleGridCacheEndpoints(services.scheduleGridCache, (token) =>
    services.sessions.resolve(orm.em.fork(), token),
  );
  const apollo = new ApolloServer<AppContext>({
    gateway: jitGateway(schema),
    introspection,
    csrfPrevention: true,
    // Cache hints are unused; the cache-control plugin would wrap every field resolver (and keep
    // graphql-jit from inlining them).
    plugins: [
      ...armor.plugins,
      cookiePlugin,
      inputGuardPlugin,
      listCostPlugin(config.GRAPHQL_MAX_LIST_COST),
      errorLogPlugin(log),
      idempotencyPlugin(log),
      livePositionPlugin,
      gridCache.plugin,
      ApolloServerPluginDrainHttpServer({ httpServer }),
      ApolloServerPluginCacheControlDisabled(),
    ] as ApolloServerPlugin<AppContext>[],
    validationRules,
    parseOptions: { maxTokens: config.GRAPHQL_MAX_TOKENS },
    allowBatchedHttpRequests: false,
    includeStacktraceInErrorResponses: false,
    formatError: formatGraphqlError,
  });
  await apollo.start();

  // --- WebSocket: graphql-ws on /graphql, authenticated from the same session, Origin checked.
  const ws = graphqlWebSocket({ config, orm, schema, services, log, apollo, sockets: opts.sockets, validationRules });
  httpServer.on('upgrade', (req, socket, head) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    const origin = requestOrigin(config, req.headers);
    req.fromOwnOrigin = origin === 'own';
    if (pathname !== '/graphql' || origin === 'refused') {
      socket.write('HTTP/1.1 403 Forbidden\r\n\r\n');
      socket.destroy();
      return;
    }
    ws.handleUpgrade(req, socket, head);
  });

  app.use((req, _res, next) => {
    req.fromOwnOrigin = requestOrigin(config, req.headers) === 'own';
    next();
  });
  app.use(requestIds, securityHeaders);
  app.use(['/api', '/graphql'], cors(config));

  // One structured line per request (health probes excluded); not even timed when the level drops it.
  if (log.isLevelEnabled('info'))
    app.use((req, res, next) => {
      if (req.path === '/healthz' || req.path === '/readyz') return next();
      const started = process.hrtime.bigint();
      res.on('finish', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        log.info(
          {
            requestId: req.requestId,
            method: req.method,
            path: req.path,
            status: res.statusCode,
            ms: Math.round(ms * 10) / 10,
          },
          'request',
        );
      });
      next();
    });

  app.get('/healthz', async (_req, res) => {
    try {
      await orm.em.getConnection().execute('select 1');
      const pending = await pendingMigrations(orm);
      const ok = pending.length === 0;
      res
        .status(ok ? 200 : 503)
        .json({ status: ok ? 'ok' : 'migrations_pending', database: 'ok', pendingMigrations: pending });
    } catch (err) {
      log.warn({ err }, 'healthz: database unreachable');
      res.status(503).json({ status: 'error', database: 'unreachable' });
    }
  });

  // Readiness (readiness.ts): 200 when the instance can do its work, else 503 with the reasons.
  app.get('/readyz', async (_req, res) => {
    const report = await readiness({
      database: async () => {
        await orm.em.getConnection().execute('select 1');
        const pending = await pendingMigrations(orm);
        return pending.length ? `${pending.length} migrations not applied` : null;
      },
      ...opts.readyChecks,
    });
    res
      .status(report.ready ? 200 : 503)
      .json({ status: report.ready ? 'ready' : 'degraded', reasons: report.reasons, checks: report.checks });
  });

  app.use(
    '/graphql',
    express.json({ limit: '2mb' }),
    gridCache.hits,
    expressMiddleware(apollo, {
      context: async ({ req, res }) => {
        const { token, device, viaCookie } = tokenFrom(req.headers, { cookies: req.fromOwnOrigin === true });
        const ctx = createContext(services, orm.em, null, {
          ip: req.ip ?? 'unknown',
          requestId: req.requestId,
          userAgent: req.get('user-agent'),
          token,
          deviceCookie: device,
          secure: req.secure,
        });
        // One EntityManager fork per request. A refusal (wrong API keys past the limit) is the operation's answer (inputGuardPlugin).
        ctx.user = await services.sessions
          .resolve(ctx.em, token, { cookie: viaCookie, ip: ctx.meta.ip })
          .catch((err: unknown) => {
            if (!(err instanceof AppError)) throw err;
            ctx.meta.authError = err;
            return null;
          });
        ctx.cookies.write = (headers) => headers.forEach((h) => res.append('Set-Cookie', h));
        return ctx;
      },
    }),
    graphqlBodyError,
  );

  app.use('/api', apiRouter(orm, services, log, mountApiRoutes));

  // --- The web app (built by `npm run build:web`): precompressed files, client-side routes falling back to index.html.
  if (fs.existsSync(path.join(WEB_DIST, 'index.html'))) {
    app.use(webApp(WEB_DIST));
  } else {
    app.get('/', (_req, res) => {
      res.status(503).type('text').send('The web app is not built. Run `npm run build:web` (npm start does it).');
    });
  }

  // Whatever fails outside the handlers above answers without a stack trace or a path.
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const status = (err as { status?: number }).status;
    if (!status || status >= 500) log.error({ err, requestId: req.requestId, path: req.path }, 'request failed');
    if (res.headersSent) return void res.end();
    res.status(status && status >= 400 && status < 600 ? status : 500).json({
      error: status && status < 500 ? 'リクエストの形式が正しくありません。' : 'サーバーでエラーが発生しました。',
      code: status && status < 500 ? 'BAD_REQUEST' : 'INTERNAL_SERVER_ERROR',
    });
  });

  const port = opts.port ?? config.PORT;
  await new Promise<void>((resolve) => httpServer.listen(port, config.HOST, resolve));
  const address = httpServer.address() as import('node:net').AddressInfo;
  const url = `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${address.port}`;
  return {
    http: httpServer,
    url,
    close: async () => {
      await ws.close();
      await apollo.stop();
      await new Promise<void>((r) => httpServer.close(() => r()));
    },
  };
}

/** A /graphql body that is not JSON (or too large) answers as GraphQL does, not with Express's HTML page. */
function graphqlBodyError(err: unknown, _req: Request, res: Response, next: NextFunction) {
  const status = (err as { status?: number }).status;
  if (!status || status >= 500) return next(err);
  const message = status === 413 ? 'リクエストが大きすぎます。' : 'リクエストの本文を JSON として読めません。';
  res
    .status(status)
    .json({ errors: [{ message, extensions: { code: status === 413 ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST' } }] });
}
