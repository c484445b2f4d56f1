import type { EntityManager } from '@mikro-orm/postgresql';
import { execBound } from '../../platform/sql.js';
import { newEventId } from '../../platform/events/event-id.js';
import { recordMany } from '../../platform/events/record-many.js';
import { trackedChanges } from '../devices/device.history.js';
import { tracked } from '../devices/device.held.js';
import type { ReferenceGuard } from './import.guard.js';
import type { PlannedRow } from './import.plan.js';
import { positional, WRITTEN } from './import.fields.js';
import type { ImportValues, RowError } from './import.rows.js';
import { ImportFailure } from './import.sheet.js';

/** A computer with one of the file's new 管理番号 was stored by someone else while the job ran. */
export const ASSET_NUMBER_TAKEN =
  '取り込み中に、ファイルにある管理番号のパソコンが別の操作で登録されました。この取り込みによる変更は保存されていません。もう一度取り込んでください。';

/** The written columns (one list for the INSERT and the UPDATE); a row's values go by position (import.fields.ts, positional). */
const COLUMNS = WRITTEN;
export { positional };
/** Positions after the columns: a created row's tracked changes; an updated row's id and version. */
const CHANGED_AT = COLUMNS.length;
const ID_AT = COLUMNS.length;
const VERSION_AT = COLUMNS.length + 1;
/** The columns of a row array `r` (SQL select list), named c0, c1, … */
const FIELDS_OF = COLUMNS.map(([, , t], i) => `(r->>${i})::${t} as c${i}`).join(', ');
const ASSET_FIELD = `c${COLUMNS.findIndex(([f]) => f === 'assetNumber')}`;
export const WRITTEN_COLUMNS = COLUMNS.map(([f]) => f);
/** The INSERT of a chunk's rejected rows (job id and JSON document as placeholders). */
const ROW_ERRORS = (job: string, errors: string) => `insert into import_job_error (job_id, "row", "column", reason)
  select ${job}::uuid, e.row, e.column, e.reason from json_to_recordset(${errors}::json) as e("row" int, "column" text, reason text)`;
const HISTORY_COLUMNS = `device_kind, device_id, event_id, changed_at, actor_id, reason, changed, from_user_id, to_user_id, from_status, to_status, from_location_id, to_location_id`;

/**
 * One statement per chunk (parameters: actor, creates, updates, event id, update history, errors):
 * the new computers (in file order: the ordinality), the changed ones (`version` checked), the
 * history rows (creation: `changed` sent with each new row, joined back by 管理番号, which every
 * created row has; changes: computed from the plan) and the chunk's rejected rows. Each statement
 * boundary costs the job a round trip through Node's event loop, which is busy reading the sheet,
 * so PostgreSQL would sit idle between them; one statement keeps it busy.
 */
const WRITE_NAMED = `with
  x as materialized (select ${FIELDS_OF}, array(select jsonb_array_elements_text(r->${CHANGED_AT})) as changed, ord
    from jsonb_array_elements($creates::jsonb) with ordinality as e(r, ord)),
  ins as (insert into computer (${COLUMNS.map(([, c]) => c).join(', ')}, updated_by_id)
    select ${COLUMNS.map((_, i) => `x.c${i}`).join(', ')}, $actor from x order by x.ord
    returning id, asset_number, current_user_id, status, location_id),
  upd as (update computer c set ${COLUMNS.map(([, c], i) => `${c} = u.c${i}`).join(', ')},
      version = c.version + 1, updated_at = now(), updated_by_id = $actor
    from (select (r->>${ID_AT})::int as id, (r->>${VERSION_AT})::int as version, ${FIELDS_OF} from jsonb_array_elements($updates::jsonb) as e(r)) u
    where c.id = u.id and c.version = u.version returning c.id),
  hc as (insert into device_history (${HISTORY_COLUMNS})
    select 'COMPUTER', ins.id, $event::uuid, now(), $actor, 'created', x.changed, null, ins.current_user_id, null, ins.status, null, ins.location_id
      from ins join x on x.${ASSET_FIELD} = ins.asset_number),
  hu as (insert into device_history (${HISTORY_COLUMNS})
    select 'COMPUTER', h.id, $event::uuid, now(), $actor, 'edit', h.changed, h.fu, h.tu, h.fs, h.ts, h.fl, h.tl
      from json_to_recordset($history::json) as h(id int, changed text[], fu int, tu int, fs device_status, ts device_status, fl int, tl int)),
  err as (${ROW_ERRORS('$job', '$errors')})
select coalesce((select json_agg(id order by id) from ins), '[]') as created, coalesce((select json_agg(id order by id) from upd), '[]') as updated`;

/** WRITE_NAMED with knex's `?` placeholders, and the parameter names in their order. */
const WRITE_PARAMS: string[] = [];
const WRITE = WRITE_NAMED.replace(/\$(actor|creates|updates|event|history|job|errors)\b/g, (_m, name: string) => {
  WRITE_PARAMS.push(name);
  return '?';
});

/** Rejected rows of a chunk (preview jobs, and apply chunks that write no computer), as their JSON array. */
const insertRowErrors = (tx: EntityManager, jobId: string, errors: string) =>
  execBound(tx, ROW_ERRORS('?', '?'), [jobId, errors]);

