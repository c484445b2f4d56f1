import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Authorized, Ctx, Info, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { EventEnvelope } from '@intranet/schema/events/envelope';
import type { ScheduleSnapshot } from '@intranet/schema/events/schedule.events';
import { requireUser } from '../../platform/authz.js';
import type { AppContext } from '../../platform/context.js';
import { liveHub, shareView } from '../../platform/live/hub.js';
import { PageArgs } from '../../platform/pagination.js';
import {
  BusyConflict,
  ScheduleChange,
  ScheduleGrid,
  ScheduleInput,
  SchedulePage,
  ScheduleView,
} from './schedule.types.js';
import { selectedUnder } from '../../platform/graphql-selection.js';
import { CELL_FIELDS } from './schedule.queries.js';
import { viewFor, visibilityClass } from './schedule.visibility.js';

type ScheduleEnvelope = EventEnvelope<{ schedule: ScheduleSnapshot; previous?: ScheduleSnapshot }>;

/**
 * One rendered view per event and visibility class, shared by every subscriber in that class: the
 * same object (marked with shareView), so the WebSocket layer also executes the selection set and
 * serialises once per class (platform/live/execution.ts), not once per subscriber.
 */
const rendered = new WeakMap<object, Map<string, ScheduleChange>>();

function changeFor(envelope: ScheduleEnvelope, viewerId: number): ScheduleChange {
  const s = envelope.payload.schedule;
  const cls = visibilityClass(viewerId, s);
  let byClass = rendered.get(envelope);
  if (!byClass) rendered.set(envelope, (byClass = new Map()));
  let change = byClass.get(cls);
  if (!change) {
    const prev = envelope.payload.previous;
    const kind = envelope.type.split('.')[1];
    const people = new Set([
      s.ownerId,
      ...s.guests.map((g) => g.id),
      ...(prev ? [prev.ownerId, ...prev.guests.map((g) => g.id)] : []),
    ]);
    change = shareView({
      kind,
      scheduleId: s.id,
      schedule: kind === 'deleted' ? null : viewFor(viewerId, s),
      from: prev && prev.startDate < s.startDate ? prev.startDate : s.startDate,
      to: prev && prev.endDate > s.endDate ? prev.endDate : s.endDate,
      employeeIds: [...people],
    });
    byClass.set(cls, change);
  }
  return change;
}

