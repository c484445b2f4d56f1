import type { Router } from 'express';
import { bodyTable, handle, writeRoute, type RestResource } from '../../platform/rest.js';
import { badInput, forbidden } from '../../platform/errors.js';
import { queryId } from '../../platform/validation.js';
import { TYPE_API, typeFromApi } from './schedule.enums.js';
import type { ScheduleView } from './schedule.types.js';

const truthy = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true';
const orNull = (v: unknown) => v ?? null;

/** The spec's `/api` shape of an entry (is_my_self and is_joined as 1/0, other_guest comma-joined). */
export function toApiSchedule(s: ScheduleView) {
  return {
    schedule_id: s.id,
    user_id: s.owner.id,
    user_name: s.owner.name,
    title: s.title,
    date: s.date,
    end_date: s.endDate,
    is_all_day: s.isAllDay,
    start_time: s.startTime,
    end_time: s.endTime,
    guests: s.guests.map((g) => ({ id: g.id, name: g.name, response: g.response })),
    guest_id: s.guests.map((g) => g.id),
    guestName: s.guests.map((g) => g.name).join(', '),
    other_guest: s.externalGuests.join(','),
    type: s.type ? TYPE_API[s.type] : null,
    meetLink: s.meetLink,
    description: s.description,
    syncGoogle: s.syncGoogle,
    is_my_self: s.isPrivate ? 1 : 0,
    is_joined: s.myResponse === 'ACCEPTED' ? 1 : s.myResponse === 'DECLINED' ? 0 : null,
    busy_only: s.busyOnly,
    can_edit: s.canEdit,
    version: s.version,
  };
}

function idList(v: unknown, guests: unknown): unknown {
  if (Array.isArray(v)) return v.map(Number);
  if (typeof v === 'string')
    return v
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean)
      .map(Number);
  if (Array.isArray(guests)) return guests.map((g) => Number((g as { id?: unknown })?.id ?? g));
  return [];
}

/** The spec's body → the service's input (the schedule input schema). */
export const schedule: RestResource<ScheduleView> = {
  toApi: toApiSchedule,
  body: bodyTable({
    title: 'title',
    date: 'date',
    endDate: { from: 'end_date', read: orNull },
    isAllDay: { from: 'is_all_day', read: truthy },
    startTime: { from: 'start_time', read: orNull },
    endTime: { from: 'end_time', read: orNull },
    type: { from: 'type', read: (v) => typeFromApi(v ?? 'task') },
    meetLink: { from: ['meetLink', 'meet_link'], read: orNull },
    description: { from: 'description', read: orNull },
    syncGoogle: { from: 'syncGoogle', read: (v) => (v === undefined ? true : truthy(v)) },
    isPrivate: { from: 'is_my_self', read: truthy },
    guestIds: { from: ['guest_id', 'guests'], read: (_v, b) => idList(b.guest_id, b.guests) },
    externalGuests: { from: 'other_guest', read: (v) => (typeof v === 'string' ? v.split(',') : (v ?? [])) },
    version: 'version',
  }),
};

const query = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

export function scheduleRoutes(r: Router): void {
  r.get(
    '/schedules',
    handle(async (ctx, req, res) => {
      const page = await ctx.services.schedules.list(
        ctx,
        { from: query(req.query.from), to: query(req.query.to) },
        req.query.offset,
        req.query.limit,
      );
      res.setHeader('X-Total-Count', String(page.total));
      return page.items.map(toApiSchedule);
    }),
  );
  r.get(
    '/schedules/my',
    handle(async (ctx, req, res) => {
      const me = ctx.user?.id;
      const asked = queryId(req.query.user_id, 'user_id'); // a malformed id is a 400, before whose it is
      if (asked !== undefined && me !== undefined && asked !== me) {
        throw forbidden('他の社員の「自分の予定」は取得できません。');
      }
      const page = await ctx.services.schedules.list(
        ctx,
        { from: query(req.query.from), to: query(req.query.to), ownerId: me ?? -1 },
        req.query.offset,
        req.query.limit,
      );
      res.setHeader('X-Total-Count', String(page.total));
      return page.items.map(toApiSchedule);
    }),
  );
  r.get(
    '/schedules/:id',
    handle(async (ctx, req) => toApiSchedule(await ctx.services.schedules.get(ctx, Number(req.params.id)))),
  );
  r.post(
    '/schedules',
    writeRoute(schedule, (ctx, input) => ctx.services.schedules.create(ctx, input), 201),
  );
  r.put(
    '/schedules/:id',
    writeRoute(schedule, (ctx, input, req) => ctx.services.schedules.update(ctx, Number(req.params.id), input)),
  );
  r.delete(
    '/schedules/:id',
    handle(async (ctx, req) => ({ ok: await ctx.services.schedules.delete(ctx, Number(req.params.id)) })),
  );
  r.put(
    '/schedules/:id/response',
    handle(async (ctx, req) => {
      const j = req.body?.is_joined;
      if (j !== 0 && j !== 1 && j !== '0' && j !== '1' && j !== true && j !== false) {
        throw badInput('is_joined は 1（参加）か 0（不参加）で指定してください。', [
          { field: 'is_joined', message: '1 または 0' },
        ]);
      }
      return toApiSchedule(await ctx.services.schedules.respond(ctx, Number(req.params.id), truthy(j)));
    }),
  );
}
