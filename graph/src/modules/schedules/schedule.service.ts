import type { EntityManager } from '@mikro-orm/postgresql';
import { containsPattern } from '../../platform/list-query.js';
import type { ScheduleSnapshot } from '@intranet/schema/events/schedule.events';
import type { AppContext } from '../../platform/context.js';
import { requireUser } from '../../platform/authz.js';
import { AppError, badInput, forbidden, notFound } from '../../platform/errors.js';
import { checkPage } from '../../platform/pagination.js';
import { record } from '../../platform/events/outbox.js';
import { pgArray } from '../../platform/sql.js';
import { checkId, checkSearchText, parseInput } from '../../platform/validation.js';
import { expectVersion } from '../../platform/versioning.js';
import { GuestResponse } from './schedule.enums.js';
import { addDays, isValidDate, scheduleInputSchema, weekLabel, type ScheduleInputData } from './schedule.rules.js';
import type { BusyConflict, ScheduleGrid, SchedulePage, ScheduleView } from './schedule.types.js';
import { viewFor } from './schedule.visibility.js';
import {
  GRID_CELLS_SQL,
  GRID_ENTRIES_SQL,
  GRID_PEOPLE_SQL,
  SNAPSHOT_SQL,
  cellFor,
  gridSource,
  toSnapshot,
  type CellRow,
  type GridRow,
  type PersonRow,
  type SnapshotRow,
} from './schedule.queries.js';

const MAX_RANGE_DAYS = 62;
const MAX_PEOPLE = 500;

/** `to` null: the caller counts a default end from `from` (so only `from` is checked). */
function checkRange(from: string, to: string | null) {
  const errors = [];
  if (!isValidDate(from)) errors.push({ field: 'from', message: 'YYYY-MM-DD の形式で指定してください。' });
  if (to !== null && !isValidDate(to)) errors.push({ field: 'to', message: 'YYYY-MM-DD の形式で指定してください。' });
  if (!errors.length && to !== null && to < from)
    errors.push({ field: 'to', message: '終了日は開始日以降にしてください。' });
  if (!errors.length && to !== null && to > addDays(from, MAX_RANGE_DAYS))
    errors.push({ field: 'to', message: `期間は${MAX_RANGE_DAYS}日以内にしてください。` });
  if (errors.length) throw badInput('期間の指定が正しくありません。', errors);
}

export interface GridFilter {
  from: string;
  to: string;
  departmentId?: number | null;
  name?: string | null;
}

/**
 * The shared schedule. Everyone signed in reads it; only the owner edits or deletes an entry;
 * listed guests accept or decline; a private entry is busy time to everyone but its owner, in
 * every channel (all reads go through viewFor).
 */
export class ScheduleService {
  async snapshots(em: EntityManager, where: string, params: unknown[], tail = ''): Promise<ScheduleSnapshot[]> {
    const rows: SnapshotRow[] = await em.execute(SNAPSHOT_SQL(where, tail), params);
    return rows.map(toSnapshot);
  }

  async snapshot(em: EntityManager, id: number): Promise<ScheduleSnapshot | null> {
    return (await this.snapshots(em, 's.id = ?', [id]))[0] ?? null;
  }

