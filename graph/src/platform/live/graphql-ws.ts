import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import type { ApolloServer } from '@apollo/server';
import {
  GraphQLError,
  getOperationAST,
  getVariableValues,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../../config/config.js';
import { createContext, type AppContext, type RequestMeta } from '../context.js';
import { tokenFrom } from '../cookies.js';
import { AppError, unauthenticated } from '../errors.js';
import { formatGraphqlError, logInternalErrors, maskSuggestions, operationInputError } from '../graphql-guards.js';
import { directFrames, subscribeShared } from './execution.js';
import { SESSION_ENDED, type LiveSocket, type LiveSockets } from './sockets.js';
import type { Services } from '../services.js';

type SocketExtra = {
  live?: LiveSocket;
  meta?: RequestMeta;
  /** Set when the socket closed: a connection check still awaiting the session must not register it then. */
  closed?: boolean;
};

/** Query text of operations that go through Apollo (queries and mutations), by their context. */
const apolloQueries = new WeakMap<object, { query: string; variables?: Record<string, unknown> | null }>();

/** Marks an Apollo result whose errors are already formatted (and logged). */
const FORMATTED = Symbol('formatted errors');

/**
 * GraphQL over WebSocket (graphql-ws) on /graphql. Every operation runs with the session as it is
 * now (resolved again per operation; a socket whose session is gone is closed with 4401):
 *   - queries and mutations run through Apollo (`executeOperation`): the very pipeline of HTTP,
 *     with its parser limits, validation rules, input guard, executor, error formatting and logging;
 *   - subscriptions, which Apollo does not run, go through execution.ts with the same validation
 *     rules, input guard and error formatter.
 * Sockets and operations per user are bounded (LiveSockets).
 */
export function graphqlWebSocket(opts: {
  config: Config;
  orm: MikroORM;
  schema: GraphQLSchema;
  services: Services;
  log: Logger;
  apollo: ApolloServer<AppContext>;
  sockets: LiveSockets;
  validationRules: ValidationRule[];
}) {
  const { config, orm, schema, services, log, apollo, sockets } = opts;
  const wss = new WebSocketServer({ noServer: true });
  const rules = [...specifiedRules, ...opts.validationRules];
  // Parsed documents by query text (`validated`: a subscription that passed the rules): thousands of
  // open tabs send the same few, and sharing the document object lets execution.ts reuse one
  // result per visibility class. Bounded; the oldest entry goes first.
  const documents = new Map<string, { document: DocumentNode; validated: boolean }>();

  const format = (errors: readonly GraphQLError[], requestId: string | undefined, operationName?: string | null) => {
    logInternalErrors(log, errors, requestId, operationName);
    return errors.map((e) => formatGraphqlError(e.toJSON(), e));
  };

  const cleanup = useServer<Record<string, unknown>, SocketExtra>(
    {
      schema,
      onConnect: async (c) => {
        const req = c.extra.request;
        // The platform's pages authenticate with the session cookie; tools (and pages of a listed origin) pass { authorization: 'Bearer …' }.
        const param = (c.connectionParams as { authorization?: unknown } | undefined)?.authorization;
        const { token, viaCookie } = tokenFrom(typeof param === 'string' ? { authorization: param } : req.headers, {
          cookies: req.fromOwnOrigin === true,
        });
        const user = await services.sessions
          .resolve(orm.em.fork(), token, { cookie: viaCookie, ip: req.socket.remoteAddress ?? 'unknown' })
          .catch(() => null);
        // Closed while the session was read (a page left while connecting): onClose has run already,
        // so registering it now would keep its place among the user's sockets for good.
        if (c.extra.closed) return false;
        if (!user || !token) return false;
        const live: LiveSocket = {
          socket: c.extra.socket,
          token,
          sessionId: user.sessionId,
          employeeId: user.id,
          operations: () => Object.keys(c.subscriptions).length,
        };
        if (!sockets.add(live)) {
          c.extra.socket.close(4429, `Too many open connections (at most ${sockets.limits.socketsPerUser})`);
          return false;
        }
        c.extra.live = live;
        c.extra.meta = { ip: req.socket.remoteAddress ?? 'unknown', userAgent: req.headers['user-agent'], token };
        return true;
      },
      onClose: (c) => {
        c.extra.closed = true;
        if (c.extra.live) sockets.remove(c.extra.live);
      },
      onSubscribe: async (c, id, payload) => {
        const live = c.extra.live!;
        const requestId = `ws-${randomUUID()}`;
        const refusal = sockets.operationRefusal(live);
        if (refusal) {
          const limit =
            refusal === 'socket'
              ? `1つの接続で同時に${sockets.limits.operationsPerSocket}件`
              : `1人あたり同時に${sockets.limits.operationsPerUser}件`;
          return [
            new AppError(
              'TOO_MANY_REQUESTS',
              `リアルタイム更新の購読が多すぎます（${limit}まで）。画面を閉じてから再度お試しください。`,
              { retryAfterSeconds: 1 },
            ),
          ];
        }
        const user = await services.sessions.resolve(orm.em.fork(), live.token);
        if (!user) {
          setImmediate(() => sockets.close(live, SESSION_ENDED)); // after this operation's error frame
          return [unauthenticated()];
        }
        const contextValue = createContext(services, orm.em, user, { ...c.extra.meta!, requestId });
        let entry = documents.get(payload.query);
        if (!entry) {
          try {
            entry = { document: parse(payload.query, { maxTokens: config.GRAPHQL_MAX_TOKENS }), validated: false };
          } catch (err) {
            return [
              new GraphQLError(err instanceof GraphQLError ? err.message : 'Syntax Error', {
                extensions: { code: 'GRAPHQL_PARSE_FAILED' },
              }),
            ];
          }
          if (documents.size >= 500) documents.delete(documents.keys().next().value!);
          documents.set(payload.query, entry);
        }
        const { document } = entry;
        const operation = getOperationAST(document, payload.operationName);
        if (!operation)
          return [
            new GraphQLError('実行する操作を特定できません（operationName を指定してください）。', {
              extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
            }),
          ];
        if (operation.operation !== 'subscription') {
          // Apollo validates it (from its own cache), exactly as over HTTP.
          apolloQueries.set(contextValue, { query: payload.query, variables: payload.variables });
          return {
            schema,
            document,
            operationName: payload.operationName,
            variableValues: payload.variables,
            contextValue,
          };
        }
        if (!entry.validated) {
          const errors = validate(schema, document, rules);
          if (errors.length)
            return errors.map(
              (e) =>
                new GraphQLError(maskSuggestions(e.message), {
                  nodes: e.nodes,
                  extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
                }),
            );
          entry.validated = true;
        }
        const inputError = operationInputError(payload.query, payload.variables, document);
        if (inputError) return [inputError];
        // Variables are the caller's: coerced here, so a badly typed one is BAD_USER_INPUT, as Apollo answers over HTTP.
        const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], payload.variables ?? {}, {
          maxErrors: 25,
        });
        if (coerced.errors)
          return coerced.errors.map(
            (e) =>
              new GraphQLError(maskSuggestions(e.message), { nodes: e.nodes, extensions: { code: 'BAD_USER_INPUT' } }),
          );
        const position = (payload.extensions as { livePosition?: unknown } | undefined)?.livePosition === true;
        directFrames(
          contextValue,
          c.extra.socket,
          id,
          (errors) => format(errors, requestId, payload.operationName),
          position,
        );
        return {
          schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue,
        };
      },
      execute: async (args: ExecutionArgs): Promise<ExecutionResult> => {
        const ctx = args.contextValue as AppContext;
        const request = apolloQueries.get(ctx)!;
        const res = await apollo.executeOperation(
          {
            query: request.query,
            variables: request.variables ?? undefined,
            operationName: args.operationName ?? undefined,
          },
          { contextValue: ctx },
        );
        if (res.body.kind !== 'single') throw new Error('incremental delivery is not supported over WebSocket');
        const { data, errors, extensions } = res.body.singleResult;
        // Already formatted (and logged) by Apollo: plain objects, sent as they are by onNext.
        return { data: data as ExecutionResult['data'], extensions, [FORMATTED]: errors ?? [] } as ExecutionResult;
      },
      subscribe: subscribeShared,
      onNext: (c, _id, payload, args, result) => {
        const formatted = (result as { [FORMATTED]?: readonly GraphQLFormattedError[] })[FORMATTED];
        if (formatted)
          return {
            data: result.data,
            ...(formatted.length ? { errors: formatted } : {}),
            ...(result.extensions ? { extensions: result.extensions } : {}),
          };
        if (!result.errors?.length) return undefined;
        return {
          ...result,
          errors: format(result.errors, (args.contextValue as AppContext).meta.requestId, payload.operationName),
        };
      },
      onError: (_c, _id, payload, errors) => format(errors, undefined, payload.operationName),
    },
    wss,
  );

  // A session ended anywhere (an event may be late: the broker down), idle or past its absolute
  // expiry, ends its sockets within WS_SESSION_CHECK_MS: one query for all open sockets of this instance.
  // One check at a time; with the database gone, one warning a minute rather than one a check.
  let checking = false;
  let warnedAt = 0;
  const sweep = setInterval(() => {
    const open = [...sockets.all()];
    if (!open.length || checking) return;
    checking = true;
    services.sessions
      .liveSessionIds(orm.em.fork(), [...new Set(open.map((s) => s.sessionId))])
      .then((alive) => {
        for (const s of open) if (!alive.has(s.sessionId)) sockets.close(s, SESSION_ENDED);
      })
      .catch((err) => {
        if (Date.now() - warnedAt < 60_000) return;
        warnedAt = Date.now();
        log.warn({ err: (err as Error).message }, 'websocket session check failed');
      })
      .finally(() => (checking = false));
  }, config.WS_SESSION_CHECK_MS);
  sweep.unref();

  return {
    handleUpgrade(req: http.IncomingMessage, socket: import('node:stream').Duplex, head: Buffer) {
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
    },
    async close() {
      clearInterval(sweep);
      await cleanup.dispose();
    },
  };
}
