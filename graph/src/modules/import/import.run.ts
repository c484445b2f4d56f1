import v8 from 'node:v8';
import vm from 'node:vm';
import type { EntityManager } from '@mikro-orm/postgresql';
import { recordMany } from '../../platform/events/record-many.js';
import { ReferenceGuard } from './import.guard.js';
import { uploadHandoff } from './import.handoff.js';
import { ImportPlanner, type Existing, type ImportAction, type PlannedRow } from './import.plan.js';
import { loadImportRefs, type ImportRefs } from './import.refs.js';
import { COLUMN_OF, parseRow, readHeader, type HeaderMap, type ParsedRow, type RowError } from './import.rows.js';
import type { Cell } from '../../lib/xlsx/cell.js';
import { ImportFailure, readSheet, tooManyRows } from './import.sheet.js';
import { inspectInflated } from '../../lib/zip/inflate-check.js';
import { asRefusal, UploadRefused, type SheetFormat } from './import.sniff.js';
import { joinPrepared, prepareChunk, writeChunk, type PreparedChunk } from './import.writes.js';
import { sheetOutline } from '../../lib/xlsx/outline.js';

export interface ImportRunLimits {
  maxRows: number;
  maxUncompressedBytes: number;
  maxZipEntries: number;
}

export interface PreviewRow {
  row: number;
  action: ImportAction;
  assetNumber: string | null;
  computerId: number | null;
  maker: string | null;
  model: string | null;
  currentUserName: string | null;
  changed: string[];
  /** The columns of `changed` that become empty (a blank cell on an existing computer clears the field). */
  cleared: string[];
}

interface Job {
  id: string;
  mode: 'preview' | 'apply';
  format: SheetFormat;
  file: Buffer | null;
  created_by: number | null;
  status: string;
}

/** Rows created, updated, left unchanged and rejected by a job. */
export interface ImportCounts {
  created: number;
  updated: number;
  unchanged: number;
  rejected: number;
}

interface Totals extends ImportCounts {
  totalRows: number | null;
  processedRows: number;
  preview: PreviewRow[];
}

/**
 * Rows per chunk (one write statement, one outbox event, one progress step each). Alternated on
 * 100,000 rows: 1,000 → 3.47-3.52 s per job, 2,000 → 2.96-3.20, 4,000 → 2.84-2.92 (peak RSS about
 * 250 MB), 8,000 → 2.77-2.82 but a peak of 277-283 MB: each chunk costs PostgreSQL a plan of the
 * write statement (1.2 ms) and its lock and lookup statements, and the job a round of promises.
 */
const CHUNK_ROWS = 4000;
/**
 * Rows decided (looked up, checked, prepared as JSON) at a time; a chunk's write joins
 * CHUNK_ROWS / DECIDE_ROWS of them. Parsed rows wait for their decision as objects: in batches of
 * 4,000 most of them lived through a young-generation collection or two (copied, then promoted to
 * the old generation, which then needs full collections); a batch of 1,000 is decided before most of
 * its rows see one.
 */
const DECIDE_ROWS = 1000;
/** Chunks that may wait for (or be in) PostgreSQL while the sheet is read on. */
const CHUNKS_AHEAD = 2;
/** A full garbage collection once a job's heap has grown this much since the last one, and when it ends (see collectGarbage). */
const GC_HEAP_GROWTH = 48 * 1024 * 1024;
const JOB_LOCK_SPACE = 7201;
const PROGRESS_MS = 300;
const PREVIEW_ROWS = 100;
export const JOB_CRASHED = '取り込み中にエラーが発生しました。この取り込みによる変更は保存されていません。';

