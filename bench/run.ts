/**
 * `npm run bench [-- <name filter>…] [--flag[=value]…]`: runs every bench/*.bench.ts whose name
 * contains one of the filters (all of them without a filter), prints their tables and writes each
 * result as JSON to bench/results/<name>-<timestamp>.json. `--list` shows the benches. `--summary`
 * also writes each bench's row of the table in bench/README.md (command, result, date and commit,
 * verdict; see lib/summary-table.ts); a crashed run or a `--profile` run leaves the row alone.
 * Exit code 1 when a bench fails its target or crashes, 2 when a verdict was impossible (busy machine). Child processes and embedded databases are
 * stopped at the end, on error and on Ctrl-C.
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cleanupAll, installSignalHandlers, REPO_ROOT } from './lib/procs.js';
import type { Bench, BenchArgs, BenchOutcome } from './lib/bench.js';
import { upsertSummaryRow } from './lib/summary-table.js';

const BENCH_DIR = path.join(REPO_ROOT, 'bench');
const RESULTS_DIR = path.join(BENCH_DIR, 'results');

function parseArgs(argv: string[]): { filters: string[]; args: BenchArgs } {
  const filters: string[] = [];
  const args: BenchArgs = {};
  for (const a of argv) {
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      if (eq > 0) args[a.slice(2, eq)] = a.slice(eq + 1);
      else args[a.slice(2)] = true;
    } else filters.push(a);
  }
  return { filters, args };
}

function gitCommit(): string | null {
  try {
    return execSync('git rev-parse --short HEAD', { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return null;
  }
}

/** A `+` after the commit: tracked files had uncommitted changes, so the run measured more than the commit. */
function commitLabel(): string {
  const commit = gitCommit();
  if (!commit) return 'no commit';
  try {
    const dirty = execSync('git status --porcelain --untracked-files=no', {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .toString()
      .trim();
    return dirty ? `${commit}+` : commit;
  } catch {
    return commit;
  }
}

const README = path.join(BENCH_DIR, 'README.md');

function writeSummaryRow(name: string, startedAt: Date, outcome: BenchOutcome) {
  const flags = Object.entries(args)
    .filter(([k]) => k !== 'summary')
    .map(([k, v]) => (v === true ? `--${k}` : `--${k}=${v}`));
  const verdict = outcome.inconclusive
    ? 'INCONCLUSIVE'
    : outcome.pass === null
      ? '– (no target)'
      : outcome.pass
        ? 'PASS'
        : 'FAIL';
  const when = startedAt.toISOString().slice(0, 16).replace('T', ' ');
  const updated = upsertSummaryRow(fs.readFileSync(README, 'utf8'), {
    bench: name,
    command: `\`npm run bench -- ${[name, ...flags].join(' ')}\``,
    result: outcome.headline,
    run: `${when} UTC, ${commitLabel()}`,
    verdict,
  });
  fs.writeFileSync(README, updated);
  console.log(`summary: ${name}'s row in bench/README.md rewritten`);
}

const { filters, args } = parseArgs(process.argv.slice(2));
const files = fs
  .readdirSync(BENCH_DIR)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort();
const all = files.map((f) => ({ name: f.replace(/\.bench\.ts$/, ''), file: path.join(BENCH_DIR, f) }));
const selected = filters.length ? all.filter((b) => filters.some((f) => b.name.includes(f))) : all;

if (args.list || !selected.length) {
  if (!selected.length) console.error(`No bench matches ${filters.join(', ')}.`);
  console.log(`Benches: ${all.map((b) => b.name).join(', ')}`);
  process.exit(selected.length ? 0 : 1);
}

installSignalHandlers();
let exitCode = 0;
const summary: string[] = [];
for (const b of selected) {
  const startedAt = new Date();
  console.log(`\n=== bench: ${b.name} (${startedAt.toISOString()}) ===`);
  let record: Record<string, unknown>;
  try {
    const bench = (await import(pathToFileURL(b.file).href)).default as Bench;
    const outcome = await bench.run({ args, log: (m) => console.log(m) });
    summary.push(`${b.name}: ${outcome.headline}`);
    if (outcome.pass === false) exitCode = 1;
    else if (outcome.inconclusive && exitCode === 0) exitCode = 2;
    const status = outcome.inconclusive
      ? 'inconclusive'
      : outcome.pass === null
        ? 'done'
        : outcome.pass
          ? 'pass'
          : 'fail';
    record = { status, headline: outcome.headline, results: outcome.results };
    if (args.summary && !args.profile) {
      try {
        writeSummaryRow(b.name, startedAt, outcome);
      } catch (err) {
        exitCode = 1;
        console.error(`summary: ${(err as Error).message}`);
      }
    }
  } catch (err) {
    exitCode = 1;
    console.error(`bench ${b.name} failed:`, err);
    summary.push(`${b.name}: ERROR ${(err as Error).message}`);
    record = { status: 'error', error: (err as Error).stack ?? String(err) };
  } finally {
    await cleanupAll();
  }
  const finishedAt = new Date();
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  const out = path.join(RESULTS_DIR, `${b.name}-${stamp}.json`);
  const host = {
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    loadavg: os.loadavg(),
    memGb: os.totalmem() / 2 ** 30,
  };
  fs.writeFileSync(
    out,
    JSON.stringify(
      {
        bench: b.name,
        startedAt,
        finishedAt,
        seconds: (finishedAt.getTime() - startedAt.getTime()) / 1000,
        commit: gitCommit(),
        args,
        host,
        ...record,
      },
      null,
      2,
    ) + '\n',
  );
  console.log(
    `results: ${path.relative(REPO_ROOT, out)} (${((finishedAt.getTime() - startedAt.getTime()) / 1000).toFixed(0)} s)`,
  );
}
console.log(`\n${summary.join('\n')}`);
process.exit(exitCode);
