import { randomUUID } from 'node:crypto';
import { filter, pipe } from '@graphql-yoga/subscription';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventEnvelope } from '@intranet/schema/events';
import type { AppContext } from '../../platform/context.js';
import { requireUser } from '../../platform/authz.js';
import { badInput, notFound } from '../../platform/errors.js';
import { recordMany } from '../../platform/events/record-many.js';
import { execBound } from '../../platform/sql.js';
import { DEVICE_ROLES, MASTER_DATA_ROLES } from '../employees/employee.enums.js';
import type { XlsxExport } from '../../platform/xlsx-export.js';
import type { ImportCounts, PreviewRow } from './import.run.js';
import type { RowError } from './import.rows.js';
import { uploadHandoff } from './import.handoff.js';
import { sniff, type SheetFormat } from './import.sniff.js';
import type { Upload } from './import.upload.js';

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

/** An import job as every channel shows it (GraphQL ImportJob, REST snake_case). */
export interface ImportJobView extends ImportCounts {
  id: string;
  mode: 'PREVIEW' | 'APPLY';
  status: 'QUEUED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED';
  fileName: string;
  totalRows: number | null;
  processedRows: number;
  error: string | null;
  preview: PreviewRow[];
  createdAt: Date;
  finishedAt: Date | null;
  errorReportUrl: string | null;
}

interface JobRow extends ImportCounts {
  id: string;
  mode: 'preview' | 'apply';
  status: JobStatus;
  file_name: string;
  total_rows: number | null;
  processed_rows: number;
  error: string | null;
  preview: PreviewRow[];
  created_by: number | null;
  created_at: Date;
  finished_at: Date | null;
}

const COLUMNS = `id, mode, status, file_name, total_rows, processed_rows, created, updated, unchanged, rejected, error, preview, created_by, created_at, finished_at`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const JOB = 'インポートジョブ';

function view(r: JobRow): ImportJobView {
  const finished = r.status === 'succeeded' || r.status === 'failed';
  return {
    id: r.id,
    mode: r.mode === 'preview' ? 'PREVIEW' : 'APPLY',
    status: r.status.toUpperCase() as ImportJobView['status'],
    fileName: r.file_name,
    totalRows: r.total_rows,
    processedRows: r.processed_rows,
    created: r.created,
    updated: r.updated,
    unchanged: r.unchanged,
    rejected: r.rejected,
    error: r.error,
    // Jobs stored before `cleared` existed have none.
    preview: (r.preview ?? []).map((p) => (p.cleared ? p : { ...p, cleared: [] })),
    createdAt: new Date(r.created_at),
    finishedAt: r.finished_at ? new Date(r.finished_at) : null,
    errorReportUrl: finished && r.rejected > 0 ? `/api/computers/import/${r.id}/errors` : null,
  };
}

export const isFinished = (j: ImportJobView) => j.status === 'SUCCEEDED' || j.status === 'FAILED';

/** While a request waits for its job: a look at the job at least this often besides the live event. */
const WAIT_POLL_MS = 1000;

