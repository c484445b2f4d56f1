import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventEnvelope } from '@intranet/schema/events';
import type { AppContext } from '../../platform/context.js';
import { checkId } from '../../platform/validation.js';
import { requireUser } from '../../platform/authz.js';
import { notFound } from '../../platform/errors.js';
import { record, type RecordInput } from '../../platform/events/outbox.js';
import { DEVICE_ROLES, type EmployeeStatus } from '../employees/employee.enums.js';
import type { EventType } from '@intranet/schema/events';
import { AssetKind, DEVICE_STATUS_LABEL, DeviceKind, type DeviceStatus } from './device.enums.js';
import type { XlsxExport } from '../../platform/xlsx-export.js';
import { holder } from './device.queries.js';
import type { NamedRef } from '../employees/employee.types.js';
import type { DeviceAssignment, DeviceHistoryEntry, DeviceHolder, DeviceTimeline } from './device.types.js';

/** Event aggregate ids: `<kind>:<id>` under the one aggregate type `device`. */
const PREFIX: Record<AssetKind, string> = {
  COMPUTER: 'computer',
  SMARTPHONE: 'smartphone',
  OFFICE_ACCOUNT: 'office_account',
};
export const aggregateIdOf = (kind: AssetKind, id: number) => `${PREFIX[kind]}:${id}`;
export function parseAggregateId(aggregateId: string): { kind: AssetKind; id: number } | null {
  const [prefix, id] = aggregateId.split(':');
  const kind = (Object.keys(PREFIX) as AssetKind[]).find((k) => PREFIX[k] === prefix);
  return kind ? { kind, id: Number(id) } : null;
}

export const DEVICE_NOUN: Record<DeviceKind, string> = { COMPUTER: 'パソコン', SMARTPHONE: 'スマートフォン' };
const TABLE: Record<DeviceKind, string> = { COMPUTER: 'computer', SMARTPHONE: 'smartphone' };

export interface Tracked {
  currentUserId: number | null;
  status: DeviceStatus;
  locationId: number | null;
}
const TRACKED = [
  ['currentUser', 'currentUserId'],
  ['status', 'status'],
  ['location', 'locationId'],
] as const;

interface HistoryRow {
  kind: DeviceKind;
  deviceId: number;
  eventId: string;
  changedAt: string;
  actorId: number | null;
  reason: 'created' | 'edit' | 'returned' | 'revealed';
  changed: string[];
  before: Tracked | null;
  after: Tracked;
}

/** What a history row names as changed: current user, status, location (on creation: those that are set). */
export const trackedChanges = (before: Tracked | null, after: Tracked): string[] =>
  TRACKED.filter(([, k]) => (before ? before[k] !== after[k] : after[k] !== null)).map(([name]) => name);

/**
 * The history row a device event stands for: its creation, or a change of current user, status
 * or location (other edits leave no row). Derived from the event itself, so the history and the
 * published events can never tell different stories.
 */
export function historyFromEvent(env: EventEnvelope): HistoryRow | null {
  const target = parseAggregateId(env.aggregateId);
  if (!target || target.kind === AssetKind.OFFICE_ACCOUNT) return null;
  if (env.type === 'device.secret_revealed') return revealRow(env, target.id);
  const p = env.payload as { device: Tracked; before?: Tracked; reason?: 'edit' | 'returned' };
  const after: Tracked = {
    currentUserId: p.device.currentUserId,
    status: p.device.status,
    locationId: p.device.locationId,
  };
  const before = p.before ?? null;
  const changed = trackedChanges(before, after);
  if (before && changed.length === 0) return null;
  return {
    kind: target.kind as unknown as DeviceKind,
    deviceId: target.id,
    eventId: env.id,
    changedAt: env.occurredAt,
    actorId: env.actorId,
    reason: before ? (p.reason ?? 'edit') : 'created',
    changed,
    before,
    after,
  };
}

