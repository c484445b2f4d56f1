/**
 * The feed bench's report and verdict, from lib/compare.ts's figures: both servers side by side at
 * every rate both ran (p50, p99, their p99 ratio), then one line per target of issue 25:
 *   1. full p99 < 50 ms at the common fixed rate;
 *   2. full p99 ≤ 1.5 × the bare handler's at that rate;
 *   3. full's highest rate with p99 < 50 ms ≥ 0.6 × the bare handler's.
 * A target is INCONCLUSIVE, not FAIL, when the bare handler itself could not meet the limit there
 * (the machine, or the SQL both run, is the limit then, not the stack).
 */
import os from 'node:os';
import type { BenchOutcome } from '../lib/bench.js';
import { ms, table } from '../lib/format.js';
import type { StepResult } from '../lib/load.js';

/** What compareFullBare returns in `results` (the parts read here). */
export interface Comparison {
  full: { maxRate: number; steps: StepResult[] };
  bare: { maxRate: number; steps: StepResult[] };
  common: { rate: number; full: StepResult; bare: StepResult };
  cpuCost: { perServer: { server: string; srvMs: number; pgMs: number }[]; cpuBoundRatio: number };
}

export interface FeedTargets {
  p99Ms: number;
  maxP99Ratio: number;
  minRateRatio: number;
}

type Verdict = 'PASS' | 'FAIL' | 'INCONCLUSIVE';
const fx = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : '-');

/** Each rate's last step of a server (a failed step is repeated once: the repeat is what counted). */
function byRate(steps: StepResult[]): Map<number, StepResult> {
  return new Map(steps.map((s) => [s.rate, s]));
}

export function rateTable(c: Comparison): string {
  const full = byRate(c.full.steps);
  const bare = byRate(c.bare.steps);
  const rates = [...new Set([...full.keys(), ...bare.keys()])].sort((a, b) => a - b);
  const cell = (r: StepResult | undefined, f: (r: StepResult) => number) => (r ? ms(f(r)) : '-');
  const mark = (r: StepResult | undefined) =>
    !r ? '-' : r.pass ? 'ok' : r.saturated ? 'saturated' : r.errors ? `${r.errors} errors` : 'over';
  return table(
    ['rate', 'full p50', 'full p99', 'bare p50', 'bare p99', 'p99 full/bare', 'full', 'bare'],
    rates.map((rate) => {
      const f = full.get(rate);
      const b = bare.get(rate);
      return [
        rate,
        cell(f, (r) => r.p50),
        cell(f, (r) => r.p99),
        cell(b, (r) => r.p50),
        cell(b, (r) => r.p99),
        f && b ? fx(f.p99 / b.p99) : '-',
        mark(f),
        mark(b),
      ];
    }),
  );
}

export function judgeFeed(
  c: Comparison,
  t: FeedTargets,
  log: (line: string) => void,
): Pick<BenchOutcome, 'pass' | 'inconclusive' | 'headline'> & { verdicts: Record<string, Verdict> } {
  const { rate, full: cf, bare: cb } = c.common;
  const bareHeld = cb.errors === 0 && cb.p99 < t.p99Ms;
  const p99Ratio = cf.p99 / cb.p99;
  const rateRatio = c.bare.maxRate > 0 ? c.full.maxRate / c.bare.maxRate : NaN;
  const fullHeld = cf.errors === 0 && cf.p99 < t.p99Ms;
  const verdicts: Record<string, Verdict> = {
    p99: fullHeld ? 'PASS' : bareHeld ? 'FAIL' : 'INCONCLUSIVE',
    ratio: p99Ratio <= t.maxP99Ratio && cf.errors === 0 ? 'PASS' : bareHeld ? 'FAIL' : 'INCONCLUSIVE',
    rate: c.bare.maxRate === 0 ? 'INCONCLUSIVE' : rateRatio >= t.minRateRatio ? 'PASS' : 'FAIL',
  };
  log(`\nfull and bare at each rate of the search (the last step of each at that rate):`);
  log(rateTable(c));
  log(`\ntargets (issue 25), at the common rate of ${rate} rps where a rate is named:`);
  log(`  full p99 ${ms(cf.p99)} ms < ${t.p99Ms} ms${cf.errors ? ` (${cf.errors} errors)` : ''}  →  ${verdicts.p99}`);
  log(`  p99 full/bare ${ms(cf.p99)} / ${ms(cb.p99)} = ${fx(p99Ratio)}× ≤ ${t.maxP99Ratio}×  →  ${verdicts.ratio}`);
  log(
    `  highest rate with p99 < ${t.p99Ms} ms full/bare ${c.full.maxRate} / ${c.bare.maxRate} rps = ${fx(rateRatio)}× ≥ ${t.minRateRatio}×  →  ${verdicts.rate}`,
  );
  if (!bareHeld)
    log(
      `  the bare handler itself missed p99 < ${t.p99Ms} ms at ${rate} rps: the machine is too busy to judge the latency targets; run again later`,
    );
  const all = Object.values(verdicts);
  const pass = all.includes('FAIL') ? false : all.includes('INCONCLUSIVE') ? null : true;
  const [cpuFull, cpuBare] = c.cpuCost.perServer;
  const headline =
    `at ${rate} rps p50/p99 full ${ms(cf.p50)}/${ms(cf.p99)} ms, bare ${ms(cb.p50)}/${ms(cb.p99)} ms: p99 < ${t.p99Ms} ms ${verdicts.p99}, ` +
    `p99 ${fx(p99Ratio)}× (≤ ${t.maxP99Ratio}×) ${verdicts.ratio}; max rate with p99 < ${t.p99Ms} ms full ${c.full.maxRate} / bare ${c.bare.maxRate} rps = ${fx(rateRatio)}× ` +
    `(≥ ${t.minRateRatio}×) ${verdicts.rate}; CPU/request server+pg full ${cpuFull.srvMs.toFixed(2)}+${cpuFull.pgMs.toFixed(2)} ms, bare ${cpuBare.srvMs.toFixed(2)}+${cpuBare.pgMs.toFixed(2)} ms ` +
    `(cpu-bound estimate ${fx(c.cpuCost.cpuBoundRatio)}×); load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`;
  return { pass, inconclusive: pass === null, headline, verdicts };
}