/** `p`'s value if it settles within `ms`, else null (p keeps running). */
async function settlesWithin<T>(p: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Excel import jobs of computers (管理者, デバイス管理者, システム管理者). An upload is checked here
 * (size, type, zip bomb), stored as a job and announced by `import.requested` in the same
 * transaction; the import worker does the rest. A job is visible to its creator and to
 * 管理者/システム管理者 only (others get NOT_FOUND).
 */
export class ImportService {
  async upload(ctx: AppContext, upload: Upload, dryRun: boolean): Promise<ImportJobView> {
    const user = requireUser(ctx, DEVICE_ROLES);
    const c = ctx.services.config;
    const format = sniff(upload.fileName, upload.data, {
      maxBytes: c.IMPORT_MAX_BYTES,
      maxUncompressedBytes: c.IMPORT_MAX_UNCOMPRESSED_BYTES,
      maxZipEntries: c.IMPORT_MAX_ZIP_ENTRIES,
    });
    const id = randomUUID();
    await ctx.em.transactional(async (tx) => {
      // Bound parameters: the file goes as bytes (em.execute would inline it as a hex literal twice its size).
      await execBound(
        tx,
        `insert into import_job (id, mode, file_name, format, file, created_by) values (?, ?, ?, ?, ?, ?)`,
        [id, dryRun ? 'preview' : 'apply', upload.fileName.slice(0, 255), format, upload.data, user.id],
      );
      await requested(tx, id, dryRun ? 'preview' : 'apply', format, user.id);
    });
    // Committed: a job run by this process takes the file from here instead of reading the row back.
    uploadHandoff.put(id, upload.data);
    return this.get(ctx, id);
  }

  /**
   * Starts an apply job from a succeeded preview, with the same file. A preview is applied once:
   * asked again (a double click, a retried request), it answers the apply job it started.
   */
  async applyPreview(ctx: AppContext, previewId: string): Promise<ImportJobView> {
    const user = requireUser(ctx, DEVICE_ROLES);
    const preview = await this.get(ctx, previewId);
    if (preview.mode !== 'PREVIEW' || preview.status !== 'SUCCEEDED') {
      throw badInput('取り込みを実行できるのは、完了したプレビューだけです。', [
        { field: 'previewJobId', message: '完了したプレビューを指定してください。' },
      ]);
    }
    const id = await ctx.em.transactional(async (tx) => {
      const [{ applied_as: applied }]: { applied_as: string | null }[] = await tx.execute(
        `select applied_as from import_job where id = ? for update`,
        [previewId],
      );
      if (applied) return applied;
      const job = randomUUID();
      const [src]: { format: SheetFormat }[] = await tx.execute(
        `insert into import_job (id, mode, file_name, format, file, created_by)
         select ?, 'apply', file_name, format, file, ? from import_job where id = ? and file is not null returning format`,
        [job, user.id, previewId],
      );
      if (!src) throw badInput('プレビューのファイルは保存期間を過ぎています。もう一度アップロードしてください。');
      await tx.execute(`update import_job set applied_as = ? where id = ?`, [job, previewId]);
      await requested(tx, job, 'apply', src.format, user.id);
      return job;
    });
    return this.get(ctx, id);
  }

  async get(ctx: AppContext, id: string): Promise<ImportJobView> {
    return view(await this.row(ctx, id));
  }

  /** The first `limit` row errors, by row. */
  async errors(ctx: AppContext, id: string, limit = 100): Promise<RowError[]> {
    await this.row(ctx, id);
    return ctx.em.execute(`select "row", "column", reason from import_job_error where job_id = ? order by id limit ?`, [
      id,
      Math.max(0, Math.min(limit, 10_000)),
    ]);
  }

  /** Every row error as a spreadsheet (行, 列, 理由). */
  async errorReport(ctx: AppContext, id: string): Promise<XlsxExport<RowError>> {
    await this.row(ctx, id);
    const em = ctx.em;
    async function* rows(): AsyncGenerator<RowError> {
      for (let after = 0; ;) {
        const batch: (RowError & { id: string })[] = await em.execute(
          `select id, "row", "column", reason from import_job_error where job_id = ? and id > ? order by id limit 5000`,
          [id, after],
        );
        yield* batch;
        if (batch.length < 5000) return;
        after = Number(batch[batch.length - 1].id);
      }
    }
    return {
      title: '取り込みエラー',
      asciiTitle: 'import-errors',
      rows: rows(),
      columns: [
        { header: '行', width: 8, value: (e) => e.row },
        { header: '列', width: 24, value: (e) => e.column },
        { header: '理由', width: 60, value: (e) => e.reason },
      ],
    };
  }

  /** Waits (polling) until the job has finished or `ms` passed; returns its latest state. */
  async wait(ctx: AppContext, id: string, ms: number): Promise<ImportJobView> {
    const until = Date.now() + ms;
    // Woken by the job's import.finished (the live feed: committed events), subscribed before the
    // first look so a finish in between is not missed; a look every WAIT_POLL_MS as well, so a
    // lagging or lost live event costs at most that.
    const finished = pipe(
      ctx.services.pubsub.subscribe('event', 'import_job'),
      filter((e: EventEnvelope) => e.aggregateId === id && e.type === 'import.finished'),
    )[Symbol.asyncIterator]();
    let next: Promise<unknown> = finished.next();
    try {
      for (;;) {
        const job = await this.get(ctx, id);
        const left = until - Date.now();
        if (isFinished(job) || left <= 0) return job;
        const got = await settlesWithin(next, Math.min(WAIT_POLL_MS, left));
        if (got) next = (got as IteratorResult<unknown>).done ? new Promise(() => undefined) : finished.next();
      }
    } finally {
      await finished.return?.();
    }
  }

  private async row(ctx: AppContext, id: string): Promise<JobRow> {
    const user = requireUser(ctx, DEVICE_ROLES);
    if (!UUID.test(id)) throw notFound(JOB);
    const [r]: JobRow[] = await ctx.em.execute(`select ${COLUMNS} from import_job where id = ?`, [id]);
    const mayRead = r && (r.created_by === user.id || (MASTER_DATA_ROLES as readonly string[]).includes(user.role));
    if (!mayRead) throw notFound(JOB);
    return r;
  }
}

function requested(tx: EntityManager, jobId: string, mode: 'preview' | 'apply', format: SheetFormat, actorId: number) {
  return recordMany(tx, [
    { type: 'import.requested', aggregateId: jobId, actorId, payload: { jobId, kind: 'computers', mode, format } },
  ]);
}
