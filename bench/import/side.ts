/**
 * Bench child for the two references of bench/import.bench.ts, each in a process of its own (so its
 * time and peak memory are its own). BENCH_IMPORT_MODE:
 *
 *   floor  exceljs's streaming WorkbookReader over the file (the options import.sheet.ts uses), every
 *          row's values touched; no database. Timed on the second parse in the process (warm).
 *   naive  the whole workbook parsed at once (`new ExcelJS.Workbook().xlsx.readFile`), then for the
 *          first BENCH_NAIVE_ROWS data rows one ORM round per row: em.findOne by 管理番号, em.create,
 *          em.flush (a fresh unit of work per row), into DATABASE_URL (same schema, same master data).
 *          Rows are parsed with the product's readHeader/parseRow; rows with errors are skipped.
 *
 * The result travels in the 'ready' message; the parent then stops the child.
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { HeaderMap } from '@intranet/graph/areas';
import type { Cell } from '@intranet/graph';
import { runChild } from '../lib/child.js';

const file = process.env.BENCH_IMPORT_FILE!;
const hwmMb = () => {
  const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) / 1024 : process.memoryUsage().rss / 1048576;
};

async function parseOnce(): Promise<{ rows: number; cells: number; seconds: number; cpuSeconds: number }> {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const buf = fs.readFileSync(file); // as the worker gets it: the upload's bytes
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([buf]), {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  let rows = 0;
  let cells = 0;
  for await (const ws of reader) {
    for await (const r of ws) {
      rows++;
      cells += (r.values as unknown[]).length;
    }
    break;
  }
  const seconds = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  return { rows: rows - 1, cells, seconds, cpuSeconds: (c.user + c.system) / 1e6 };
}

/**
 * The parse timed warm: after one untimed parse of the same file in this process (the platform's
 * apply runs in a server whose preview has already run the same code; a first parse in a fresh
 * process runs 6-12 % slower while the JIT compiles).
 */
async function floor(): Promise<Record<string, unknown>> {
  const cold = await parseOnce();
  const warm = await parseOnce();
  return { ...warm, coldSeconds: cold.seconds, peakMb: hwmMb() };
}

const cell = (v: ExcelJS.CellValue): Cell => {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || v instanceof Date) return v;
  return String(v);
};

async function naive(): Promise<Record<string, unknown>> {
  const limit = Number(process.env.BENCH_NAIVE_ROWS ?? 5000);
  // Loaded here, not at the top: the floor's process (and its peak RSS) carries no ORM.
  const { openOrm } = await import('@intranet/graph');
  const { Computer } = await import('@intranet/graph/areas');
  const { loadImportRefs } = await import('@intranet/graph/areas');
  const { parseRow, readHeader } = await import('@intranet/graph/areas');
  const orm = await openOrm(process.env.DATABASE_URL!, 4);
  try {
    const t0 = performance.now();
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const ws = wb.worksheets[0];
    const parseSeconds = (performance.now() - t0) / 1000;
    const totalRows = ws.rowCount - 1;
    const refs = await loadImportRefs(orm.em.fork());
    const actor = (
      await orm.em.fork().getConnection().execute(`select id from employee where login_id = 'devadmin'`)
    )[0].id as number;
    let header: HeaderMap | null = null;
    let done = 0;
    let inserted = 0;
    let skipped = 0;
    const t1 = performance.now();
    for (let n = 1; n <= ws.rowCount && done < limit; n++) {
      const values = (ws.getRow(n).values as ExcelJS.CellValue[]).slice(1).map(cell);
      if (!header) {
        header = readHeader(values);
        continue;
      }
      done++;
      const r = parseRow(n, values, header, refs);
      if (r.errors.length || !r.assetNumber || !r.values.maker) {
        skipped++;
        continue;
      }
      const em = orm.em.fork();
      const existing = await em.findOne(Computer, { assetNumber: r.assetNumber });
      if (existing) {
        skipped++;
        continue;
      }
      const v = r.values;
      em.create(Computer, {
        assetNumber: r.assetNumber,
        maker: v.maker!,
        deviceType: v.deviceType ?? null,
        model: v.model ?? null,
        currentUser: v.currentUserId ?? null,
        previousUser: v.previousUserId ?? null,
        location: v.locationId ?? null,
        department: v.departmentId ?? null,
        status: v.status ?? undefined,
        reason: v.reason ?? null,
        purchaseDate: v.purchaseDate ?? null,
        introductionDate: v.introductionDate ?? null,
        officeAccount: v.officeAccountId ?? null,
        acAdapter: v.acAdapter ?? null,
        powerCable: v.powerCable ?? null,
        updatedById: actor,
      } as never);
      await em.flush();
      inserted++;
    }
    const insertSeconds = (performance.now() - t1) / 1000;
    return { totalRows, parseSeconds, rows: done, inserted, skipped, insertSeconds, peakMb: hwmMb() };
  } finally {
    await orm.close();
  }
}

await runChild(async () => {
  const info = process.env.BENCH_IMPORT_MODE === 'naive' ? await naive() : await floor();
  return { info, stop: async () => undefined };
});
