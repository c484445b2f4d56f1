import type { ApolloServerPlugin } from '@apollo/server';
import { visit, type DocumentNode, type GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { Logger } from 'pino';
import type { AppContext } from './context.js';
import { AppError, CONTROL_MESSAGE, DEPTH_MESSAGE, HTTP_STATUS, NUL_MESSAGE, toAppError } from './errors.js';
import { readOnlyKey } from './authz.js';
import { CONTROL_CHARACTER, inputProblem } from './validation.js';

/** Suggestions ("Did you mean …?") leak the schema; strip them everywhere. */
export const maskSuggestions = (message: string) => message.replace(/\s*Did you mean[^?]*\?/g, '');

/**
 * The one error formatter of GraphQL, over HTTP and WebSocket alike: typed errors keep their code
 * and message; validation, parse and limit errors are the caller's; anything else is ours and is
 * answered without internals (logInternalErrors logs it).
 */
export function formatGraphqlError(formatted: GraphQLFormattedError, err: unknown): GraphQLFormattedError {
  const e = toAppError(err);
  if (e.code === 'INTERNAL_SERVER_ERROR') {
    if (!isOurs(formatted.extensions?.code)) return { ...formatted, message: maskSuggestions(formatted.message) };
    return { message: e.message, extensions: { code: e.code }, path: formatted.path, locations: formatted.locations };
  }
  const { http: _http, ...extensions } = e.extensions; // the status hint is Apollo's, not the caller's
  // e.message, not formatted.message: for a database error mapped to BAD_USER_INPUT the latter is the driver's SQL text.
  return { ...formatted, message: maskSuggestions(e.message), extensions };
}

/**
 * An error that is not typed as the caller's is ours unless GraphQL itself coded it (parse,
 * validation, limits: GRAPHQL_PARSE_FAILED, …).
 */
const isOurs = (code: unknown) => !code || code === 'INTERNAL_SERVER_ERROR';

/** Errors that are ours (a bug, the database gone), not the caller's: what must be logged. */
export function internalErrors(errors: readonly unknown[]): unknown[] {
  return errors.filter(
    (err) => toAppError(err).code === 'INTERNAL_SERVER_ERROR' && isOurs((err as GraphQLError).extensions?.code),
  );
}

/** Logs each internal error with the request's id (HTTP) or the socket operation's id (WebSocket). */
export function logInternalErrors(
  log: Logger,
  errors: readonly unknown[],
  requestId: string | undefined,
  operationName?: string | null,
): void {
  for (const err of internalErrors(errors))
    log.error({ err, requestId, operationName: operationName ?? undefined }, 'graphql operation failed');
  // The database gone for a moment is the operator's concern, not a bug: one line, no stack.
  for (const err of errors)
    if (toAppError(err).code === 'SERVICE_UNAVAILABLE')
      log.warn(
        { err: (err as Error).message, requestId, operationName: operationName ?? undefined },
        'graphql operation failed: database unavailable',
      );
}

/** Apollo plugin: every internal error of an operation is logged, whatever the transport. */
export function errorLogPlugin(log: Logger): ApolloServerPlugin<AppContext> {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors({ errors, contextValue, request }) {
          logInternalErrors(log, errors, contextValue.meta.requestId, request.operationName);
        },
      };
    },
  };
}

/** A NUL (or another control character) in a string literal of the document. */
function literalProblem(doc: DocumentNode): 'nul' | 'control' | null {
  let found: 'nul' | 'control' | null = null;
  visit(doc, {
    StringValue: (n) =>
      void (found = n.value.includes('\u0000')
        ? 'nul'
        : (found ?? (CONTROL_CHARACTER.test(n.value) ? 'control' : null))),
  });
  return found;
}

/**
 * What is wrong with an operation's input before anything runs: a NUL character (PostgreSQL text
 * cannot hold one) in a variable, raw in the query text or escaped in a literal, or variables
 * nested deeper than any real input.
 */
export function operationInputError(
  query: string | undefined,
  variables: unknown,
  document: DocumentNode | undefined,
): AppError | null {
  const problem = inputProblem(variables);
  // A control character in a literal is either raw in the text or a \u escape, so most documents need no walk.
  const literal =
    query !== undefined && query.includes('\u0000')
      ? 'nul'
      : (query === undefined || query.includes('\\u')) && document !== undefined
        ? literalProblem(document)
        : null;
  const found = problem === 'nul' || literal === 'nul' ? 'nul' : (problem ?? literal);
  if (!found) return null;
  // Refused before execution, so Apollo answers with this status (a 500 without it).
  return new AppError(
    'BAD_USER_INPUT',
    found === 'nul' ? NUL_MESSAGE : found === 'control' ? CONTROL_MESSAGE : DEPTH_MESSAGE,
    { fieldErrors: [], http: { status: 400 } },
  );
}

/** An AppError refused before execution, answered with its HTTP status (Apollo's default there is 500). */
function withStatus(err: Error): Error {
  const e = toAppError(err);
  return new AppError(e.code, e.message, {
    ...e.extensions,
    http: { status: HTTP_STATUS[e.code], headers: retryAfter(e) },
  });
}

const retryAfter = (e: AppError) => {
  const headers = new Map<string, string>();
  if (typeof e.extensions.retryAfterSeconds === 'number')
    headers.set('retry-after', String(e.extensions.retryAfterSeconds));
  return headers;
};

export const SUBSCRIPTION_OVER_HTTP =
  'サブスクリプションは WebSocket（graphql-ws、/graphql）で購読してください。HTTP では実行できません。';

/**
 * Apollo plugin: operationInputError refuses the operation before it runs, and so is a
 * subscription sent to Apollo (over HTTP): subscriptions are served by the WebSocket endpoint only.
 */
export const inputGuardPlugin: ApolloServerPlugin<AppContext> = {
  async requestDidStart() {
    return {
      async didResolveOperation({ request, document, operation, contextValue }) {
        if (contextValue.meta.authError) throw withStatus(contextValue.meta.authError);
        const error = operationInputError(request.query, request.variables, document);
        if (error) throw error;
        if (operation?.operation === 'mutation' && contextValue.user?.readOnly) throw withStatus(readOnlyKey());
        if (operation?.operation === 'subscription')
          throw new AppError('BAD_USER_INPUT', SUBSCRIPTION_OVER_HTTP, { fieldErrors: [], http: { status: 400 } });
      },
    };
  },
};