/** True when the grid's entries ask only for what a cell shows: the service may skip guests and content. */
export const cellsOnly = (info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments' | 'variableValues'>) =>
  [...selectedUnder(info, ['people', 'entries'])].every((f) => CELL_FIELDS.has(f));

@Resolver()
export class ScheduleResolver {
  @Authorized()
  @Query(() => ScheduleGrid, { description: '人×日のグリッド（週: from=月曜, to=日曜）。自分の行が先頭。' })
  scheduleGrid(
    @Ctx() ctx: AppContext,
    @Arg('from') from: string,
    @Arg('to') to: string,
    @Args() page: PageArgs,
    @Arg('departmentId', () => Int, { nullable: true }) departmentId?: number | null,
    @Arg('name', () => String, { nullable: true }) name?: string | null,
    @Info() info?: GraphQLResolveInfo,
  ): Promise<ScheduleGrid> {
    return ctx.services.schedules.grid(ctx, { from, to, departmentId, name }, page.offset, page.limit, {
      cellsOnly: !!info && cellsOnly(info),
    });
  }

  @Authorized()
  @Query(() => [ScheduleView], { description: '自分の予定（作成者またはゲスト）のある1日' })
  mySchedules(@Ctx() ctx: AppContext, @Arg('date') date: string): Promise<ScheduleView[]> {
    return ctx.services.schedules.mine(ctx, date);
  }

  @Authorized()
  @Query(() => SchedulePage, { description: '期間内の予定の一覧（他人の非公開は時間帯のみ）' })
  schedules(
    @Ctx() ctx: AppContext,
    @Args() page: PageArgs,
    @Arg('from', () => String, { nullable: true }) from?: string | null,
    @Arg('to', () => String, { nullable: true }) to?: string | null,
  ): Promise<SchedulePage> {
    return ctx.services.schedules.list(ctx, { from: from ?? undefined, to: to ?? undefined }, page.offset, page.limit);
  }

  @Authorized()
  @Query(() => ScheduleView)
  schedule(@Ctx() ctx: AppContext, @Arg('id', () => Int) id: number): Promise<ScheduleView> {
    return ctx.services.schedules.get(ctx, id);
  }

  @Authorized()
  @Query(() => [BusyConflict], { description: '参加者がその時間にすでに予定を入れているか（作成・移動時の警告用）' })
  scheduleConflicts(
    @Ctx() ctx: AppContext,
    @Arg('employeeIds', () => [Int]) employeeIds: number[],
    @Arg('date') date: string,
    @Arg('endDate', () => String, { nullable: true }) endDate?: string | null,
    @Arg('startTime', () => String, { nullable: true }) startTime?: string | null,
    @Arg('endTime', () => String, { nullable: true }) endTime?: string | null,
    @Arg('isAllDay', { defaultValue: false }) isAllDay?: boolean,
    @Arg('excludeId', () => Int, { nullable: true }) excludeId?: number | null,
  ): Promise<BusyConflict[]> {
    return ctx.services.schedules.conflicts(ctx, {
      employeeIds,
      date,
      endDate,
      startTime,
      endTime,
      isAllDay,
      excludeId,
    });
  }

  @Authorized()
  @Mutation(() => ScheduleView, { description: '予定を作成する（作成者 = ログイン中の社員）' })
  createSchedule(
    @Ctx() ctx: AppContext,
    @Arg('input', () => ScheduleInput) input: ScheduleInput,
  ): Promise<ScheduleView> {
    return ctx.services.schedules.create(ctx, input);
  }

  @Authorized()
  @Mutation(() => ScheduleView, { description: '予定を更新する（作成者のみ）' })
  updateSchedule(
    @Ctx() ctx: AppContext,
    @Arg('id', () => Int) id: number,
    @Arg('input', () => ScheduleInput) input: ScheduleInput,
  ): Promise<ScheduleView> {
    return ctx.services.schedules.update(ctx, id, input);
  }

  @Authorized()
  @Mutation(() => Boolean, { description: '予定を削除する（作成者のみ）' })
  deleteSchedule(@Ctx() ctx: AppContext, @Arg('id', () => Int) id: number): Promise<boolean> {
    return ctx.services.schedules.delete(ctx, id);
  }

  @Authorized()
  @Mutation(() => ScheduleView, { description: 'ゲストとして参加（true）・不参加（false）を回答する' })
  respondToSchedule(
    @Ctx() ctx: AppContext,
    @Arg('id', () => Int) id: number,
    @Arg('accept') accept: boolean,
  ): Promise<ScheduleView> {
    return ctx.services.schedules.respond(ctx, id, accept);
  }

  @Authorized()
  @Subscription(() => ScheduleChange, {
    // One pubsub listener for all subscribers (platform/live/hub.ts); per subscriber only the date
    // filter and the visibility class are decided here, the view comes from the per-class cache.
    subscribe: ({ args, context }: { args: { from?: string | null; to?: string | null }; context: AppContext }) => {
      const viewerId = requireUser(context).id;
      const overlaps = (a: string, b: string) => (!args.to || a <= args.to) && (!args.from || b >= args.from);
      return liveHub(context.services.pubsub, 'schedule').subscribe((e) => {
        const { schedule: s, previous: prev } = (e as ScheduleEnvelope).payload;
        return overlaps(s.startDate, s.endDate) || (prev ? overlaps(prev.startDate, prev.endDate) : false)
          ? changeFor(e as ScheduleEnvelope, viewerId)
          : undefined;
      });
    },
    description: '予定の作成・更新・削除・回答（閲覧者に見える形で。非公開は時間帯のみ）',
  })
  scheduleChanged(
    @Root() change: ScheduleChange,
    @Arg('from', () => String, { nullable: true }) _from?: string | null,
    @Arg('to', () => String, { nullable: true }) _to?: string | null,
  ): ScheduleChange {
    return change; // already this viewer's class view (no context read: the result is shared by the class)
  }
}
