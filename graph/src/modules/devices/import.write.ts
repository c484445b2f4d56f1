import type { EntityManager } from '@mikro-orm/postgresql';
import { recordMany } from '../../platform/events/record-many.js';
import { trackedChanges } from './device.history.js';
import { tracked } from './device.held.js';
import type { PlannedRow } from './import.plan.js';
import type { ImportField } from './import.rows.js';

/** The written columns, their JSON field and SQL type (one list for the INSERT and the UPDATE). */
const COLUMNS: [ImportField, string, string][] = [
  ['assetNumber', 'asset_number', 'text'],
  ['maker', 'maker', 'text'],
  ['deviceType', 'device_type', 'text'],
  ['model', 'model', 'text'],
  ['currentUserId', 'current_user_id', 'int'],
  ['previousUserId', 'previous_user_id', 'int'],
  ['locationId', 'location_id', 'int'],
  ['departmentId', 'department_id', 'int'],
  ['status', 'status', 'device_status'],
  ['reason', 'reason', 'text'],
  ['purchaseDate', 'purchase_date', 'date'],
  ['introductionDate', 'introduction_date', 'date'],
  ['officeAccountId', 'office_account_id', 'int'],
  ['acAdapter', 'ac_adapter', 'text'],
  ['powerCable', 'power_cable', 'text'],
];
const recordset = (extra: string) => `jsonb_to_recordset(?::jsonb) as x(${extra}${COLUMNS.map(([f, , t]) => `"${f}" ${t}`).join(', ')})`;
const INSERT = `insert into computer (${COLUMNS.map(([, c]) => c).join(', ')}, updated_by_id)
  select ${COLUMNS.map(([f]) => `x."${f}"`).join(', ')}, ? from ${recordset('ord int, ')} order by x.ord
  returning id, asset_number`;
const UPDATE = `update computer c set ${COLUMNS.map(([f, c]) => `${c} = x."${f}"`).join(', ')},
  version = c.version + 1, updated_at = now(), updated_by_id = ?
  from ${recordset('id int, version int, ')} where c.id = x.id and c.version = x.version returning c.id`;
const HISTORY = `insert into device_history (device_kind, device_id, event_id, changed_at, actor_id, reason, changed,
    from_user_id, to_user_id, from_status, to_status, from_location_id, to_location_id)
  select 'COMPUTER', x.id, ?, now(), ?, x.reason, x.changed, x.fu, x.tu, x.fs, x.ts, x.fl, x.tl
  from jsonb_to_recordset(?::jsonb) as x(id int, reason text, changed text[], fu int, tu int, fs device_status, ts device_status, fl int, tl int)`;

/**
 * Runs one statement of the import with real bind parameters, in `em`'s transaction. (em.execute
 * inlines every parameter into the SQL text client side: for a chunk's megabyte of JSON that is
 * an escape pass, a second copy and a long literal for PostgreSQL to parse.)
 */
export async function sqlRows<T>(em: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  const q = em.getConnection().getKnex().raw(sql, params as never[]);
  const trx = em.getTransactionContext();
  if (trx) q.transacting(trx);
  const res = (await q) as { rows: T[] };
  return res.rows;
}

/**
 * Writes one chunk of an apply job inside the job's transaction, set-based: one INSERT for the
 * new computers, one UPDATE … FROM for the changed ones, one INSERT of history rows (creation, and
 * changes of current user, status or location, as device.history records them) and ONE outbox
 * event for the chunk (the live device lists refresh from it). Returns the ids written.
 */
export async function writeChunk(tx: EntityManager, jobId: string, actorId: number | null, rows: PlannedRow[]): Promise<{ created: number[]; updated: number[] }> {
  const creates = rows.filter((r) => r.action === 'CREATE');
  const updates = rows.filter((r) => r.action === 'UPDATE');
  const created: { id: number; asset_number: string }[] = creates.length
    ? await sqlRows<{ id: number; asset_number: string }>(tx, INSERT, [actorId, JSON.stringify(creates.map((r, ord) => ({ ord, ...r.data })))])
    : [];
  const updated: { id: number }[] = updates.length
    ? await sqlRows<{ id: number }>(tx, UPDATE, [actorId, JSON.stringify(updates.map((r) => ({ id: r.computerId, version: r.version, ...r.data })))])
    : [];
  if (updated.length !== updates.length) throw new Error('computers changed while the import was running');
  if (!created.length && !updated.length) return { created: [], updated: [] };
  const idOf = new Map(created.map((c) => [c.asset_number, c.id]));
  const history = [
    ...creates.map((r) => ({ id: idOf.get(r.data.assetNumber!)!, before: null, after: r.data, reason: 'created' })),
    ...updates.map((r) => ({ id: r.computerId!, before: r.before, after: r.data, reason: 'edit' })),
  ]
    .map((h) => ({ ...h, changed: trackedChanges(h.before && tracked(h.before), tracked(h.after)) }))
    .filter((h) => h.reason === 'created' || h.changed.length)
    .map((h) => ({
      id: h.id, reason: h.reason, changed: h.changed,
      fu: h.before?.currentUserId ?? null, tu: h.after.currentUserId, fs: h.before?.status ?? null, ts: h.after.status,
      fl: h.before?.locationId ?? null, tl: h.after.locationId,
    }));
  const result = { created: created.map((c) => c.id), updated: updated.map((u) => u.id) };
  const [event] = await recordMany(tx, [
    { type: 'device.computers.imported', aggregateId: `computer:import-${jobId}`, actorId, payload: { jobId, ...result } },
  ]);
  if (history.length) await sqlRows(tx, HISTORY, [event.id, actorId, JSON.stringify(history)]);
  return result;
}
