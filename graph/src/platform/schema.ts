import 'reflect-metadata';
import { buildSchema, type NonEmptyArray } from 'type-graphql';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { authChecker } from './authz.js';
import type { LivePubSub } from './live/pubsub.js';
import { createLivePubSub } from './live/pubsub.js';
import { AREAS } from '../modules/index.js';

/** Every resolver of every area in `AREAS`. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- type-graphql's NonEmptyArray<Function> is its resolvers' type
export const resolvers = AREAS.flatMap((a) => a.resolvers ?? []) as NonEmptyArray<Function>;

export async function buildAppSchema(pubSub: LivePubSub = createLivePubSub()): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers,
    authChecker,
    authMode: 'error',
    pubSub,
    validate: false,
    emitSchemaFile: false,
  });
}

/** The SDL committed at schema/graphql/schema.graphql (sorted, so diffs are stable). */
export function printAppSchema(schema: GraphQLSchema): string {
  return printSchema(lexicographicSortSchema(schema)) + '\n';
}
