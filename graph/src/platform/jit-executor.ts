import type { GatewayInterface, GatewaySchemaLoadOrUpdateCallback } from '@apollo/server-gateway-interface';
import {
  GraphQLError,
  getOperationAST,
  printSchema,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
} from 'graphql';
import { getVariableValues } from 'graphql/execution/values.js';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';

/**
 * graphql-jit builds resolver errors without an `extensions` object, on which Apollo's error
 * normalisation throws (and answers an English "Internal server error" without formatting or
 * logging): rebuild those as graphql-js errors.
 */
function withExtensions(result: ExecutionResult): ExecutionResult {
  if (!result.errors?.some((e) => !e.extensions)) return result;
  const errors = result.errors.map((e) =>
    e.extensions
      ? e
      : new GraphQLError(e.message, {
          nodes: e.nodes,
          source: e.source,
          positions: e.positions,
          path: e.path,
          originalError: e.originalError ?? undefined,
        }),
  );
  return { ...result, errors };
}

/**
 * graphql-jit as Apollo's executor, through Apollo's gateway interface. Each distinct document
 * (and operation name) is compiled once and cached; Apollo still parses, validates (with the armor
 * rules) and caches documents as usual.
 */
export function jitGateway(schema: GraphQLSchema, maxEntries = 1000): GatewayInterface {
  const callbacks = new Set<GatewaySchemaLoadOrUpdateCallback>();
  const cache = new Map<string, CompiledQuery | ExecutionResult>();

  const compiled = (document: DocumentNode, source: string | undefined, operationName: string | undefined) => {
    const key = `${operationName ?? ''}\u0000${source ?? ''}`;
    let hit = source ? cache.get(key) : undefined;
    if (!hit) {
      hit = compileQuery(schema, document, operationName ?? undefined);
      if (source) {
        if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
        cache.set(key, hit);
      }
    }
    return hit;
  };

  return {
    onSchemaLoadOrUpdate(cb) {
      callbacks.add(cb);
      return () => callbacks.delete(cb);
    },
    async load() {
      const sdl = printSchema(schema);
      for (const cb of callbacks) cb({ apiSchema: schema, coreSupergraphSdl: sdl });
      return {
        executor: async (rc) => {
          const q = compiled(rc.document, rc.source, rc.operationName ?? rc.request.operationName);
          if (!isCompiledQuery(q)) return q as ExecutionResult;
          // graphql-jit does not fill in the defaults of input-object fields given through variables
          // (e.g. ScheduleInput.type): coerce variables the way graphql-js does first.
          // Apollo has already resolved the operation (didResolveOperation); look it up only without it.
          const op = rc.operation ?? getOperationAST(rc.document, rc.operationName ?? rc.request.operationName);
          const coerced = getVariableValues(schema, op?.variableDefinitions ?? [], rc.request.variables ?? {});
          if (coerced.errors) return { errors: coerced.errors };
          return withExtensions(await q.query(undefined, rc.context, coerced.coerced));
        },
      };
    },
    async stop() {
      cache.clear();
    },
  };
}