interface UpdateHistory {
  id: number;
  changed: string[];
  fu: number | null;
  tu: number | null;
  fs: string | null;
  ts: string;
  fl: number | null;
  tl: number | null;
}

/**
 * Decided rows of a job as its write needs them: the write statement's JSON arrays (new and changed
 * computers, the changes' history rows, the rejected rows) and how many computers each holds.
 * Rows are decided and prepared in small batches (their row objects then die young, before V8's
 * next young-generation collection would copy them) and written in larger ones: joinPrepared.
 */
export interface PreparedChunk {
  jobId: string;
  actorId: number | null;
  creates: string;
  updates: string;
  history: string;
  errors: string;
  createCount: number;
  updateCount: number;
}

/**
 * Prepares decided rows of a job (an apply's; a preview's rejected rows only need `errors`): their
 * new and changed computers, history rows and rejected rows become JSON arrays, and their referents
 * are named to the guard.
 */
export function prepareChunk(
  guard: ReferenceGuard | null,
  jobId: string,
  actorId: number | null,
  rows: PlannedRow[],
  errors: RowError[],
): PreparedChunk {
  const creates: unknown[][] = [];
  const updates: unknown[][] = [];
  const written: ImportValues[] = [];
  const history: UpdateHistory[] = [];
  for (const r of rows) {
    if (r.action !== 'UNCHANGED') written.push(r.data);
    if (r.action === 'CREATE') {
      const row = positional(r.data);
      row.push(trackedChanges(null, tracked(r.data))); // CHANGED_AT
      creates.push(row);
    } else if (r.action === 'UPDATE') {
      const row = positional(r.data);
      row.push(r.computerId, r.version); // ID_AT, VERSION_AT
      updates.push(row);
      const before = r.before!;
      const changed = trackedChanges(tracked(before), tracked(r.data));
      if (changed.length) {
        history.push({
          id: r.computerId!,
          changed,
          fu: before.currentUserId,
          tu: r.data.currentUserId,
          fs: before.status,
          ts: r.data.status,
          fl: before.locationId,
          tl: r.data.locationId,
        });
      }
    }
  }
  if (written.length) guard?.name(written);
  return {
    jobId,
    actorId,
    creates: JSON.stringify(creates),
    updates: JSON.stringify(updates),
    history: JSON.stringify(history),
    errors: JSON.stringify(errors),
    createCount: creates.length,
    updateCount: updates.length,
  };
}

/** JSON arrays as one (their elements in order). */
function joinArrays(arrays: string[]): string {
  const filled = arrays.filter((a) => a !== '[]');
  if (filled.length <= 1) return filled[0] ?? '[]';
  return `[${filled.map((a) => a.slice(1, -1)).join(',')}]`;
}

/** Prepared rows of one job, in file order, as one write. */
export function joinPrepared(parts: PreparedChunk[]): PreparedChunk {
  if (parts.length === 1) return parts[0]!;
  const [first] = parts;
  return {
    jobId: first!.jobId,
    actorId: first!.actorId,
    creates: joinArrays(parts.map((p) => p.creates)),
    updates: joinArrays(parts.map((p) => p.updates)),
    history: joinArrays(parts.map((p) => p.history)),
    errors: joinArrays(parts.map((p) => p.errors)),
    createCount: parts.reduce((n, p) => n + p.createCount, 0),
    updateCount: parts.reduce((n, p) => n + p.updateCount, 0),
  };
}

/**
 * Writes prepared rows inside the job's transaction, set-based: one statement for the new and
 * the changed computers, their history rows (creation, and changes of current user, status or
 * location, as device.history records them) and the rejected rows; then ONE outbox event for the
 * chunk (the live device lists refresh from it; the history rows name it). Rows that write no
 * computer (a preview's, or all rejected) only store their rejected rows. Returns the ids written.
 */
export async function writeChunk(
  tx: EntityManager,
  guard: ReferenceGuard | null,
  chunk: PreparedChunk,
): Promise<{ created: number[]; updated: number[] }> {
  const { jobId, actorId } = chunk;
  if (chunk.createCount + chunk.updateCount === 0) {
    if (chunk.errors !== '[]') await insertRowErrors(tx, jobId, chunk.errors);
    return { created: [], updated: [] };
  }
  // Only an apply job's rows write computers, and an apply job always has its guard.
  if (!guard) throw new Error('an import chunk writes computers without its reference guard');
  const eventId = newEventId();
  const values: Record<string, unknown> = {
    actor: actorId,
    creates: chunk.creates,
    updates: chunk.updates,
    event: eventId,
    history: chunk.history,
    job: jobId,
    errors: chunk.errors,
  };
  const params = WRITE_PARAMS.map((n) => values[n]);
  const statement = () => execBound<{ created: number[]; updated: number[] }>(tx, WRITE, params);
  const [ids] = await guard.write(tx, statement).catch((err: unknown) => {
    const e = err as { code?: string; constraint?: string };
    if (e.code === '23505' && e.constraint === 'computer_asset_number_key') throw new ImportFailure(ASSET_NUMBER_TAKEN);
    throw err;
  });
  if (ids!.updated.length !== chunk.updateCount) throw new Error('computers changed while the import was running');
  await recordMany(tx, [
    {
      id: eventId,
      type: 'device.computers.imported',
      aggregateId: `computer:import-${jobId}`,
      actorId,
      payload: { jobId, ...ids! },
    },
  ]);
  return ids!;
}
