import type { Router } from 'express';
import { handle } from '../../platform/rest.js';
import { badInput, forbidden } from '../../platform/errors.js';
import { TYPE_API, typeFromApi } from './schedule.enums.js';
import type { ScheduleView } from './schedule.types.js';

const truthy = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true';

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
  if (typeof v === 'string') return v.split(',').map((x) => x.trim()).filter(Boolean).map(Number);
  if (Array.isArray(guests)) return guests.map((g) => Number((g as { id?: unknown })?.id ?? g));
  return [];
}

const fromApiBody = (b: Record<string, unknown>) => ({
  title: b.title,
  date: b.date,
  endDate: b.end_date ?? null,
  isAllDay: truthy(b.is_all_day),
  startTime: b.start_time ?? null,
  endTime: b.end_time ?? null,
  type: typeFromApi(b.type ?? 'task'),
  meetLink: b.meetLink ?? b.meet_link ?? null,
  description: b.description ?? null,
  syncGoogle: b.syncGoogle === undefined ? true : truthy(b.syncGoogle),
  isPrivate: truthy(b.is_my_self),
  guestIds: idList(b.guest_id, b.guests),
  externalGuests: typeof b.other_guest === 'string' ? b.other_guest.split(',') : (b.other_guest ?? []),
  version: b.version,
});

const query = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

export function scheduleRoutes(r: Router): void {
  r.get(
    '/schedules',
    handle(async (ctx, req, res) => {
      const page = await ctx.services.schedules.list(ctx, { from: query(req.query.from), to: query(req.query.to) }, req.query.offset, req.query.limit);
      res.setHeader('X-Total-Count', String(page.total));
      return page.items.map(toApiSchedule);
    }),
  );
  r.get(
    '/schedules/my',
    handle(async (ctx, req, res) => {
      const me = ctx.user?.id;
      if (req.query.user_id !== undefined && me !== undefined && String(req.query.user_id) !== String(me)) {
        throw forbidden('他の社員の「自分の予定」は取得できません。');
      }
      const page = await ctx.services.schedules.list(ctx, { from: query(req.query.from), to: query(req.query.to), ownerId: me ?? -1 }, req.query.offset, req.query.limit);
      res.setHeader('X-Total-Count', String(page.total));
      return page.items.map(toApiSchedule);
    }),
  );
  r.get('/schedules/:id', handle(async (ctx, req) => toApiSchedule(await ctx.services.schedules.get(ctx, Number(req.params.id)))));
  r.post('/schedules', handle(async (ctx, req) => toApiSchedule(await ctx.services.schedules.create(ctx, fromApiBody(req.body ?? {}))), 201));
  r.put('/schedules/:id', handle(async (ctx, req) => toApiSchedule(await ctx.services.schedules.update(ctx, Number(req.params.id), fromApiBody(req.body ?? {})))));
  r.delete('/schedules/:id', handle(async (ctx, req) => ({ ok: await ctx.services.schedules.delete(ctx, Number(req.params.id)) })));
  r.put(
    '/schedules/:id/response',
    handle(async (ctx, req) => {
      const j = req.body?.is_joined;
      if (j !== 0 && j !== 1 && j !== '0' && j !== '1' && j !== true && j !== false) {
        throw badInput('is_joined は 1（参加）か 0（不参加）で指定してください。', [{ field: 'is_joined', message: '1 または 0' }]);
      }
      return toApiSchedule(await ctx.services.schedules.respond(ctx, Number(req.params.id), truthy(j)));
    }),
  );
}
