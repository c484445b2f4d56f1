/**
 * Reads one spreadsheet as an import job does (the sheet's rows, and beside them the outline and the
 * bomb check of every zip entry) with the default limits, in a process of its own, and prints what
 * came out and the process's peak RSS: `node --conditions=source --import @swc-node/register/esm-register
 * import.hostile.child.ts <file> <xlsx|xls>`. Used by import.hostile.test.ts and bench/import/hostile-rss.ts.
 */
import { readFileSync } from 'node:fs';
import { readSheet } from './import.sheet.js';
import { sheetOutline } from '../../lib/xlsx/outline.js';
import { inspectInflated } from '../../lib/zip/inflate-check.js';
import { asRefusal, type SheetFormat } from './import.sniff.js';

const MAX_ROWS = 200_000;
const MAX_UNCOMPRESSED = 300 * 1024 * 1024;
const MAX_ENTRIES = 2000;

/**
 * The process's peak RSS in KB: VmHWM, the high-water mark of this process's own memory.
 * (process.resourceUsage().maxRSS is not: Linux keeps in it the peak of the process that spawned this
 * one, as it was at exec, so a test worker's 1 GB showed as this child's.)
 */
function peakKb(): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]);
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS;
}

const [file, format] = process.argv.slice(2) as [string, SheetFormat];
const buf = readFileSync(file);
const baseline = peakKb();
let rows = 0;
let error: string | null = null;
const beside =
  format === 'xlsx'
    ? (async () => {
        const outline = await sheetOutline(buf, MAX_UNCOMPRESSED);
        await inspectInflated(
          buf,
          MAX_ENTRIES,
          MAX_UNCOMPRESSED,
          outline && { part: outline.part, skip: outline.rows !== null },
        ).catch((err: unknown) => {
          throw asRefusal(err);
        });
      })()
    : Promise.resolve();
beside.catch(() => undefined);
try {
  for await (const batch of readSheet(buf, format, MAX_ROWS, MAX_UNCOMPRESSED)) rows += batch.length;
  await beside;
} catch (err) {
  error = `${(err as Error).name}: ${(err as Error).message}`;
}
process.stdout.write(JSON.stringify({ rows, error, baselineKb: baseline, maxRssKb: peakKb() }) + '\n');