/** A reveal of a PIN code or password: `changed` names the field; nothing moves (before = after). */
function revealRow(env: EventEnvelope, deviceId: number): HistoryRow {
  const p = env.payload as { field: string; device: Tracked };
  const target = parseAggregateId(env.aggregateId)!;
  return {
    kind: target.kind as unknown as DeviceKind,
    deviceId,
    eventId: env.id,
    changedAt: env.occurredAt,
    actorId: env.actorId,
    reason: 'revealed',
    changed: [p.field],
    before: p.device,
    after: p.device,
  };
}

/**
 * Records a device event in the outbox and, in the same transaction, the history row it implies.
 * (We write the history here rather than in an event consumer: it commits with the change, so the
 * timeline is never behind or missing a step, and it needs no consumer to be running.)
 */
export async function recordDeviceEvent<T extends EventType>(tx: EntityManager, input: RecordInput<T>): Promise<void> {
  const env = record(tx, input);
  const h = historyFromEvent(env as EventEnvelope);
  if (!h) return;
  await tx.execute(
    `insert into device_history (device_kind, device_id, event_id, changed_at, actor_id, reason, changed,
       from_user_id, to_user_id, from_status, to_status, from_location_id, to_location_id)
     values (?, ?, ?, ?, ?, ?, ?::text[], ?, ?, ?, ?, ?, ?)`,
    [
      h.kind,
      h.deviceId,
      h.eventId,
      h.changedAt,
      h.actorId,
      h.reason,
      `{${h.changed.join(',')}}`,
      h.before?.currentUserId ?? null,
      h.after.currentUserId,
      h.before?.status ?? null,
      h.after.status,
      h.before?.locationId ?? null,
      h.after.locationId,
    ],
  );
}

interface Row {
  id: string;
  changed_at: string;
  reason: string;
  changed: string[];
  actor_id: number | null;
  actor_name: string | null;
  actor_status: EmployeeStatus | null;
  from_user_id: number | null;
  from_user_name: string | null;
  from_user_status: EmployeeStatus | null;
  to_user_id: number | null;
  to_user_name: string | null;
  to_user_status: EmployeeStatus | null;
  from_status: DeviceStatus | null;
  to_status: DeviceStatus;
  from_location_id: number | null;
  from_location_name: string | null;
  to_location_id: number | null;
  to_location_name: string | null;
}

/** The assignment history of a device (デバイス管理の権限者のみ). */
export class DeviceHistoryService {
  async timeline(ctx: AppContext, kind: DeviceKind, id: number): Promise<DeviceTimeline> {
    requireUser(ctx, DEVICE_ROLES);
    checkId(id, DEVICE_NOUN[kind]);
    const found = await ctx.em.execute(`select 1 from ${TABLE[kind]} where id = ?`, [id]);
    if (!found.length) throw notFound(DEVICE_NOUN[kind]);
    const rows: Row[] = await ctx.em.execute(
      `select h.id, h.changed_at, h.reason, h.changed, h.from_status, h.to_status,
              h.actor_id, a.name as actor_name, a.status as actor_status,
              h.from_user_id, fu.name as from_user_name, fu.status as from_user_status,
              h.to_user_id, tu.name as to_user_name, tu.status as to_user_status,
              h.from_location_id, fl.name as from_location_name, h.to_location_id, tl.name as to_location_name
         from device_history h
         left join employee a on a.id = h.actor_id
         left join employee fu on fu.id = h.from_user_id
         left join employee tu on tu.id = h.to_user_id
         left join location fl on fl.id = h.from_location_id
         left join location tl on tl.id = h.to_location_id
        where h.device_kind = ? and h.device_id = ?
        order by h.changed_at, h.id`,
      [kind, id],
    );
    const changes: DeviceHistoryEntry[] = rows.map((r) => ({
      id: Number(r.id),
      changedAt: new Date(r.changed_at),
      changedBy: pastHolder(r.actor_id, r.actor_name, r.actor_status),
      reason: r.reason,
      changed: r.changed,
      fromUser: pastHolder(r.from_user_id, r.from_user_name, r.from_user_status),
      toUser: pastHolder(r.to_user_id, r.to_user_name, r.to_user_status),
      fromStatus: r.from_status,
      toStatus: r.to_status,
      fromLocation: pastPlace(r.from_location_id, r.from_location_name),
      toLocation: pastPlace(r.to_location_id, r.to_location_name),
    }));
    return { kind, deviceId: id, assignments: assignments(changes), changes };
  }
}

