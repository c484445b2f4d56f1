import 'reflect-metadata';
import { buildSchema, type NonEmptyArray } from 'type-graphql';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { authChecker } from './authz.js';
import type { LivePubSub } from './live/pubsub.js';
import { createLivePubSub } from './live/pubsub.js';
import { AuthResolver } from '../modules/auth/auth.resolver.js';
import { EmployeeResolver } from '../modules/employees/employee.resolver.js';
import { DepartmentResolver } from '../modules/departments/department.resolver.js';
import { ScheduleResolver } from '../modules/schedules/schedule.resolver.js';
import { GoogleCalendarResolver } from '../modules/google/google.resolver.js';
import { deviceResolvers } from '../modules/devices/device.module.js';
import { blogResolvers } from '../modules/blog/blog.module.js';

/** Every resolver of every module; modules add theirs here. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- type-graphql's NonEmptyArray<Function> is its resolvers' type
export const resolvers: NonEmptyArray<Function> = [
  AuthResolver,
  EmployeeResolver,
  DepartmentResolver,
  ScheduleResolver,
  GoogleCalendarResolver,
  ...deviceResolvers,
  ...blogResolvers,
];

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