let fullGc: (() => void) | null = null;
/**
 * A full, compacting garbage collection. An import keeps up to CHUNKS_AHEAD parsed chunks (their
 * cells, plans and JSON) alive while the next one is read, so much of it is promoted and V8 grows the
 * old generation, then keeps that heap after the job (with exceljs's reader, which allocated far
 * more per cell, a preview followed by its apply stacked up over 400 MB of RSS). Collecting when
 * the heap in use has grown by GC_HEAP_GROWTH since its low point (checked after each chunk: about
 * every 30,000 rows of the export's columns, sooner for wide text) and at the end keeps the process
 * near its idle size (apply of 100,000 rows: peak RSS about 235 MB). Each costs about 40 ms of this
 * thread, the job's bottleneck, so no more often than that (every 20,000 rows, as before: five per
 * 100,000 rows instead of three; every 32 MB: six). The gc function is the one `--expose-gc`
 * gives, obtained at run time.
 */
export function collectGarbage(): void {
  if (!fullGc) {
    v8.setFlagsFromString('--expose-gc');
    fullGc = vm.runInNewContext('gc') as () => void;
  }
  fullGc();
}

let gcAfterJob: NodeJS.Timeout | null = null;
/**
 * The collection at a job's end, just after it: not between the job's last write and its commit
 * and answer (about 40 ms of this thread, which also relays the job's finish to whoever waits).
 */
function collectGarbageSoon(): void {
  if (gcAfterJob) return;
  gcAfterJob = setTimeout(() => {
    gcAfterJob = null;
    collectGarbage();
  }, 200);
  gcAfterJob.unref();
}

/** Tells when the heap in use has grown `limit` bytes past its lowest reading since the last collection. */
export class HeapGrowth {
  private low: number;

  constructor(
    private readonly limit: number,
    private readonly used: () => number = () => v8.getHeapStatistics().used_heap_size,
  ) {
    this.low = used();
  }

  /** Runs `collect` when the heap has grown past the limit (the low point is then read afresh); says whether it did. */
  collectIfGrown(collect: () => void): boolean {
    const now = this.used();
    this.low = Math.min(this.low, now);
    if (now - this.low <= this.limit) return false;
    collect();
    this.low = this.used();
    return true;
  }
}

/** Jobs not finished yet (queued, or running in a worker that may have died), oldest first. */
export async function pendingJobIds(em: EntityManager, limit = 20): Promise<string[]> {
  const rows: { id: string }[] = await em.execute(
    `select id from import_job where status in ('queued', 'running') order by created_at limit ?`,
    [limit],
  );
  return rows.map((r) => r.id);
}

/** Prunes old jobs: uploads of finished jobs after a day, the jobs themselves after 30 days. */
export async function pruneImportJobs(em: EntityManager): Promise<void> {
  await em.execute(
    `update import_job set file = null where file is not null and finished_at < now() - interval '1 day'`,
  );
  await em.execute(`delete from import_job where created_at < now() - interval '30 days'`);
}

/**
 * Runs one import job inside `tx` (the consumer's transaction, which also records that the event
 * was handled). The rows are read, planned and, for apply jobs, written inside a savepoint: any
 * failure rolls back every write of the job and leaves it `failed` with a Japanese message, which
 * is what commits (no endless retries). Progress goes out in short transactions of its own.
 */
