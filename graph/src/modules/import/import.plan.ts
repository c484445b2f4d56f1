import type { EntityManager } from '@mikro-orm/postgresql';
import { computerFields, computerSchema, datesInOrder } from '../computers/computer.admin.js';
import { shiftPreviousUser } from '../devices/device.held.js';
import type { ImportRefs } from './import.refs.js';
import { execBound } from '../../platform/sql.js';
import { EMPTY, FIELDS, fromFieldOrder, IMPORT_FIELDS, pick } from './import.fields.js';
import {
  COLUMN_OF,
  IMPORT_COLUMNS,
  type ImportField,
  type ImportValues,
  type ParsedRow,
  type RawValues,
  type RowError,
} from './import.rows.js';

export type ImportAction = 'CREATE' | 'UPDATE' | 'UNCHANGED' | 'REJECT';

/** What the import will do with one row. */
export interface PlannedRow {
  row: number;
  action: Exclude<ImportAction, 'REJECT'>;
  computerId: number | null;
  version: number | null;
  data: ImportValues;
  before: ImportValues | null;
  changed: ImportField[];
}

/** 管理番号 and IDs of stored computers that a chunk names. */
export interface LookupKeys {
  assets: string[];
  ids: number[];
}

export interface Existing extends ImportValues {
  id: number;
  version: number;
}

/** The stored computers a chunk names, with the import's fields under their keys (dates and the status as text). */
const SELECT = `select id, version, ${IMPORT_FIELDS.map((f) => `${f.column}${f.codec === 'date' || f.codec === 'enum' ? '::text' : ''} as "${f.key}"`).join(', ')}
  from computer where asset_number = any(?::text[]) or id = any(?::int[])`;

/**
 * Decides, chunk by chunk, what each parsed row does (the key rule: 管理番号 first, else ID), merges
 * it onto the stored computer, checks it with the form's rules and computes what would change. A key
 * (or computer) already used by an earlier row of the file rejects the later row.
 */
export class ImportPlanner {
  /** The row that claimed each 管理番号 and each stored computer (by id), for rows naming them again. */
  private readonly seenAssets = new Map<string, number>();
  private readonly seenComputers = new Map<number, number>();
  private readonly form = new FormRules();
  /** 管理番号 of the computers stored when the job began (loadStoredKeys). */
  private stored = new Set<string>();

  constructor(private readonly refs: ImportRefs) {}

  /**
   * Reads the 管理番号 of every stored computer, once per job: a chunk whose rows name none of them
   * (and no ID) only creates computers and needs no lookup. Its decision then does not wait for
   * PostgreSQL, which is still writing the chunk before (a lookup would queue behind that write).
   */
  async loadStoredKeys(em: EntityManager): Promise<void> {
    const rows = await em.execute<{ a: string }[]>(
      `select asset_number as a from computer where asset_number is not null`,
    );
    this.stored = new Set(rows.map((r) => r.a));
  }

  /**
   * The keys by which a chunk's rows name stored computers (IDs, and 管理番号 stored when the job
   * began), or null when they name none: a chunk of new computers needs no lookup.
   */
  storedKeys(rows: ParsedRow[]): LookupKeys | null {
    const assets = rows.map((r) => r.assetNumber).filter((a): a is string => a !== null && this.stored.has(a));
    const ids = rows.map((r) => r.id).filter((i): i is number => i !== null);
    return assets.length || ids.length ? { assets, ids } : null;
  }

  /**
   * The stored computers a chunk names (`keys` from storedKeys). `lock`: apply jobs lock them
   * (FOR UPDATE) in their transaction. Independent of earlier chunks' writes (a computer named by
   * two chunks is rejected by the seen maps in decide), so it may be sent before they are done. A computer
   * stored by someone else after the job began, under a 管理番号 of the file, is not looked up: the
   * row's INSERT then meets the unique key and the job fails (writeChunk says why).
   */
  lookup(em: EntityManager, keys: LookupKeys, lock: boolean): Promise<Existing[]> {
    return execBound<Existing>(em, `${SELECT}${lock ? ' order by id for update' : ''}`, [
      `{${keys.assets.map(quote).join(',')}}`,
      `{${keys.ids.join(',')}}`,
    ]);
  }

