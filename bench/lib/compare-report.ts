import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { BenchOutcome } from './bench.js';
import type { CompareSpec } from './compare.js';
import { ms, table } from './format.js';
import type { StepResult } from './load.js';
import { median, STEP_HEADERS, stepRow, type Server } from './steps.js';

/** What a comparison measured, for the report. */
export interface Measured {
  servers: Server[];
  /** The common rate's runs of each server, and those runs pooled (full's, bare's). */
  commonRuns: Map<Server, StepResult[]>;
  commonSteps: StepResult[];
  common: number;
  roundMs: number;
  rounds: number;
  t0: number;
  setup: Record<string, unknown>;
}

/** The comparison's tables, its CPU-per-request view and its verdict (full against bare). */
export function reportComparison(spec: CompareSpec, m: Measured, p99Limit: number): BenchOutcome {
  const { log } = spec;
  const { servers, commonRuns, commonSteps, common, roundMs, rounds, t0 } = m;
  const [f, b] = servers;
  for (const s of servers) {
    log(`\n${s.label}: highest rate with p99 < ${p99Limit} ms and no errors = ${s.best || 'none'} rps`);
    log(table(STEP_HEADERS, [...s.steps].sort((x, y) => x.rate - y.rate).map(stepRow)));
  }
  log(
    `\nat a common rate of ${common} rps (${rounds} round${rounds > 1 ? 's' : ''} of ${roundMs / 1000} s, ${commonSteps[0].ok} + ${commonSteps[1].ok} answers pooled):`,
  );
  log(
    table(
      ['server', ...STEP_HEADERS],
      commonSteps.map((r) => [r.target, ...stepRow(r)]),
    ),
  );
  // A second, noise-resistant view: CPU per request (server + PostgreSQL + load generator, medians
  // over all steps) and the rate at which that would fill every core. Latency-free, so it says what
  // the code costs even when neighbours spoil p99; it is an estimate, not the measured limit.
  const cores = os.cpus().length;
  const costs = servers.map((s) => {
    const all = [...s.steps, ...commonRuns.get(s)!].filter((r) => r.server && r.machine && r.ok > 0);
    const srv = median(all.map((r) => r.server!.cpuMsPerReq));
    const pgMs = median(all.map((r) => r.machine!.pgMsPerReq));
    const gen = median(all.map((r) => (r.clientCpuPct * 10) / Math.max(1, r.achievedRps)));
    return {
      server: s.key,
      srvMs: srv,
      pgMs,
      genMs: gen,
      totalMs: srv + pgMs + gen,
      cpuBoundRps: (cores * 1000) / (srv + pgMs + gen),
    };
  });
  log(`\nCPU per request (medians over all steps) and the rate that would fill all ${cores} cores:`);
  log(
    table(
      ['server', 'server ms', 'postgres ms', 'load gen ms', 'total ms', 'cpu-bound rps'],
      costs.map((c) => [
        c.server,
        c.srvMs.toFixed(2),
        c.pgMs.toFixed(2),
        c.genMs.toFixed(2),
        c.totalMs.toFixed(2),
        c.cpuBoundRps.toFixed(0),
      ]),
    ),
  );
  const cpuRatio = costs[0].cpuBoundRps / costs[1].cpuBoundRps;
  log(`cpu-bound estimate full/bare: ${cpuRatio.toFixed(2)}`);

  const [cf, cb] = commonSteps;
  const rateRatio = b.best > 0 ? f.best / b.best : NaN;
  const p50Ratio = cf.p50 / cb.p50;
  const p99Ratio = cf.p99 / cb.p99;
  const fx = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : '-');
  const at = `at ${common} rps p50/p99 full ${ms(cf.p50)}/${ms(cf.p99)} ms, bare ${ms(cb.p50)}/${ms(cb.p99)} ms`;
  const cpu = `CPU/request server+pg full ${costs[0].srvMs.toFixed(2)}+${costs[0].pgMs.toFixed(2)} ms, bare ${costs[1].srvMs.toFixed(2)}+${costs[1].pgMs.toFixed(2)} ms (cpu-bound estimate ${cpuRatio.toFixed(2)}×)`;
  const load = `load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;
  let pass: boolean | null;
  let headline: string;
  if (spec.verdict.kind === 'none') {
    pass = null;
    headline = `${at}: full/bare p99 ${fx(p99Ratio)}×; max rate with p99 < ${p99Limit} ms full ${f.best} rps, bare ${b.best} rps (${fx(rateRatio)}×); ${cpu}; ${load}`;
  } else if (spec.verdict.kind === 'throughput') {
    const min = spec.verdict.min;
    // Without a passing rate for the bare handler there is nothing to compare against (machine too busy?).
    pass = b.best > 0 ? rateRatio >= min : null;
    const verdict = pass === null ? 'INCONCLUSIVE' : pass ? 'PASS' : 'FAIL';
    headline = `full ${f.best} rps / bare ${b.best} rps = ${fx(rateRatio)}× (target ≥ ${min}×) ${verdict}; ${at}; ${cpu}; ${load}`;
    log(`\nratio full/bare: ${f.best} / ${b.best} = ${fx(rateRatio)}  →  ${verdict} (target ≥ ${min})`);
    if (pass === null)
      log('the bare handler met no rate: the machine is too busy for a verdict (see "others cpu%"); run again later');
  } else {
    const max = spec.verdict.max;
    const met = cf.errors === 0 && cf.p99 < p99Limit && p50Ratio <= max && p99Ratio <= max;
    // A miss while the bare handler itself cannot keep p99 under the limit at this rate says more
    // about the machine than the code; when it can, the comparison at this rate stands.
    const judgeable = cb.errors === 0 && cb.p99 < p99Limit;
    pass = met ? true : judgeable ? false : null;
    const verdict = pass === null ? 'INCONCLUSIVE' : pass ? 'PASS' : 'FAIL';
    headline =
      `${at}: full/bare p50 ${fx(p50Ratio)}×, p99 ${fx(p99Ratio)}× (target ≤ ${max}×, full p99 < ${p99Limit} ms) ${verdict}; ` +
      `max rate with p99 < ${p99Limit} ms full ${f.best} rps, bare ${b.best} rps (${fx(rateRatio)}×); ${cpu}; ${load}`;
    log(
      `\nlatency full/bare at ${common} rps: p50 ${ms(cf.p50)} / ${ms(cb.p50)} = ${fx(p50Ratio)}×, p99 ${ms(cf.p99)} / ${ms(cb.p99)} = ${fx(p99Ratio)}×  →  ${verdict} (target ≤ ${max}×, full p99 < ${p99Limit} ms)`,
    );
    log(`max rate with p99 < ${p99Limit} ms: full ${f.best} rps, bare ${b.best} rps (${fx(rateRatio)}×)`);
    if (pass === null)
      log(
        `the bare handler itself missed p99 < ${p99Limit} ms at the common rate: the machine is too busy for a verdict (see "others cpu%"); run again later`,
      );
  }
  log(`${load}; total bench time ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  return {
    pass,
    inconclusive: pass === null && spec.verdict.kind !== 'none',
    headline,
    results: {
      setup: m.setup,
      full: { maxRate: f.best, steps: f.steps },
      bare: { maxRate: b.best, steps: b.steps },
      ratio: rateRatio,
      latencyRatio: { p50: p50Ratio, p99: p99Ratio },
      verdict: spec.verdict,
      pass,
      common: { rate: common, full: cf, bare: cb, rounds: { full: commonRuns.get(f), bare: commonRuns.get(b) } },
      cpuCost: { perServer: costs, cpuBoundRatio: cpuRatio },
      loadavg: os.loadavg(),
    },
  };
}