export async function runImportJob(
  tx: EntityManager,
  jobId: string,
  limits: ImportRunLimits,
  onError?: (err: unknown) => void,
): Promise<void> {
  // The job is held by a transaction-scoped advisory lock (not a row lock: progress updates the row
  // from another connection). A worker that dies releases it, and the job is picked up again.
  const [lock] = await tx.execute(`select pg_try_advisory_xact_lock(${JOB_LOCK_SPACE}, hashtext(?)) as ok`, [jobId]);
  if (!lock?.ok) return;
  // The file from the upload in this process when it is still here (see import.handoff.ts), else from the row.
  const handed = uploadHandoff.take(jobId);
  const [job]: Job[] = await tx.execute(
    `select id, mode, format, case when ?::boolean then null else file end as file, created_by, status from import_job where id = ?`,
    [handed !== null, jobId],
  );
  if (!job || job.status === 'succeeded' || job.status === 'failed') return;
  if (handed) job.file = handed;
  const side = tx.fork();
  await side.execute(
    `update import_job set status = 'running', started_at = clock_timestamp(), processed_rows = 0 where id = ?`,
    [jobId],
  );
  let totals: Totals = {
    totalRows: null,
    processedRows: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    rejected: 0,
    preview: [],
  };
  let error: string | null = null;
  try {
    totals = await tx.transactional((inner) => processJob(inner, side, job, limits));
  } catch (err) {
    if (!(err instanceof ImportFailure)) onError?.(err);
    error = err instanceof ImportFailure ? err.message : JOB_CRASHED;
  }
  const status = error ? 'failed' : 'succeeded';
  const counts = error ? { created: 0, updated: 0, unchanged: 0, rejected: 0 } : totals;
  await tx.execute(
    `update import_job set status = ?, error = ?, finished_at = clock_timestamp(), total_rows = ?, processed_rows = ?, created = ?, updated = ?, unchanged = ?,
       rejected = ?, preview = ?::jsonb, file = case when mode = 'apply' then null else file end where id = ?`,
    [
      status,
      error,
      totals.totalRows,
      totals.processedRows,
      counts.created,
      counts.updated,
      counts.unchanged,
      counts.rejected,
      JSON.stringify(error ? [] : totals.preview),
      jobId,
    ],
  );
  collectGarbageSoon();
  await recordMany(tx, [
    {
      type: 'import.finished',
      aggregateId: jobId,
      actorId: job.created_by,
      payload: {
        jobId,
        status,
        processedRows: totals.processedRows,
        totalRows: totals.totalRows,
        ...pickCounts(counts),
      },
    },
  ]);
}

const pickCounts = (c: ImportCounts): ImportCounts => ({
  created: c.created,
  updated: c.updated,
  unchanged: c.unchanged,
  rejected: c.rejected,
});
const blank = (cells: Cell[]) => cells.every((c) => c === null || (typeof c === 'string' && c.trim() === ''));

