import type { EntityManager } from '@mikro-orm/postgresql';
import { execBound } from '../../platform/sql.js';
import type { ImportValues } from './import.rows.js';
import { ImportFailure } from './import.sheet.js';

/** The tables an imported computer refers to, and how a message names each. */
const TABLES = {
  employee: '社員',
  location: '拠点',
  department: '部署',
  office_account: 'Officeアカウント',
} as const;
type RefTable = keyof typeof TABLES;

/** The foreign-key columns an import writes: field, column of `computer`, the table it refers to. */
const REFERENCES: [keyof ImportValues, string, RefTable][] = [
  ['currentUserId', 'current_user_id', 'employee'],
  ['previousUserId', 'previous_user_id', 'employee'],
  ['locationId', 'location_id', 'location'],
  ['departmentId', 'department_id', 'department'],
  ['officeAccountId', 'office_account_id', 'office_account'],
];
/** Column → table, for a violation's detail (with `updated_by_id`, the job's actor). */
const COLUMN_TABLE: Record<string, RefTable> = {
  ...Object.fromEntries(REFERENCES.map(([, c, t]) => [c, t])),
  updated_by_id: 'employee',
};

/** Rows a job names that another user deleted while it ran (the job fails; nothing of it is saved). */
export function referenceGone(gone: Partial<Record<RefTable, number[]>>): ImportFailure {
  const named = (Object.keys(TABLES) as RefTable[])
    .filter((t) => gone[t]?.length)
    .map((t) => `${TABLES[t]}（ID: ${[...new Set(gone[t])].sort((a, b) => a - b).join(', ')}）`);
  const what = named.length ? named.join('、') : '社員・拠点・部署またはOfficeアカウント';
  return new ImportFailure(
    `取り込み中に、ファイルにある${what}が別の操作で削除されました。この取り込みによる変更は保存されていません。もう一度取り込んでください。`,
  );
}

/** A foreign-key violation of a chunk's write (a reference deleted meanwhile) as referenceGone; anything else as it is. */
export function asReferenceGone(err: unknown): unknown {
  const e = err as { code?: string; detail?: string };
  if (e.code !== '23503') return err;
  const m = /Key \((\w+)\)=\((\d+)\)/.exec(e.detail ?? '');
  const table = m ? COLUMN_TABLE[m[1]!] : undefined;
  return referenceGone(table ? { [table]: [Number(m![2])] } : {});
}

/**
 * The references of an apply job's computers, checked set-based instead of row by row.
 *
 * PostgreSQL checks a foreign key per written row: an SPI query that reads and locks
 * (`FOR KEY SHARE`) the referenced row, about 10 µs each, 3–4 per imported computer, half of the
 * computer INSERT. A job names few distinct referents (its users, locations, departments, Office
 * accounts; the job row and its actor), so it locks each of them once, with the same `FOR KEY SHARE`
 * (a row deleted or re-keyed meanwhile is missing and fails the job; one being deleted is waited
 * for; a locked one cannot be deleted until the job commits or rolls back), and writes the chunk
 * with `session_replication_role = replica`, which skips the per-row checks. Only for the chunk's
 * write statement: the role goes back to `origin` right after it (the outbox's NOTIFY trigger fires).
 *
 * Used only when the database role may set `session_replication_role` (a superuser, as the
 * embedded PostgreSQL's is, or `GRANT SET ON PARAMETER session_replication_role`, PostgreSQL 15+)
 * and the written tables have no triggers of their own (replica mode would skip those too);
 * otherwise the foreign keys check row by row, as for every other write.
 */
export class ReferenceGuard {
  private readonly locked: Record<RefTable, Set<number>> = {
    employee: new Set(),
    location: new Set(),
    department: new Set(),
    office_account: new Set(),
  };
  /** Referents named by the chunks so far and not locked yet. */
  private readonly pending: Record<RefTable, Set<number>> = {
    employee: new Set(),
    location: new Set(),
    department: new Set(),
    office_account: new Set(),
  };
  private jobLocked = false;