  /** People × days: each person's own entries and those they are invited to (not declined). */
  async grid(
    ctx: AppContext,
    filter: GridFilter,
    offset?: unknown,
    limit?: unknown,
    opts: { cellsOnly?: boolean } = {},
  ): Promise<ScheduleGrid> {
    const viewer = requireUser(ctx);
    checkRange(filter.from, filter.to);
    const page = checkPage(offset, limit ?? MAX_PEOPLE);
    if (page.limit > MAX_PEOPLE) page.limit = MAX_PEOPLE;
    const where: string[] = [`e.status = 'ACTIVE'`];
    const params: unknown[] = [];
    if (filter.departmentId != null) {
      where.push('e.department_id = ?');
      params.push(filter.departmentId);
    }
    checkSearchText(filter.name, 'name', '氏名');
    const name = filter.name?.trim();
    if (name) {
      where.push('e.name ilike ?');
      params.push(containsPattern(name));
    }
    const people: PersonRow[] = await ctx.em.execute(GRID_PEOPLE_SQL(where.join(' and ')), [
      ...params,
      viewer.id,
      page.limit,
      page.offset,
    ]);
    const ids = pgArray(people.map((p) => p.id));
    const rows = new Map(people.map((p) => [p.id, [] as ScheduleView[]]));
    if (people.length && opts.cellsOnly) {
      const cells: CellRow[] = await ctx.em.execute(GRID_CELLS_SQL, [
        ids,
        filter.to,
        filter.from,
        ids,
        viewer.id,
        viewer.id,
        filter.to,
        filter.from,
      ]);
      for (const r of cells) {
        const view = cellFor(viewer.id, r);
        rows.get(r.owner_id)?.push(view);
        if (r.guest_rows) for (const g of r.guest_rows) if (g !== r.owner_id) rows.get(g)?.push(view);
      }
    } else if (people.length) {
      const entries: GridRow[] = await ctx.em.execute(GRID_ENTRIES_SQL, [
        ids,
        filter.to,
        filter.from,
        ids,
        viewer.id,
        filter.to,
        filter.from,
      ]);
      for (const r of entries) {
        const view = viewFor(viewer.id, gridSource(r));
        rows.get(r.owner_id)?.push(view);
        for (const g of r.guests)
          if ((g.response !== 'DECLINED' || g.id === viewer.id) && g.id !== r.owner_id) rows.get(g.id)?.push(view);
      }
    }
    return {
      from: filter.from,
      to: filter.to,
      label: weekLabel(filter.from, filter.to),
      people: people.map((p) => ({
        id: p.id,
        name: p.name,
        departmentName: p.department_name,
        entries: rows.get(p.id)!,
      })),
      totalPeople: people.length ? Number(people[0].total) : 0,
      offset: page.offset,
      limit: page.limit,
    };
  }

  /** The "my schedule" panel: the viewer's own entries and invitations on one day. */
  async mine(ctx: AppContext, date: string): Promise<ScheduleView[]> {
    const viewer = requireUser(ctx);
    checkRange(date, date);
    const list = await this.snapshots(
      ctx.em,
      `s.start_date <= ?::date and s.end_date >= ?::date and (s.owner_id = ? or exists (
         select 1 from schedule_guest g where g.schedule_id = s.id and g.employee_id = ?))`,
      [date, date, viewer.id, viewer.id],
      `order by s.is_all_day desc, s.start_time nulls first, s.id`,
    );
    return list.map((s) => viewFor(viewer.id, s));
  }

  /** A flat list for other tools: entries overlapping [from, to] (others' private ones as busy time). */
  async list(
    ctx: AppContext,
    range: { from?: string; to?: string; ownerId?: number },
    offset?: unknown,
    limit?: unknown,
  ): Promise<SchedulePage> {
    const viewer = requireUser(ctx);
    const page = checkPage(offset, limit);
    const from = range.from ?? addDays(new Date().toISOString().slice(0, 10), -31);
    checkRange(from, range.to ?? null); // a bad start is refused before a default end is counted from it
    const to = range.to ?? addDays(from, MAX_RANGE_DAYS);
    const where = ['s.start_date <= ?::date', 's.end_date >= ?::date'];
    const params: unknown[] = [to, from];
    if (range.ownerId !== undefined) {
      where.push('s.owner_id = ?');
      params.push(range.ownerId);
    }
    const rows: SnapshotRow[] = await ctx.em.execute(
      SNAPSHOT_SQL(
        where.join(' and '),
        'order by s.start_date, s.start_time nulls first, s.id limit ? offset ?',
      ).replace('select s.id,', 'select count(*) over() as total, s.id,'),
      [...params, page.limit, page.offset],
    );
    return {
      items: rows.map((r) => viewFor(viewer.id, toSnapshot(r))),
      total: rows.length ? Number(rows[0].total) : 0,
      offset: page.offset,
      limit: page.limit,
    };
  }

  async get(ctx: AppContext, id: number): Promise<ScheduleView> {
    const viewer = requireUser(ctx);
    checkId(id, '予定');
    const s = await this.snapshot(ctx.em, id);
    if (!s) throw notFound('予定');
    return viewFor(viewer.id, s);
  }

