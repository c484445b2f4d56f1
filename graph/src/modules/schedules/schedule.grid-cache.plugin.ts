import { HeaderMap, type ApolloServerPlugin, type GraphQLRequestContextResponseForOperation, type GraphQLResponse } from '@apollo/server';
import { Kind, type FieldNode, type OperationDefinitionNode, type ValueNode } from 'graphql';
import type { AppContext } from '../../platform/context.js';
import type { CacheTicket, DateRange, ScheduleGridCache } from './schedule.grid-cache.js';

type Variables = Record<string, unknown> | undefined;

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

interface Pending {
  key: string;
  range: DateRange;
  ticket: CacheTicket;
}

/**
 * Serves a week-grid operation (the /schedules page's ScheduleGrid) from ScheduleGridCache and
 * keeps what it answered. Apollo has parsed and validated the document (armor limits included)
 * and created the context (session resolved) before `responseForOperation`, so a cached answer is
 * only ever given to a signed-in viewer for the very document, operation and variables it was
 * computed for, by the same viewer with the same role; an answer with errors is never kept. A hit
 * skips execution (the grid's SQL, the resolvers and graphql-jit's tree walk); Apollo still
 * serialises it.
 */
export function scheduleGridCachePlugin(cache: ScheduleGridCache): ApolloServerPlugin<AppContext> {
  const keyOf = (rc: GraphQLRequestContextResponseForOperation<AppContext>): Pending | undefined => {
    const user = rc.contextValue.user;
    const field = gridOnly(rc.operation);
    const document = rc.queryHash ?? rc.source;
    if (!user || !field || !document) return undefined;
    const variables = rc.request.variables;
    const from = stringArg(field, 'from', variables);
    const to = stringArg(field, 'to', variables);
    if (from === undefined || to === undefined) return undefined;
    const key = JSON.stringify([user.id, user.role, document, rc.operationName ?? '', variables ?? null]);
    return { key, range: { from, to }, ticket: cache.begin() };
  };
  return {
    async requestDidStart() {
      if (!cache.enabled) return;
      let pending: Pending | undefined;
      return {
        async responseForOperation(rc): Promise<GraphQLResponse | null> {
          const p = keyOf(rc);
          if (!p) return null;
          const data = cache.get(p.key) as Record<string, unknown> | undefined;
          if (data) return { http: { status: undefined, headers: new HeaderMap() }, body: { kind: 'single', singleResult: { data } } };
          pending = p;
          return null;
        },
        async willSendResponse(rc) {
          if (!pending || rc.response.body.kind !== 'single') return;
          const { data, errors } = rc.response.body.singleResult;
          if (errors?.length || !data) return;
          cache.put(pending.ticket, pending.key, pending.range, data, JSON.stringify(data).length);
        },
      };
    },
  };
}