/** How the history names an employee or location that has been deleted since (the log keeps the id). */
export const deletedName = (id: number) => `削除済み（ID: ${id}）`;

/**
 * A history entry's person: device_history keeps employee ids after the employee is deleted (no
 * foreign key: it is an audit log), so a missing row is shown as deleted, not as nobody. A deleted
 * person counts as 退職 for the row style.
 */
export function pastHolder(id: number | null, name: string | null, status: EmployeeStatus | null): DeviceHolder | null {
  if (id === null) return null;
  if (name === null || status === null)
    return { id, name: deletedName(id), status: 'RETIRED' as EmployeeStatus, statusLabel: '削除済み', retired: true };
  return holder(id, name, status);
}

/** A history entry's location, kept as an id after the location is deleted. */
export const pastPlace = (id: number | null, name: string | null): NamedRef | null =>
  id === null ? null : { id, name: name ?? deletedName(id) };

/** Periods of use: each change of current user ends the open period and may start another. */
export function assignments(changes: DeviceHistoryEntry[]): DeviceAssignment[] {
  const out: DeviceAssignment[] = [];
  let open: DeviceAssignment | null = null;
  for (const c of changes) {
    if (!c.changed.includes('currentUser') && c.reason !== 'created') continue;
    if (open) {
      open.to = c.changedAt;
      open.endedBy = c.changedBy;
    }
    open = c.toUser ? { user: c.toUser, from: c.changedAt, to: null, assignedBy: c.changedBy, endedBy: null } : null;
    if (open) out.push(open);
  }
  return out;
}

const ASCII_KIND: Record<DeviceKind, string> = { COMPUTER: 'computer', SMARTPHONE: 'smartphone' };
const REASON_LABEL: Record<string, string> = {
  created: '登録',
  edit: '編集',
  returned: '退職時の返却',
  revealed: '秘密情報の表示',
};
const jst = (d: Date) => d.toLocaleString('sv-SE', { timeZone: 'Asia/Tokyo' }).slice(0, 16);
const statusName = (s: DeviceStatus | null) => (s ? DEVICE_STATUS_LABEL[s] : null);

/** A device's change log as a spreadsheet (oldest first): when, what, user / status / location before → after, by whom. */
export function timelineXlsx(t: DeviceTimeline): XlsxExport<DeviceHistoryEntry> {
  return {
    title: `${DEVICE_NOUN[t.kind]}${t.deviceId}_使用履歴`,
    asciiTitle: `${ASCII_KIND[t.kind]}_${t.deviceId}_history`,
    columns: [
      { header: '日時（日本時間）', width: 18, value: (c) => jst(c.changedAt) },
      { header: '内容', width: 12, value: (c) => REASON_LABEL[c.reason] ?? c.reason },
      { header: '使用者（変更前）', value: (c) => c.fromUser?.name },
      { header: '使用者（変更後）', value: (c) => c.toUser?.name },
      { header: '状態（変更前）', width: 10, value: (c) => statusName(c.fromStatus) },
      { header: '状態（変更後）', width: 10, value: (c) => statusName(c.toStatus) },
      { header: '拠点（変更前）', width: 10, value: (c) => c.fromLocation?.name },
      { header: '拠点（変更後）', width: 10, value: (c) => c.toLocation?.name },
      { header: '変更者', value: (c) => c.changedBy?.name },
    ],
    rows: (async function* () {
      yield* t.changes;
    })(),
  };
}