  async create(ctx: AppContext, input: unknown): Promise<ScheduleView> {
    const user = requireUser(ctx);
    const data = parseInput(scheduleInputSchema, input);
    const id = await ctx.em.transactional(async (tx) => {
      await this.checkGuests(tx, user.id, data.guestIds);
      const [row] = await tx.execute(
        `insert into schedule (owner_id, title, start_date, end_date, is_all_day, start_time, end_time, type, meet_link,
                               description, sync_google, is_private, external_guests, updated_by_id)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, array(select json_array_elements_text(?::json)), ?) returning id`,
        [user.id, ...this.columns(data), user.id],
      );
      await this.setGuests(tx, row.id, data.guestIds);
      const s = (await this.snapshot(tx, row.id))!;
      record(tx, { type: 'schedule.created', aggregateId: s.id, actorId: user.id, payload: { schedule: s } });
      return row.id as number;
    });
    return this.get(ctx, id);
  }

  async update(ctx: AppContext, id: number, input: unknown): Promise<ScheduleView> {
    const user = requireUser(ctx);
    checkId(id, '予定');
    const version = (input as { version?: unknown })?.version;
    if (typeof version !== 'number')
      throw badInput('更新にはバージョン（version）が必要です。', [{ field: 'version', message: '必須' }]);
    const data = parseInput(scheduleInputSchema, input);
    try {
      await ctx.em.transactional(async (tx) => {
        const before = await this.ownedForWrite(tx, user.id, id);
        await expectVersion(
          tx,
          { version: before.version, updatedAt: new Date(before.updatedAt), updatedById: before.ownerId },
          version,
          () => this.get(ctx, id),
          ctx.user?.id ?? null,
        );
        await this.checkGuests(tx, user.id, data.guestIds);
        await tx.execute(
          `update schedule set title = ?, start_date = ?, end_date = ?, is_all_day = ?, start_time = ?, end_time = ?, type = ?,
                  meet_link = ?, description = ?, sync_google = ?, is_private = ?, external_guests = array(select json_array_elements_text(?::json)), updated_by_id = ?,
                  updated_at = clock_timestamp(), version = version + 1
            where id = ?`,
          [...this.columns(data), user.id, id],
        );
        await this.setGuests(tx, id, data.guestIds);
        const after = (await this.snapshot(tx, id))!;
        // A save that changes nothing is not a new version (as for staff, departments and devices).
        if (sameContent(before, after)) throw new Unchanged();
        record(tx, {
          type: 'schedule.updated',
          aggregateId: id,
          actorId: user.id,
          payload: { schedule: after, previous: before, origin: 'user' },
        });
      });
    } catch (err) {
      if (!(err instanceof Unchanged)) throw err;
    }
    return this.get(ctx, id);
  }

  async delete(ctx: AppContext, id: number): Promise<boolean> {
    const user = requireUser(ctx);
    checkId(id, '予定');
    await ctx.em.transactional(async (tx) => {
      const before = await this.ownedForWrite(tx, user.id, id);
      await tx.execute(`delete from schedule where id = ?`, [id]);
      record(tx, {
        type: 'schedule.deleted',
        aggregateId: id,
        actorId: user.id,
        payload: { schedule: before, origin: 'user' },
      });
    });
    return true;
  }

  /** A listed guest accepts (is_joined 1) or declines (is_joined 0). */
  async respond(ctx: AppContext, id: number, accept: boolean): Promise<ScheduleView> {
    const user = requireUser(ctx);
    checkId(id, '予定');
    const response = accept ? GuestResponse.ACCEPTED : GuestResponse.DECLINED;
    await ctx.em.transactional(async (tx) => {
      const s = await this.snapshot(tx, id);
      if (!s || (s.isPrivate && s.ownerId !== user.id)) throw notFound('予定');
      if (!s.guests.some((g) => g.id === user.id))
        throw forbidden('この予定のゲストではないため、参加・不参加を回答できません。');
      await tx.execute(
        `update schedule_guest set response = ?, responded_at = now() where schedule_id = ? and employee_id = ?`,
        [response, id, user.id],
      );
      const after = (await this.snapshot(tx, id))!;
      record(tx, {
        type: 'schedule.responded',
        aggregateId: id,
        actorId: user.id,
        payload: { schedule: after, guestId: user.id, response },
      });
    });
    return this.get(ctx, id);
  }