async function processJob(tx: EntityManager, side: EntityManager, job: Job, limits: ImportRunLimits): Promise<Totals> {
  if (!job.file)
    throw new ImportFailure(
      '取り込むファイルがありません（保存期間を過ぎています）。もう一度アップロードしてください。',
    );
  const totals: Totals = {
    totalRows: null,
    processedRows: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    rejected: 0,
    preview: [],
  };
  // The row count for the progress bar (and the bomb check of every zip entry) runs beside the read,
  // not before it: it inflates the file on libuv's threads while this thread parses the sheet.
  const count: { failed: { err: unknown } | null } = { failed: null };
  const counting = countRows(job, limits).then(
    (n) => void (totals.totalRows ??= n),
    (err: unknown) => void (count.failed = { err }),
  );
  await tx.execute(`delete from import_job_error where job_id = ?`, [job.id]);
  const refs = await loadImportRefs(tx);
  const planner = new ImportPlanner(refs);
  await planner.loadStoredKeys(tx);
  const guard = job.mode === 'apply' ? await ReferenceGuard.open(tx, job.id, job.created_by) : null;
  let header: HeaderMap | null = null;
  let chunk: ParsedRow[] = [];
  let lastProgress = Date.now();
  let parsed = 0;
  const heap = new HeapGrowth(GC_HEAP_GROWTH);
  // The sheet is read on this event loop while PostgreSQL plans and writes earlier chunks: up to
  // CHUNKS_AHEAD chunks wait their turn (so neither side idles on a slow chunk of the other), and
  // they are written in order, one at a time, on the job's transaction. Progress goes out on the
  // side connection without holding up the next chunk (one write at a time, the latest figures).
  let tail: Promise<void> = Promise.resolve();
  const queued: Promise<void>[] = [];
  // The job's statements, one at a time on its connection, in the order they are asked for (pg
  // must not be handed a query while another runs): a chunk's lookup is asked for when the chunk is
  // parsed, its writes when it is decided, so PostgreSQL always has the next statement waiting.
  let lane: Promise<unknown> = Promise.resolve();
  const onConnection = <T>(run: () => Promise<T>): Promise<T> => {
    const p = lane.then(run);
    lane = p.catch(() => undefined);
    return p;
  };
  let reporting: Promise<void> | null = null;
  let reportAgain = false;
  let reportFailed: { err: unknown } | null = null;
  const report = () => {
    if (reporting) {
      reportAgain = true;
      return;
    }
    reporting = (async () => {
      do {
        reportAgain = false;
        await progress(side, job, totals);
      } while (reportAgain);
    })()
      .catch((err: unknown) => void (reportFailed ??= { err }))
      .finally(() => (reporting = null));
  };
  // Decided rows waiting to be written together (filled in decision order, in the chain of `tail`).
  let group: PreparedChunk[] = [];
  let groupRows = 0;
  const flush = async (last: boolean) => {
    if (count.failed) throw count.failed.err;
    const rows = chunk;
    chunk = [];
    // The rows' lookup is asked for now, behind the statements already asked for: PostgreSQL runs
    // it between earlier chunks' writes, and its answer is there when the rows' turn comes
    // (instead of a round trip, and PostgreSQL idle, at the start of each batch). New computers
    // only need none: they are decided while the chunk before is still being written.
    const keys = planner.storedKeys(rows);
    const found = keys ? onConnection(() => planner.lookup(tx, keys, job.mode === 'apply')) : Promise.resolve([]);
    found.catch(() => undefined); // awaited in its turn (settle waits for the lane)
    // Rows are decided in file order, each batch as soon as the one before is (not when it is
    // written); a chunk's write is asked for as soon as its last batch is decided, so the next chunk
    // is decided while PostgreSQL writes this one and PostgreSQL does not sit idle between chunks.
    const step = tail.then(async () => {
      if (rows.length) {
        group.push(handleChunk(job, guard, planner, refs, rows, await found, totals));
        groupRows += rows.length;
      }
      if (!groupRows || (groupRows < CHUNK_ROWS && !last)) return null;
      const joined = joinPrepared(group);
      const written = groupRows;
      group = [];
      groupRows = 0;
      return { written, done: onConnection(() => writeChunk(tx, guard, joined)) };
    });
    tail = step.then(() => undefined);
    tail.catch(() => undefined); // its failure is the batch's, awaited below or by settle
    const done = step.then(async (write) => {
      if (!write) return;
      await write.done;
      totals.processedRows += write.written;
      heap.collectIfGrown(collectGarbage);
      if (Date.now() - lastProgress >= PROGRESS_MS || totals.processedRows % CHUNK_ROWS === 0) {
        lastProgress = Date.now();
        report();
      }
    });
    done.catch(() => undefined); // awaited (and thrown) when its turn comes or at the end
    queued.push(done);
    while (queued.length > CHUNKS_AHEAD * (CHUNK_ROWS / DECIDE_ROWS)) await queued.shift();
  };
  const settle = async () => {
    const results = await Promise.allSettled([tail, ...queued, counting, lane]);
    while (reporting) await reporting;
    if (count.failed) throw count.failed.err;
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    if (reportFailed) throw reportFailed.err;
  };
  try {
    for await (const batch of readSheet(job.file, job.format, limits.maxRows, limits.maxUncompressedBytes)) {
      for (const r of batch) {
        if (blank(r.cells)) continue;
        if (!header) {
          header = readHeader(r.cells);
          continue;
        }
        parsed++;
        chunk.push(parseRow(r.row, r.cells, header, refs));
        if (chunk.length >= DECIDE_ROWS) await flush(false);
      }
    }
    if (!header)
      throw new ImportFailure('ファイルにデータがありません（1行目に見出し、2行目から1台ずつ入力してください）。');
    await flush(true);
  } catch (err) {
    // Never roll back under a chunk still writing: let it settle first. A failed count (a zip bomb,
    // too many rows) is the more specific reason when the read failed too.
    await settle().catch(() => undefined);
    throw count.failed?.err ?? err;
  }
  await settle();
  totals.totalRows = parsed;
  return totals;
}

/**
 * .xlsx: the progress bar's total, and the bomb check of every zip entry (each inflated with a byte
 * budget). The total is what the sheet says of itself (its `<dimension>`, or its size over the
 * bytes per row of its first rows: sheetOutline), and the sheet, which the reader inflates under
 * the same budget, is not inflated again here (that second inflation cost 0.23-0.30 CPU-s per
 * 100,000 rows, beside the reader on a 2-core machine). A sheet too small to tell is inflated
 * here too, counting its rows exactly (which may fail the job early).
 */