  /**
   * What each row of a chunk does, given its lookup; chunks must be decided in file order. A row is
   * checked through to the end even when reading it already found problems (an unknown name, an
   * error value): its key, and every cell against the form's rules, so that one pass reports every
   * bad cell of the row (one error per cell), not only the problems of the first stage that failed.
   */
  decide(rows: ParsedRow[], found: Existing[]): { planned: PlannedRow[]; errors: RowError[] } {
    const byAsset = new Map(found.filter((c) => c.assetNumber !== null).map((c) => [c.assetNumber!, c]));
    const byId = new Map(found.map((c) => [c.id, c]));
    const planned: PlannedRow[] = [];
    const errors: RowError[] = [];
    for (const r of rows) {
      // A row already rejected does not claim its key (a later row of the same computer may go in).
      const target = this.target(r, byAsset, byId, r.errors.length === 0);
      if ('reason' in target) {
        // No stored computer to merge onto: the row's own cells against the field rules. A key cell
        // already reported (a bad ID, an error value) is not reported again as a missing key.
        const keyReported = r.errors.some((e) => e.column === 'ID' || e.column === '管理番号');
        errors.push(
          ...oneErrorPerCell([...r.errors, ...(keyReported ? [] : [target]), ...this.form.cells(r.row, r.values)]),
        );
        continue;
      }
      const p = this.merge(r, target.computer);
      if ('action' in p && !r.errors.length) planned.push(p);
      else errors.push(...oneErrorPerCell([...r.errors, ...('action' in p ? [] : p.errors)]));
    }
    return { planned, errors };
  }

  /** The computer a row updates (or null to create one), or why the row is rejected. */
  private target(
    r: ParsedRow,
    byAsset: Map<string, Existing>,
    byId: Map<number, Existing>,
    claim: boolean,
  ): { computer: Existing | null } | RowError {
    const reject = (column: string, reason: string): RowError => ({ row: r.row, column, reason });
    let computer: Existing | null;
    if (r.assetNumber !== null) {
      if (r.assetNumber.length > 50) return reject('管理番号', '管理番号は50文字以内で入力してください。');
      computer = byAsset.get(r.assetNumber) ?? null;
      const other = r.id !== null ? byId.get(r.id) : undefined;
      if (computer && r.id !== null && r.id !== computer.id)
        return reject('ID', 'IDと管理番号が別のパソコンを指しています。');
      if (!computer && other) {
        if (other.assetNumber !== null) return reject('ID', 'IDと管理番号が別のパソコンを指しています。');
        computer = other; // an existing computer gets its first 管理番号
      }
    } else if (r.id !== null) {
      computer = byId.get(r.id) ?? null;
      if (!computer) return reject('ID', `ID ${r.id} のパソコンは存在しません。`);
    } else return reject('管理番号', '管理番号またはIDを入力してください。');
    const earlier =
      (r.assetNumber !== null ? this.seenAssets.get(r.assetNumber) : undefined) ??
      (computer ? this.seenComputers.get(computer.id) : undefined);
    if (earlier !== undefined)
      return reject(
        r.assetNumber !== null ? '管理番号' : 'ID',
        `${earlier}行目と同じパソコンを指しています（同じ管理番号・IDは1行だけにしてください）。`,
      );
    if (claim) {
      if (r.assetNumber !== null) this.seenAssets.set(r.assetNumber, r.row);
      if (computer) this.seenComputers.set(computer.id, r.row);
    }
    return { computer };
  }

  private merge(r: ParsedRow, before: Existing | null): PlannedRow | { errors: RowError[] } {
    const base: ImportValues = before ? pick(before) : EMPTY;
    let data = { ...base, ...r.values, assetNumber: r.assetNumber ?? base.assetNumber } as ImportValues;
    if (r.values.status === undefined) data.status = base.status;
    if (before) data = shiftPreviousUser(data, base);
    let next = this.form.check(data);
    if (!next) {
      // Some rule failed: the whole form schema again, so the row's errors are exactly the form's.
      const parsed = computerSchema.safeParse(data);
      if (!parsed.success) {
        return {
          errors: parsed.error.issues.map((i) => ({
            row: r.row,
            column: COLUMN_OF[i.path[0] as ImportField] ?? null,
            reason: i.message,
          })),
        };
      }
      next = pick(parsed.data as ImportValues);
    }
    const errors = this.rules(r.row, next, before ? base : null, r.errors);
    if (errors.length) return { errors };
    const changed = before ? FIELDS.filter((k) => base[k] !== next[k]) : [];
    return {
      row: r.row,
      action: !before ? 'CREATE' : changed.length ? 'UPDATE' : 'UNCHANGED',
      computerId: before?.id ?? null,
      version: before?.version ?? null,
      data: next,
      before: before ? base : null,
      changed,
    };
  }

