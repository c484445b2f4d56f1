import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { numArg, type BenchOutcome } from './bench.js';
import type { CompareSpec } from './compare.js';
import { summariseProfile, type ProfileSummary } from './cpuprofile.js';
import { ms, table } from './format.js';
import { runStep } from './load.js';
import { REPO_ROOT } from './procs.js';
import { cpuPct, sleep, type Server } from './steps.js';

/** --profile: one rate, timings inside both servers and a CPU profile of each over the same window. */
export async function profileRun(spec: CompareSpec, servers: Server[]): Promise<BenchOutcome> {
  const { args, log } = spec;
  const rate = numArg(args, 'rate', spec.defaults?.rate ?? 50);
  const seconds = numArg(args, 'seconds', 15);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const dir = path.join(REPO_ROOT, 'bench/results', `${spec.name}-profile-${stamp}`);
  fs.mkdirSync(dir, { recursive: true });
  const out: Record<string, unknown> = { rate, seconds, dir: path.relative(REPO_ROOT, dir), loadavg: os.loadavg() };
  for (const s of servers) {
    // First without the profiler: latency, CPU per request and the timings inside the server.
    await s.child.stats(true); // also resets the timings
    const w0 = performance.now();
    const plain = await runStep(s.target, s.agent, { rate, durationMs: seconds * 1000, seed: 7 });
    const st0 = await s.child.stats(true);
    const cpuPerReqMs = (st0.cpuUserMs + st0.cpuSystemMs) / Math.max(1, plain.ok);
    const timings =
      (st0.extra as { timings?: Record<string, { n: number; mean: number; p50: number; p99: number }> })?.timings ?? {};
    log(
      `\n${s.label} at ${rate} rps for ${seconds} s: client p50 ${ms(plain.p50)} ms, p99 ${ms(plain.p99)} ms, errors ${plain.errors}`,
    );
    log(
      `  server CPU ${cpuPct(st0, performance.now() - w0).toFixed(0)}% of a core = ${cpuPerReqMs.toFixed(2)} ms CPU per request`,
    );
    log(
      table(
        ['inside the server', 'n', 'mean ms', 'p50 ms', 'p99 ms'],
        Object.entries(timings).map(([k, v]) => [k, v.n, v.mean.toFixed(2), v.p50.toFixed(2), v.p99.toFixed(2)]),
      ),
    );
    // Then the same load again under the CPU profiler.
    await sleep(300);
    await s.child.request({ type: 'profileStart' });
    const r = await runStep(s.target, s.agent, { rate, durationMs: seconds * 1000, seed: 8 });
    const file = path.join(dir, `${s.key}.cpuprofile`);
    await s.child.request({ type: 'profileStop', file });
    const st = await s.child.stats(true);
    const prof: ProfileSummary = summariseProfile(file);
    log(
      `  CPU profile ${path.relative(REPO_ROOT, file)} (p99 under profiling ${ms(r.p99)} ms): busy ${prof.busyMs.toFixed(0)} ms of ${prof.totalMs.toFixed(0)} ms = ${(prof.busyMs / Math.max(1, r.ok)).toFixed(2)} ms per request`,
    );
    log(
      table(
        ['self time by area', 'ms', '% busy'],
        prof.byArea.slice(0, 18).map((a) => [a.area, a.ms.toFixed(0), a.pctBusy.toFixed(1)]),
      ),
    );
    log(
      table(
        ['hottest functions (self)', 'ms', '% busy'],
        prof.topFunctions.slice(0, 20).map((f) => [f.fn.slice(0, 110), f.ms.toFixed(0), f.pctBusy.toFixed(1)]),
      ),
    );
    out[s.key] = { plain, cpuPerReqMs, timings, profiled: r, server: st, profile: prof };
  }
  log(
    `load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  return { pass: null, headline: `profile at ${rate} rps written to ${out.dir}`, results: out };
}
