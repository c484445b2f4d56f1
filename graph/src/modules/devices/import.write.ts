import type { EntityManager } from '@mikro-orm/postgresql';
import { execBound } from '../../platform/sql.js';
import { recordMany } from '../../platform/events/record-many.js';
import { trackedChanges } from './device.history.js';
import { tracked } from './device.held.js';
import type { PlannedRow } from './import.plan.js';
import type { ImportField, ImportValues } from './import.rows.js';

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
const RECORD = COLUMNS.map(([f, , t]) => `"${f}" ${t}`).join(', ');
const recordset = (extra: string) => `json_to_recordset(?::json) as x(${extra}${RECORD})`;
// The rows' own objects go to JSON as they are (no per-row copy with an order field): the
// ordinality keeps the ids in file order.
const INSERT = `insert into computer (${COLUMNS.map(([, c]) => c).join(', ')}, updated_by_id)
  select ${COLUMNS.map(([f]) => `x."${f}"`).join(', ')}, ? from rows from (json_to_recordset(?::json) as (${RECORD})) with ordinality
    as x(${COLUMNS.map(([f]) => `"${f}"`).join(', ')}, ord) order by x.ord
  returning id, asset_number`;
const UPDATE = `update computer c set ${COLUMNS.map(([f, c]) => `${c} = x."${f}"`).join(', ')},
  version = c.version + 1, updated_at = now(), updated_by_id = ?
  from ${recordset('id int, version int, ')} where c.id = x.id and c.version = x.version returning c.id`;
const HISTORY = `insert into device_history (device_kind, device_id, event_id, changed_at, actor_id, reason, changed,
    from_user_id, to_user_id, from_status, to_status, from_location_id, to_location_id)
  select 'COMPUTER', x.id, ?, now(), ?, x.reason, x.changed, x.fu, x.tu, x.fs, x.ts, x.fl, x.tl
  from json_to_recordset(?::json) as x(id int, reason text, changed text[], fu int, tu int, fs device_status, ts device_status, fl int, tl int)`;

interface HistoryJson {
  id: number; reason: 'created' | 'edit'; changed: string[];
  fu: number | null; tu: number | null; fs: string | null; ts: string; fl: number | null; tl: number | null;
}
const historyJson = (id: number, reason: HistoryJson['reason'], before: ImportValues | null, after: ImportValues): HistoryJson => ({
  id, reason, changed: trackedChanges(before && tracked(before), tracked(after)),
  fu: before?.currentUserId ?? null, tu: after.currentUserId, fs: before?.status ?? null, ts: after.status,
  fl: before?.locationId ?? null, tl: after.locationId,
});

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
    ? await execBound<{ id: number; asset_number: string }>(tx, INSERT, [actorId, JSON.stringify(creates.map((r) => r.data))])
    : [];
  const updated: { id: number }[] = updates.length
    ? await execBound<{ id: number }>(tx, UPDATE, [actorId, JSON.stringify(updates.map((r) => ({ id: r.computerId, version: r.version, ...r.data })))])
    : [];
  if (updated.length !== updates.length) throw new Error('computers changed while the import was running');
  if (!created.length && !updated.length) return { created: [], updated: [] };
  const idOf = new Map(created.map((c) => [c.asset_number, c.id]));
  // One object per history row, built in one pass (creation, or a change device.history tracks).
  const history: HistoryJson[] = [];
  for (const r of creates) history.push(historyJson(idOf.get(r.data.assetNumber!)!, 'created', null, r.data));
  for (const r of updates) {
    const h = historyJson(r.computerId!, 'edit', r.before, r.data);
    if (h.changed.length) history.push(h);
  }
  const result = { created: created.map((c) => c.id), updated: updated.map((u) => u.id) };
  const [event] = await recordMany(tx, [
    { type: 'device.computers.imported', aggregateId: `computer:import-${jobId}`, actorId, payload: { jobId, ...result } },
  ]);
  if (history.length) await execBound(tx, HISTORY, [event.id, actorId, JSON.stringify(history)]);
  return result;
}