async function countRows(job: Job, limits: ImportRunLimits): Promise<number | null> {
  if (job.format !== 'xlsx') return null;
  try {
    const outline = await sheetOutline(job.file!, limits.maxUncompressedBytes);
    const told = outline?.rows ?? null;
    const { sheetRows } = await inspectInflated(
      job.file!,
      limits.maxZipEntries,
      limits.maxUncompressedBytes,
      outline && { part: outline.part, skip: told !== null },
    );
    if (told !== null) return Math.max(0, told - 1);
    const rows = sheetRows === null ? null : Math.max(0, sheetRows - 1);
    if (rows !== null && rows > limits.maxRows) throw tooManyRows(limits.maxRows);
    return rows;
  } catch (err) {
    const refused = asRefusal(err);
    if (refused instanceof UploadRefused) throw new ImportFailure(refused.message);
    throw err;
  }
}

/**
 * Decides a batch of rows: the counts and preview are updated at once; returns what its chunk's
 * write needs (for a preview, its rejected rows only).
 */
function handleChunk(
  job: Job,
  guard: ReferenceGuard | null,
  planner: ImportPlanner,
  refs: ImportRefs,
  rows: ParsedRow[],
  found: Existing[],
  totals: Totals,
): PreparedChunk {
  const { planned, errors } = planner.decide(rows, found);
  const rejectedRows = new Set(errors.map((e) => e.row));
  const prepared = prepareChunk(guard, job.id, job.created_by, job.mode === 'apply' ? planned : [], errors);
  for (const p of planned)
    totals[p.action === 'CREATE' ? 'created' : p.action === 'UPDATE' ? 'updated' : 'unchanged']++;
  totals.rejected += rejectedRows.size;
  if (totals.preview.length < PREVIEW_ROWS)
    totals.preview.push(
      ...previewRows(planned, rejectedRows, rows, refs).slice(0, PREVIEW_ROWS - totals.preview.length),
    );
  return prepared;
}

function previewRows(planned: PlannedRow[], rejected: Set<number>, rows: ParsedRow[], refs: ImportRefs): PreviewRow[] {
  const byRow = new Map(planned.map((p) => [p.row, p]));
  return rows
    .filter((r) => byRow.has(r.row) || rejected.has(r.row))
    .map((r) => {
      const p = byRow.get(r.row);
      const d = p?.data;
      const userId = d ? d.currentUserId : (r.values.currentUserId ?? null);
      return {
        row: r.row,
        action: p?.action ?? 'REJECT',
        assetNumber: d?.assetNumber ?? r.assetNumber,
        computerId: p?.computerId ?? r.id,
        maker: d?.maker ?? r.values.maker ?? null,
        model: d?.model ?? r.values.model ?? null,
        currentUserName: userId ? (refs.employees.get(userId)?.name ?? null) : null,
        changed: (p?.changed ?? []).map((k) => COLUMN_OF[k]),
        cleared: p?.before ? p.changed.filter((k) => p.data[k] === null).map((k) => COLUMN_OF[k]) : [],
      };
    });
}

/** processed_rows in a short transaction of its own, with the event that feeds the progress bar. */
async function progress(side: EntityManager, job: Job, t: Totals): Promise<void> {
  await side.transactional(async (s) => {
    // The total is what the sheet said of itself (an estimate, for some files): never below what is done.
    const total = t.totalRows === null ? null : Math.max(t.totalRows, t.processedRows);
    await s.execute(`update import_job set processed_rows = ?, total_rows = coalesce(?, total_rows) where id = ?`, [
      t.processedRows,
      total,
      job.id,
    ]);
    await recordMany(s, [
      {
        type: 'import.progressed',
        aggregateId: job.id,
        actorId: job.created_by,
        payload: { jobId: job.id, processedRows: t.processedRows, totalRows: total },
      },
    ]);
  });
}

export type { RowError };
