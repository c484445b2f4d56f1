import type { Router } from 'express';
import type { AppContext } from '../../platform/context.js';
import { requireUser } from '../../platform/authz.js';
import { badInput } from '../../platform/errors.js';
import { handle } from '../../platform/rest.js';
import { queryBool } from '../../platform/validation.js';
import { DEVICE_ROLES } from '../employees/employee.enums.js';
import { sendXlsx } from '../../platform/xlsx-export.js';
import { isFinished, type ImportJobView } from './import.service.js';
import { UploadRefused } from './import.sniff.js';
import { sendTemplate } from './import.template.js';
import { readUpload } from './import.upload.js';

export function toApiImportJob(j: ImportJobView) {
  return {
    job_id: j.id,
    mode: j.mode.toLowerCase(),
    status: j.status.toLowerCase(),
    file_name: j.fileName,
    total_rows: j.totalRows,
    processed_rows: j.processedRows,
    created: j.created,
    updated: j.updated,
    unchanged: j.unchanged,
    rejected: j.rejected,
    error: j.error,
    preview: j.preview.map((p) => ({
      row: p.row,
      action: p.action.toLowerCase(),
      asset_number: p.assetNumber,
      computer_id: p.computerId,
      maker: p.maker,
      model: p.model,
      current_user_name: p.currentUserName,
      changed: p.changed,
      cleared: p.cleared,
    })),
    created_at: j.createdAt.toISOString(),
    finished_at: j.finishedAt?.toISOString() ?? null,
    error_report_url: j.errorReportUrl,
  };
}

/** The spec's Japanese summary of a finished job. */
export function importMessage(j: ImportJobView): string {
  if (j.rejected > 0 && j.mode === 'PREVIEW')
    return `確認が完了しました。${j.rejected}行でエラーがあります（まだ何も書き込まれていません）`;
  if (j.rejected > 0) return `取り込みは完了しましたが、${j.rejected}行でエラーがありました`;
  const verb = j.mode === 'PREVIEW' ? '確認' : '取り込み';
  return `${verb}が完了しました（作成 ${j.created}件、更新 ${j.updated}件、変更なし ${j.unchanged}件）`;
}

const imports = (ctx: AppContext) => ctx.services.imports;

const MAX_WAIT_MS = 600_000;
/** `wait` of GET /computers/import/{jobId}: absent or '' → 0; else whole milliseconds up to MAX_WAIT_MS, or BAD_USER_INPUT. */
function queryWaitMs(v: unknown): number {
  if (v === undefined || v === '') return 0;
  const n = typeof v === 'string' && /^\d{1,6}$/.test(v) ? Number(v) : NaN;
  if (!(n <= MAX_WAIT_MS))
    throw badInput(`wait はミリ秒（0〜${MAX_WAIT_MS}の整数）で指定してください。`, [
      { field: 'wait', message: `0〜${MAX_WAIT_MS}` },
    ]);
  return n;
}
const guard = (ctx: AppContext) => requireUser(ctx, DEVICE_ROLES);

/**
 * POST /computers/import (multipart `file`; ?dry_run=1 preview; ?wait=0 answer at once),
 * GET /computers/import/template, POST /computers/import/{jobId}/apply, GET /computers/import/{jobId} (?wait=ms long poll),
 * GET /computers/import/{jobId}/errors. Mounted before /computers/{id}.
 */
export function importRoutes(r: Router): void {
  r.post(
    '/computers/import',
    handle(
      async (ctx, req, res) => {
        guard(ctx);
        let job: ImportJobView;
        try {
          const upload = await readUpload(req, ctx.services.config.IMPORT_MAX_BYTES);
          job = await imports(ctx).upload(ctx, upload, queryBool(req.query.dry_run, 'dry_run') === true);
        } catch (err) {
          if (!(err instanceof UploadRefused)) throw err;
          res.setHeader('Connection', 'close'); // the rest of a refused upload is not read
          return void res.status(err.httpStatus).json({ error: err.message, code: err.reason });
        }
        const waitMs = req.query.wait === '0' ? 0 : ctx.services.config.IMPORT_WAIT_MS;
        if (waitMs > 0) job = await imports(ctx).wait(ctx, job.id, waitMs);
        if (!isFinished(job)) {
          return void res.status(202).json({
            job_id: job.id,
            status: job.status.toLowerCase(),
            message: waitMs ? '取り込みを処理中です。job_id で状況を確認してください。' : '取り込みを受け付けました。',
          });
        }
        if (job.status === 'FAILED')
          return void res.status(400).json({ error: job.error, code: 'IMPORT_FAILED', job_id: job.id });
        const errors = await imports(ctx).errors(ctx, job.id, 10_000);
        return {
          message: importMessage(job),
          errors,
          job_id: job.id,
          created: job.created,
          updated: job.updated,
          unchanged: job.unchanged,
          rejected: job.rejected,
        };
      },
      { upload: true },
    ),
  );
  r.get(
    '/computers/import/template',
    handle(async (ctx, _req, res) => void (guard(ctx), await sendTemplate(ctx, res))),
  );
  r.post(
    '/computers/import/:jobId/apply',
    handle(async (ctx, req) => {
      const job = await imports(ctx).applyPreview(ctx, String(req.params.jobId));
      return { job_id: job.id, status: job.status.toLowerCase() };
    }, 202),
  );
  r.get(
    '/computers/import/:jobId/errors',
    handle(
      async (ctx, req, res) =>
        void (await sendXlsx(res, await imports(ctx).errorReport(ctx, String(req.params.jobId)))),
    ),
  );
  r.get(
    '/computers/import/:jobId',
    handle(async (ctx, req) => {
      guard(ctx);
      // ?wait=ms: a long poll (answers when the job has finished, or after that long; at most IMPORT_WAIT_MS).
      const waitMs = Math.min(queryWaitMs(req.query.wait), ctx.services.config.IMPORT_WAIT_MS);
      const id = String(req.params.jobId);
      return toApiImportJob(waitMs > 0 ? await imports(ctx).wait(ctx, id, waitMs) : await imports(ctx).get(ctx, id));
    }),
  );
}
