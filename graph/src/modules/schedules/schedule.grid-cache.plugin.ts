import { HeaderMap, type ApolloServerPlugin, type GraphQLResponse } from '@apollo/server';
import type { RequestHandler } from 'express';
import { Kind, type FieldNode, type OperationDefinitionNode, type ValueNode } from 'graphql';
import type { CurrentUser } from '../auth/session.service.js';
import type { AppContext } from '../../platform/context.js';
import { tokenFrom } from '../../platform/cookies.js';
import { positionOfAnswer, reflectsOnlyUpTo, wantsPosition } from '../../platform/live/position.js';
import type { CacheTicket, DateRange, ScheduleGridCache } from './schedule.grid-cache.js';

type Variables = Record<string, unknown> | null | undefined;

/** A string argument of the field, given inline or through a variable. */
function stringArg(field: FieldNode, name: string, variables: Variables): string | undefined {
  const value: ValueNode | undefined = field.arguments?.find((a) => a.name.value === name)?.value;
  if (value?.kind === Kind.STRING) return value.value;
  if (value?.kind === Kind.VARIABLE) {
    const v = variables?.[value.name.value];
    return typeof v === 'string' ? v : undefined;
  }
  return undefined;
}

/**
 * The grid field of an operation that asks for nothing else: a query whose only root selection is
 * `scheduleGrid` (aliased or not), without directives that could skip it.
 */
function gridOnly(op: OperationDefinitionNode | undefined): FieldNode | undefined {
  if (op?.operation !== 'query' || op.selectionSet.selections.length !== 1) return undefined;
  const field = op.selectionSet.selections[0]!;
  if (field.kind !== Kind.FIELD || field.name.value !== 'scheduleGrid' || field.directives?.length) return undefined;
  return field;
}

/** One answer per viewer (id and role), document text, operation name and variables. */
const keyOf = (user: CurrentUser, query: string, operationName: string | null | undefined, variables: Variables) =>
  JSON.stringify([user.id, user.role, operationName ?? null, variables ?? null, query]);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Documents Apollo has validated and found grid-only: only these make the HTTP fast path look further. */
const MAX_DOCUMENTS = 200;

interface Pending {
  key: string;
  range: DateRange;
  ticket: CacheTicket;
  /** The live position of the answer being computed (taken before it reads), kept with it. */
  position: string | undefined;
}

/**
 * Each kept answer's live position (platform/live/position.ts), when its request asked for one: a
 * hit reflects the database as it was when the answer was computed (later changes only through the
 * events that drop it), so it reports that position and a live screen refetches when a change may
 * have come in between. A request asking for a position never takes an answer kept without one.
 */
const positions = new WeakMap<Buffer, string>();

/**
 * Week-grid operations (the /schedules page's ScheduleGrid) answered from ScheduleGridCache, whose
 * answers are the exact bytes Apollo sent (`{"data":…}` and a newline).
 *
 * - `plugin` (Apollo): after parse, validation (armor limits included) and the session lookup,
 *   an operation whose only root field is scheduleGrid takes a generation ticket; its answer, if it
 *   has no errors, is kept under the viewer, document, operation name and variables. It also
 *   answers cached operations that reach Apollo (WebSocket, GET), from the same bytes.
 * - `hits` (Express, before Apollo on POST /graphql): a request for a document the plugin has seen
 *   as grid-only, by a signed-in viewer, whose exact answer is cached, gets those bytes without
 *   Apollo (whose JSON serialisation of a 0.3 MB page was most of a hit's cost). Anything else,
 *   including every miss, goes on to Apollo unchanged. The content type is negotiated as Apollo
 *   does (application/json unless the client prefers application/graphql-response+json); a client
 *   accepting neither, or asking for a callback spec or incremental delivery, goes to Apollo.
 */
export function scheduleGridCacheEndpoints(
  cache: ScheduleGridCache<Buffer>,
  resolveUser: (token: string | undefined) => Promise<CurrentUser | null>,
) {
  const documents = new Set<string>();

  const plugin: ApolloServerPlugin<AppContext> = {
    async requestDidStart() {
      if (!cache.enabled) return;
      let pending: Pending | undefined;
      return {
        async responseForOperation(rc): Promise<GraphQLResponse | null> {
          const { user } = rc.contextValue;
          const field = gridOnly(rc.operation);
          const { query, operationName, variables } = rc.request;
          if (!user || !field || typeof query !== 'string') return null;
          const from = stringArg(field, 'from', variables);
          const to = stringArg(field, 'to', variables);
          if (from === undefined || to === undefined) return null;
          if (documents.size < MAX_DOCUMENTS) documents.add(query);
          const key = keyOf(user, query, operationName, variables);
          const bytes = cache.get(key);
          const position = positionOfAnswer(rc.contextValue);
          const hitPosition = bytes && positions.get(bytes);
          if (bytes && (position === undefined || hitPosition !== undefined)) {
            if (hitPosition !== undefined) reflectsOnlyUpTo(rc.contextValue, hitPosition);
            return {
              http: { status: undefined, headers: new HeaderMap() },
              body: { kind: 'single', singleResult: JSON.parse(bytes.toString()) },
            };
          }
          pending = { key, range: { from, to }, ticket: cache.begin(), position };
          return null;
        },
        async willSendResponse(rc) {
          if (!pending || rc.response.body.kind !== 'single') return;
          const { data, errors, extensions } = rc.response.body.singleResult;
          const { livePosition: _position, ...otherExtensions } = extensions ?? {};
          if (errors?.length || Object.keys(otherExtensions).length || !data) return;
          // What Apollo writes for a result with data only (prettyJSONStringify of {errors, data, extensions}).
          const bytes = Buffer.from(`${JSON.stringify({ data })}\n`);
          if (pending.position !== undefined) positions.set(bytes, pending.position);
          cache.put(pending.ticket, pending.key, pending.range, bytes, bytes.length);
        },
      };
    },
  };

  const hits: RequestHandler = async (req, res, next) => {
    try {
      const body: unknown = req.body;
      if (
        !cache.enabled ||
        req.method !== 'POST' ||
        !isRecord(body) ||
        typeof body.query !== 'string' ||
        !documents.has(body.query)
      )
        return next();
      const { operationName, variables, extensions } = body;
      if (
        extensions != null ||
        (operationName != null && typeof operationName !== 'string') ||
        (variables != null && !isRecord(variables))
      )
        return next();
      const accept = req.headers.accept ?? '';
      if (/callbackSpec|multipart/i.test(accept)) return next();
      const type = req.accepts(['application/json', 'application/graphql-response+json']);
      if (!type) return next();
      const user = await resolveUser(tokenFrom(req.headers, { cookies: req.fromOwnOrigin === true }).token);
      if (!user) return next();
      const bytes = cache.get(keyOf(user, body.query, operationName, variables), false);
      if (!bytes) return next();
      const position = wantsPosition({ get: (name) => req.get(name) }) ? positions.get(bytes) : null;
      if (position === undefined) return next(); // asked, and kept without one: Apollo computes it anew
      res.status(200).setHeader('content-type', `${type}; charset=utf-8`);
      // `{"data":…}\n`, with the answer's live position before its closing brace when asked.
      res.end(
        position === null
          ? bytes
          : Buffer.concat([bytes.subarray(0, -2), Buffer.from(`,"extensions":{"livePosition":"${position}"}}\n`)]),
      );
    } catch (err) {
      next(err);
    }
  };

  return { plugin, hits };
}
