import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput } from '../../platform/errors.js';
import { checkPage } from '../../platform/pagination.js';
import { execBound } from '../../platform/sql.js';
import { checkSearchText } from '../../platform/validation.js';
import { STATUS_LABEL, type EmployeeStatus } from '../employees/employee.enums.js';
import type { NamedRef } from '../employees/employee.types.js';
import { DEVICE_STATUS_LABEL, DISCARDED_STATUSES, DeviceStatus } from './device.enums.js';
import type { DeviceHolder, HeldDeviceFilter, HeldDeviceView } from './device.types.js';

export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A WHERE clause built from filters, with its parameters in order. */
export class Where {
  readonly parts: string[] = [];
  readonly params: unknown[] = [];

  add(sql: string, ...params: unknown[]): this {
    this.parts.push(sql);
    this.params.push(...params);
    return this;
  }

  /** Case-insensitive "contains" on a text column; `normalize` maps both sides (e.g. digits only). */
  contains(column: string, value: string | null | undefined, field: string, label: string, normalize?: (sql: string) => string): this {
    checkSearchText(value, field, label);
    const text = value?.trim();
    if (!text) return this;
    return this.add(`${normalize ? normalize(column) : column} ilike ?`, `%${escapeLike(text)}%`);
  }

  equals(column: string, value: unknown, field: string): this {
    if (value === undefined || value === null) return this;
    if (!Number.isInteger(value) || (value as number) < 1) throw badInput(`${field} が正しくありません。`, [{ field, message: '正の整数' }]);
    return this.add(`${column} = ?`, value);
  }

  get sql(): string {
    return this.parts.length ? `where ${this.parts.join(' and ')}` : '';
  }
}

/**
 * One kind's list: the SELECT list, the listed table with its alias (whose id orders it), and the
 * joins the SELECT list needs. Filters (Where) may only read the listed table (they run without the
 * joins).
 */
export interface ListSql {
  select: string;
  table: string;
  alias: string;
  joins: string;
}

export const fromOf = (q: ListSql) => `from ${q.table} ${q.joins}`;

/**
 * One page in one query, ordered by id (registration order, stable while editing). The filter and
 * the count (count(*) over()) read only the listed table; the joins and the SELECT list run for the
 * page's rows only. (With the count over the joined rows, a filter matching 2,000 of 20,000
 * computers built all 2,000 joined rows for a page of 50: bench/computers.)
 * The filter values go as bind parameters (execBound), not inlined into the statement's text by
 * MikroORM (a JavaScript pass over the whole statement per request; bench/computers).
 */
export async function fetchPage<R>(em: EntityManager, q: ListSql, where: Where, offset: unknown, limit: unknown) {
  const page = checkPage(offset, limit);
  const a = q.alias;
  const rows = await execBound<R & { total: string }>(
    em,
    `select ${q.select}, p.total
       from (select ${a}.id, count(*) over() as total from ${q.table} ${where.sql} order by ${a}.id limit ? offset ?) p
       join ${q.table} on ${a}.id = p.id ${q.joins}
      order by ${a}.id`,
    [...where.params, page.limit, page.offset],
  );
  let total = rows.length ? Number(rows[0].total) : 0;
  if (!rows.length && page.offset > 0) {
    const [c] = await execBound<{ total: string }>(em, `select count(*) as total from ${q.table} ${where.sql}`, where.params);
    total = Number(c.total);
  }
  return { rows: rows as R[], total, offset: page.offset, limit: page.limit };
}

/** Every matching row, in batches by id (keyset), for exports of a whole filtered list. */
export async function* fetchAll<R extends { id: number }>(em: EntityManager, q: ListSql, where: Where, batch = 500): AsyncGenerator<R> {
  let after = 0;
  for (;;) {
    const cond = [...where.parts, `${q.alias}.id > ?`].join(' and ');
    const rows: R[] = await em.execute(`select ${q.select} ${fromOf(q)} where ${cond} order by ${q.alias}.id limit ?`, [...where.params, after, batch]);
    yield* rows;
    if (rows.length < batch) return;
    after = rows[rows.length - 1].id;
  }
}

// ---- what computers and smartphones share --------------------------------------------------

export interface HeldRow {
  id: number;
  current_user_id: number | null;
  current_user_name: string | null;
  current_user_status: EmployeeStatus | null;
  previous_user_id: number | null;
  previous_user_name: string | null;
  previous_user_status: EmployeeStatus | null;
  location_id: number | null;
  location_name: string | null;
  department_id: number | null;
  department_name: string | null;
  status: DeviceStatus;
  version: number;
  updated_at: string;
}

export const heldSelect = (a: string) =>
  `${a}.id, ${a}.current_user_id, cu.name as current_user_name, cu.status as current_user_status,
   ${a}.previous_user_id, pu.name as previous_user_name, pu.status as previous_user_status,
   ${a}.location_id, l.name as location_name, ${a}.department_id, d.name as department_name,
   ${a}.status, ${a}.version, ${a}.updated_at`;

export const heldJoins = (a: string) =>
  `left join employee cu on cu.id = ${a}.current_user_id
   left join employee pu on pu.id = ${a}.previous_user_id
   left join location l on l.id = ${a}.location_id
   left join department d on d.id = ${a}.department_id`;

export function holder(id: number | null, name: string | null, status: EmployeeStatus | null): DeviceHolder | null {
  if (id === null || name === null || status === null) return null;
  return { id, name, status, statusLabel: STATUS_LABEL[status], retired: status === 'RETIRED' };
}

export const named = (id: number | null, name: string | null): NamedRef | null => (id === null || name === null ? null : { id, name });

export function heldView(r: HeldRow): HeldDeviceView {
  const currentUser = holder(r.current_user_id, r.current_user_name, r.current_user_status);
  return {
    id: r.id,
    currentUser,
    previousUser: holder(r.previous_user_id, r.previous_user_name, r.previous_user_status),
    location: named(r.location_id, r.location_name),
    department: named(r.department_id, r.department_name),
    status: r.status,
    statusLabel: DEVICE_STATUS_LABEL[r.status],
    currentUserStatus: currentUser?.statusLabel ?? null,
    isDiscarded: DISCARDED_STATUSES.includes(r.status),
    isBroken: r.status === DeviceStatus.BROKEN,
    currentUserRetired: currentUser?.retired ?? false,
    version: r.version,
    updatedAt: new Date(r.updated_at),
  };
}

/** The screen's filters, plus an internal one: exactly these ids. */
export type HeldQuery = Partial<HeldDeviceFilter> & { ids?: number[] };

/**
 * The filters both device lists have. An explicit status shows exactly that status; without one,
 * 廃棄 and 処分済み stay hidden unless showDiscarded is set.
 */
export function heldWhere(a: string, f: HeldQuery, statuses: readonly DeviceStatus[]): Where {
  const w = new Where();
  if (f.ids) w.add(`${a}.id = any(?::int[])`, `{${f.ids.join(',')}}`);
  w.equals(`${a}.department_id`, f.departmentId, 'departmentId');
  w.equals(`${a}.location_id`, f.locationId, 'locationId');
  w.equals(`${a}.current_user_id`, f.currentUserId, 'currentUserId');
  if (f.status) {
    if (!statuses.includes(f.status)) throw badInput('状態の指定が正しくありません。', [{ field: 'status', message: statuses.map((s) => DEVICE_STATUS_LABEL[s]).join(' / ') }]);
    w.add(`${a}.status = ?`, f.status);
  } else if (!f.showDiscarded) {
    w.add(`${a}.status <> all(?::device_status[])`, `{${DISCARDED_STATUSES.join(',')}}`);
  }
  return w;
}
