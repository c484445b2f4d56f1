import {
  Arg,
  Authorized,
  Ctx,
  FieldResolver,
  ID,
  Int,
  Mutation,
  Query,
  Resolver,
  Root,
  Subscription,
} from 'type-graphql';
import { filter, map, pipe } from '@graphql-yoga/subscription';
import type { EventEnvelope } from '@intranet/schema/events';
import type { AppContext } from '../../platform/context.js';
import { DEVICE_ROLES } from '../employees/employee.enums.js';
import type { RowError } from './import.rows.js';
import { ImportJob, ImportJobStatus, ImportRowError } from './import.types.js';

const JOB_EVENTS = new Set(['import.progressed', 'import.finished']);
const ENDED = new Set<ImportJobStatus>([ImportJobStatus.SUCCEEDED, ImportJobStatus.FAILED]);

/** Excel import jobs of computers: read, apply a preview, follow live. */
// Every field is the IT-asset register\'s: its roles, once for the class.
@Authorized(...DEVICE_ROLES)
@Resolver(() => ImportJob)
export class ImportResolver {
  @Query(() => ImportJob, {
    nullable: true,
    description: 'パソコン取り込みジョブ（作成者と管理者・システム管理者のみ）',
  })
  importJob(@Ctx() ctx: AppContext, @Arg('id', () => ID) id: string): Promise<ImportJob> {
    return ctx.services.imports.get(ctx, id) as Promise<ImportJob>;
  }

  @Mutation(() => ImportJob, {
    description:
      '完了したプレビューと同じファイルで取り込みを開始する（同じプレビューは一度だけ: 二度目はその取り込みジョブを返す）',
  })
  applyImport(@Ctx() ctx: AppContext, @Arg('previewJobId', () => ID) previewJobId: string): Promise<ImportJob> {
    return ctx.services.imports.applyPreview(ctx, previewJobId) as Promise<ImportJob>;
  }

  @FieldResolver(() => [ImportRowError])
  errors(
    @Ctx() ctx: AppContext,
    @Root() job: ImportJob,
    @Arg('limit', () => Int, { defaultValue: 100 }) limit: number,
  ): Promise<RowError[]> {
    return ctx.services.imports.errors(ctx, job.id, limit);
  }

  @Subscription(() => ImportJob, {
    // Access is checked once, when subscribing (others get NOT_FOUND); then the job's own events,
    // each as the job's state read after it. A progress event read after the job has ended (it
    // reached the live feed with the job's import.finished) is passed over: the ended state goes
    // out once, for import.finished, and always last.
    subscribe: async ({ args, context }) => {
      const ctx = context as AppContext;
      await ctx.services.imports.get(ctx, args.id);
      return pipe(
        ctx.services.pubsub.subscribe('event', 'import_job'),
        filter((e: EventEnvelope) => e.aggregateId === args.id && JOB_EVENTS.has(e.type)),
        map(async (e: EventEnvelope) => ({
          type: e.type,
          job: (await ctx.services.imports.get(ctx, args.id)) as ImportJob,
        })),
        filter(
          ({ type, job }: { type: string; job: ImportJob }) => type === 'import.finished' || !ENDED.has(job.status),
        ),
      );
    },
    description:
      '取り込みジョブの進捗（import.progressed / import.finished のたびに現在の状態。終了した状態は最後に1回だけ）',
  })
  importJobChanged(@Root() read: { job: ImportJob }, @Arg('id', () => ID) _id: string): ImportJob {
    return read.job;
  }
}