  /** The reference rules of device.refs.ts, against the maps loaded once (newly chosen values only). */
  private rules(row: number, d: ImportValues, before: ImportValues | null, reported: RowError[]): RowError[] {
    const out: RowError[] = [];
    // A person the row names but that could not be resolved is not compared (the stored one stands in for it).
    const unresolvedPerson = reported.some(
      (e) => e.column === '使用者' || e.column === '使用者ID' || e.column === '前使用者',
    );
    const changed = (k: ImportField) => !before || before[k] !== d[k];
    if (d.currentUserId !== null && changed('currentUserId') && this.refs.employees.get(d.currentUserId)?.retired) {
      out.push({ row, column: '使用者', reason: '退職した社員は使用者にできません。' });
    }
    if (!unresolvedPerson && d.currentUserId !== null && d.currentUserId === d.previousUserId)
      out.push({ row, column: '前使用者', reason: '使用者と前使用者に同じ社員は指定できません。' });
    if (
      d.officeAccountId !== null &&
      changed('officeAccountId') &&
      this.refs.suspendedAccounts.has(d.officeAccountId)
    ) {
      out.push({
        row,
        column: 'Microsoft Office アカウント',
        reason: '停止中の Microsoft Office アカウントは紐付けられません。',
      });
    }
    return out;
  }
}

/** Columns in the file's usual order (the export's), for a row's errors. */
const COLUMN_ORDER = new Map(Object.keys(IMPORT_COLUMNS).map((c, i) => [c, i]));
const columnIndex = (c: string | null) =>
  c === null ? Number.MAX_SAFE_INTEGER : (COLUMN_ORDER.get(c) ?? Number.MAX_SAFE_INTEGER - 1);

/**
 * A rejected row's errors, one per cell (the first reason found for a column: an unknown name or an
 * error value is not reported again as, say, a required field), in column order.
 */
function oneErrorPerCell(errors: RowError[]): RowError[] {
  const seen = new Set<string | null>();
  const out = errors.filter((e) => (e.column !== null && seen.has(e.column) ? false : (seen.add(e.column), true)));
  return out.sort((a, b) => columnIndex(a.column) - columnIndex(b.column));
}

type Checked = { ok: true; value: unknown } | { ok: false };
/** Values per field whose result is remembered (管理番号 is unique per row: nothing to remember). */
const MEMO_LIMIT = 20_000;

/**
 * The form's rules for the import's hot path, from their one definition in computer.admin.ts: each
 * field's own zod schema (`computerFields`), run once per distinct value of that field (makers,
 * models, dates, people and places repeat across rows; the schemas are pure), then the form's
 * date-order rule (`datesInOrder`). Returns the form's output, or null when any rule fails (the
 * caller then runs the whole `computerSchema` for the form's exact issues).
 */
class FormRules {
  private readonly schemas = FIELDS.map((k) => computerFields[k]);
  private readonly memos = FIELDS.map((k) => (k === 'assetNumber' ? null : new Map<unknown, Checked>()));

  /** The cells a row sets, each against its field's rule alone (a row with no stored computer to merge onto). */
  cells(row: number, values: RawValues): RowError[] {
    const out: RowError[] = [];
    for (let i = 0; i < FIELDS.length; i++) {
      const k = FIELDS[i];
      if (values[k] === undefined) continue;
      const p = this.schemas[i].safeParse(values[k]);
      if (!p.success)
        out.push({
          row,
          column: COLUMN_OF[k],
          reason: p.error.issues[0]?.message ?? `${COLUMN_OF[k]}の値が正しくありません。`,
        });
    }
    return out;
  }

  check(data: ImportValues): ImportValues | null {
    const out = this.values;
    for (let i = 0; i < FIELDS.length; i++) {
      const v = data[FIELDS[i]];
      const memo = this.memos[i];
      let c = memo?.get(v);
      if (c === undefined) {
        const p = this.schemas[i].safeParse(v);
        c = p.success ? { ok: true, value: p.data ?? null } : { ok: false };
        if (memo) {
          if (memo.size >= MEMO_LIMIT) memo.clear();
          memo.set(v, c);
        }
      }
      if (!c.ok) return null;
      out[i] = c.value;
    }
    const next = fromFieldOrder(out);
    return datesInOrder(next) ? next : null;
  }

  /** The checked values of the row being checked, in FIELDS order (reused: check builds its answer from it at once). */
  private readonly values: unknown[] = new Array(FIELDS.length);
}

const quote = (s: string) => `"${s.replace(/["\\]/g, (c) => `\\${c}`)}"`;