  private constructor(
    /** True when the job's writes skip the per-row foreign-key checks (see the class). */
    readonly setBased: boolean,
    private readonly jobId: string,
    actorId: number | null,
  ) {
    if (actorId !== null) this.pending.employee.add(actorId);
  }

  static async open(tx: EntityManager, jobId: string, actorId: number | null): Promise<ReferenceGuard> {
    const [s] = await execBound<{ su: boolean; version: number; triggers: number }>(
      tx,
      `select current_setting('is_superuser') = 'on' as su, current_setting('server_version_num')::int as version,
         (select count(*)::int from pg_trigger where not tgisinternal
           and tgrelid in ('computer'::regclass, 'device_history'::regclass, 'import_job_error'::regclass)) as triggers`,
      [],
    );
    let may = s!.su;
    if (!may && s!.version >= 150000) {
      const [p] = await execBound<{ ok: boolean }>(
        tx,
        `select has_parameter_privilege('session_replication_role', 'SET') as ok`,
        [],
      );
      may = p!.ok;
    }
    return new ReferenceGuard(may && s!.triggers === 0, jobId, actorId);
  }

  /**
   * Names the referents of rows about to be written (before their chunk's write: a write locks what
   * has been named by then, so a chunk named early may have its referents locked by the write before
   * it, which is as good).
   */
  name(rows: ImportValues[]): void {
    if (!this.setBased) return;
    for (const r of rows) {
      for (const [field, , table] of REFERENCES) {
        const id = r[field] as number | null;
        if (id !== null && !this.locked[table].has(id)) this.pending[table].add(id);
      }
    }
  }

  /**
   * Runs a chunk's write statement. Set-based: first locks the referents named and not locked yet
   * (one statement, which also switches the role), fails the job if any is gone, then writes and
   * switches back. Otherwise the write alone, a foreign-key violation reported as referenceGone.
   */
  async write<T>(tx: EntityManager, run: () => Promise<T>): Promise<T> {
    if (!this.setBased) return run().catch((err: unknown) => Promise.reject(asReferenceGone(err)));
    const want = Object.fromEntries(
      (Object.keys(TABLES) as RefTable[]).map((t) => [t, [...this.pending[t]]]),
    ) as Record<RefTable, number[]>;
    const [found] = await execBound<Record<RefTable, number[]> & { job: number }>(
      tx,
      `with e as (select id from employee where id = any(?::int[]) for key share),
         l as (select id from location where id = any(?::int[]) for key share),
         d as (select id from department where id = any(?::int[]) for key share),
         o as (select id from office_account where id = any(?::int[]) for key share),
         j as (select id from import_job where id = ?::uuid for key share)
       select array(select id from e) as employee, array(select id from l) as location, array(select id from d) as department,
         array(select id from o) as office_account, (select count(*)::int from j) as job,
         set_config('session_replication_role', 'replica', true) as role`,
      [
        `{${want.employee}}`,
        `{${want.location}}`,
        `{${want.department}}`,
        `{${want.office_account}}`,
        this.jobLocked ? null : this.jobId,
      ],
    );
    // The job row (its rejected rows refer to it) is locked once; a job deleted meanwhile has nothing to save.
    if (!this.jobLocked && found!.job !== 1)
      throw new ImportFailure('取り込み中に、この取り込み自体が削除されました。変更は保存されていません。');
    this.jobLocked = true;
    const gone: Partial<Record<RefTable, number[]>> = {};
    for (const t of Object.keys(TABLES) as RefTable[]) {
      const have = new Set(found![t]);
      const missing = want[t].filter((id) => !have.has(id));
      if (missing.length) gone[t] = missing;
      for (const id of have) this.locked[t].add(id);
      this.pending[t].clear();
    }
    if (Object.keys(gone).length) throw referenceGone(gone);
    const result = await run();
    await execBound(tx, `select set_config('session_replication_role', 'origin', true)`, []);
    return result;
  }
}