  /** Attendees already busy in the given slot (the conflict hint when creating or moving an entry). */
  async conflicts(
    ctx: AppContext,
    q: {
      employeeIds: number[];
      date: string;
      endDate?: string | null;
      startTime?: string | null;
      endTime?: string | null;
      isAllDay?: boolean;
      excludeId?: number | null;
    },
  ): Promise<BusyConflict[]> {
    const viewer = requireUser(ctx);
    const endDate = q.endDate ?? q.date;
    checkRange(q.date, endDate);
    if (!q.employeeIds.length) return [];
    const ids = pgArray([...new Set(q.employeeIds)].slice(0, 200));
    const candidates = await this.snapshots(
      ctx.em,
      `s.start_date <= ?::date and s.end_date >= ?::date and s.id <> ? and (s.owner_id = any(?::int[]) or exists (
         select 1 from schedule_guest g where g.schedule_id = s.id and g.employee_id = any(?::int[]) and g.response <> 'DECLINED'))`,
      [endDate, q.date, q.excludeId ?? 0, ids, ids],
    );
    const startAt = (d: string, t: string | null) => `${d}T${t ?? '00:00:00'}`;
    const slotStart = startAt(q.date, q.isAllDay ? null : (q.startTime ?? null));
    const slotEnd = q.isAllDay || !q.endTime ? `${endDate}T24:00:00` : startAt(endDate, q.endTime);
    const wanted = new Set(q.employeeIds);
    const out: BusyConflict[] = [];
    for (const s of candidates) {
      const sStart = startAt(s.startDate, s.isAllDay ? null : s.startTime);
      const sEnd = s.isAllDay || !s.endTime ? `${s.endDate}T24:00:00` : startAt(s.endDate, s.endTime);
      if (!(sStart < slotEnd && slotStart < sEnd)) continue;
      const v = viewFor(viewer.id, s);
      const who = [{ id: s.ownerId, name: s.ownerName }, ...s.guests.filter((g) => g.response !== 'DECLINED')].filter(
        (p) => wanted.has(p.id),
      );
      for (const p of who) {
        out.push({
          employeeId: p.id,
          employeeName: p.name,
          scheduleId: s.id,
          title: v.title ?? '予定あり',
          date: s.startDate,
          startTime: s.startTime,
          endTime: s.endTime,
        });
      }
    }
    return out;
  }

  private columns(d: ScheduleInputData): unknown[] {
    return [
      d.title,
      d.date,
      d.endDate,
      d.isAllDay,
      d.startTime,
      d.endTime,
      d.type,
      d.meetLink,
      d.description,
      d.syncGoogle,
      d.isPrivate,
      JSON.stringify(d.externalGuests),
    ];
  }

  private async ownedForWrite(tx: EntityManager, userId: number, id: number): Promise<ScheduleSnapshot> {
    const rows = await this.snapshots(tx, 's.id = ?', [id], 'for update of s');
    const s = rows[0];
    if (!s || (s.isPrivate && s.ownerId !== userId)) throw notFound('予定');
    if (s.ownerId !== userId) throw new AppError('FORBIDDEN', '予定を変更・削除できるのは作成者だけです。');
    return s;
  }

  private async checkGuests(tx: EntityManager, ownerId: number, guestIds: number[]) {
    if (guestIds.includes(ownerId))
      throw badInput('作成者自身はゲストに追加できません。', [
        { field: 'guestIds', message: '作成者は含められません' },
      ]);
    if (!guestIds.length) return;
    const found: { id: number }[] = await tx.execute(
      `select id from employee where id = any(?::int[]) and status = 'ACTIVE'`,
      [pgArray(guestIds)],
    );
    const missing = guestIds.filter((g) => !found.some((f) => f.id === g));
    if (missing.length)
      throw badInput(`招待できない社員が含まれています（ID: ${missing.join(', ')}）。`, [
        { field: 'guestIds', message: `存在しないか退職済み: ${missing.join(', ')}` },
      ]);
  }

  /** Guests become exactly `guestIds`; the answers of those who stay are kept. */
  private async setGuests(tx: EntityManager, id: number, guestIds: number[]) {
    const ids = pgArray(guestIds);
    await tx.execute(`delete from schedule_guest where schedule_id = ? and not (employee_id = any(?::int[]))`, [
      id,
      ids,
    ]);
    if (guestIds.length) {
      await tx.execute(
        `insert into schedule_guest (schedule_id, employee_id) select ?, unnest(?::int[]) on conflict do nothing`,
        [id, ids],
      );
    }
  }
}

/** Thrown inside an update that changed nothing: rolls the write back. */
class Unchanged extends Error {}

/** The same entry but for its version stamp. */
const sameContent = (a: ScheduleSnapshot, b: ScheduleSnapshot) =>
  JSON.stringify({ ...a, version: 0, updatedAt: '' }) === JSON.stringify({ ...b, version: 0, updatedAt: '' });
