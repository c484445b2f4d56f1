/**
 * One server at one rate (measure: latency, CPU per request of the server and of PostgreSQL), the
 * search for its highest passing rate (RateSearch), and the rows that report each step.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { ms } from './format.js';
import { quantile, runStep, stepSamples, type StepResult, type Target } from './load.js';
import type { BenchChild, ChildStats } from './procs.js';
import { cpuBetween, machineUse, postgresPids, snapshot } from './sysstat.js';

/** Rates tried in turn (rps) until one fails twice; then the limit is bisected. */
export const LADDER = [
  1, 2, 3, 5, 10, 15, 25, 50, 75, 100, 150, 200, 300, 400, 500, 600, 800, 1000, 1200, 1500, 2000, 2500, 3000, 4000,
  5000, 6000, 8000, 10000, 12000, 15000, 20000,
];

/**
 * The highest passing rate: up the ladder; a failed step is repeated once (the machine is shared
 * and noisy) and a second failure ends the climb; then `bisections` steps between the best passing
 * and the lowest failing rate.
 */
export class RateSearch {
  best = 0;
  private lowestFail = Infinity;
  private i = 0;
  private phase: 'climb' | 'confirm' | 'bisect' | 'done' = 'climb';
  private current: number | null = null;

  constructor(
    private readonly ladder: number[],
    private bisectionsLeft: number,
  ) {
    if (!ladder.length) this.phase = 'done';
  }

  next(): number | null {
    if (this.current !== null) return this.current;
    if (this.phase === 'climb') this.current = this.ladder[this.i];
    else if (this.phase === 'confirm') this.current = this.lowestFail;
    else if (this.phase === 'bisect') {
      const grain = this.lowestFail > 1000 ? 50 : this.lowestFail > 200 ? 10 : this.lowestFail > 20 ? 5 : 1;
      const mid = Math.round((this.best + this.lowestFail) / 2 / grain) * grain;
      if (this.bisectionsLeft <= 0 || mid <= this.best || mid >= this.lowestFail) this.phase = 'done';
      else this.current = mid;
    }
    return this.current;
  }

  record(pass: boolean): void {
    const rate = this.current!;
    this.current = null;
    if (pass) this.best = Math.max(this.best, rate);
    else this.lowestFail = Math.min(this.lowestFail, rate);
    if (this.phase === 'climb') {
      if (pass) {
        if (++this.i >= this.ladder.length) this.phase = 'done';
      } else this.phase = 'confirm';
    } else if (this.phase === 'confirm') {
      if (pass) {
        this.lowestFail = Infinity;
        this.phase = ++this.i >= this.ladder.length ? 'done' : 'climb';
      } else this.phase = 'bisect';
    } else if (this.phase === 'bisect') this.bisectionsLeft--;
  }
}

export const median = (a: number[]) => {
  const s = a.filter(Number.isFinite).sort((x, y) => x - y);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};

export const sleep = (msec: number) => new Promise((r) => setTimeout(r, msec));

export interface Server {
  key: 'full' | 'bare';
  label: string;
  child: BenchChild;
  target: Target;
  agent: http.Agent;
  steps: StepResult[];
  best: number;
}

export const cpuPct = (s: ChildStats, wallMs: number) => ((s.cpuUserMs + s.cpuSystemMs) / wallMs) * 100;

export async function measure(
  s: Server,
  rate: number,
  durationMs: number,
  p99Limit: number,
  pgData: string,
  seed = rate,
): Promise<StepResult> {
  const ours = [s.child.proc.pid!, process.pid];
  const pg0 = postgresPids(pgData);
  await s.child.stats(true);
  const m0 = snapshot([...pg0, ...ours]);
  const w0 = performance.now();
  const r = await runStep(s.target, s.agent, { rate, durationMs, seed });
  const pg1 = [...new Set([...pg0, ...postgresPids(pgData)])];
  const m1 = snapshot([...pg1, ...ours]);
  const st = await s.child.stats(true);
  r.server = {
    cpuPct: cpuPct(st, performance.now() - w0),
    cpuMsPerReq: (st.cpuUserMs + st.cpuSystemMs) / Math.max(1, r.ok),
    elu: st.elu,
    rssMb: st.rssMb,
  };
  const use = machineUse(m0, m1, pg1, ours);
  r.machine = use && m0 && m1 ? { ...use, pgMsPerReq: cpuBetween(m0, m1, pg1) / Math.max(1, r.ok) } : null;
  r.pass = r.errors === 0 && !r.saturated && r.p99 < p99Limit && r.achievedRps >= rate * 0.9;
  await sleep(300); // let the last answers' garbage and sockets settle
  return r;
}

export const STEP_HEADERS = [
  'rate',
  'achieved',
  'p50 ms',
  'p90 ms',
  'p99 ms',
  'max ms',
  'errors',
  'srv cpu ms/req',
  'pg cpu ms/req',
  'gen lag ms',
  'others cpu%',
  '',
];
export const stepRow = (r: StepResult) => [
  r.rate,
  r.achievedRps.toFixed(0),
  ms(r.p50),
  ms(r.p90),
  ms(r.p99),
  ms(r.max),
  r.errors,
  r.server ? r.server.cpuMsPerReq.toFixed(2) : '-',
  r.machine ? r.machine.pgMsPerReq.toFixed(2) : '-',
  ms(r.clientLagP99),
  r.machine ? r.machine.otherPct.toFixed(0) : '-',
  r.pass ? 'ok' : r.saturated ? 'FAIL (saturated)' : r.errors ? `FAIL (${r.firstError?.slice(0, 60)})` : 'FAIL',
];
/**
 * One row for several rounds at one rate: percentiles over every round's samples together, counts
 * summed, CPU and machine figures the median of the rounds.
 */
export function pooled(runs: StepResult[]): StepResult {
  if (runs.length === 1) return runs[0];
  const all = Float64Array.from(runs.flatMap((r) => [...(stepSamples.get(r) ?? [])])).sort();
  const m = (f: (r: StepResult) => number) => median(runs.map(f));
  return {
    ...runs[0],
    durationS: runs.reduce((a, r) => a + r.durationS, 0),
    scheduled: runs.reduce((a, r) => a + r.scheduled, 0),
    sent: runs.reduce((a, r) => a + r.sent, 0),
    achievedRps: m((r) => r.achievedRps),
    p50: quantile(all, 0.5),
    p90: quantile(all, 0.9),
    p99: quantile(all, 0.99),
    max: Math.max(...runs.map((r) => r.max)),
    mean: all.length ? all.reduce((a, b) => a + b, 0) / all.length : NaN,
    errors: runs.reduce((a, r) => a + r.errors, 0),
    ok: runs.reduce((a, r) => a + r.ok, 0),
    saturated: runs.some((r) => r.saturated),
    clientLagP99: m((r) => r.clientLagP99),
    server: { ...runs[0].server!, cpuMsPerReq: m((r) => r.server!.cpuMsPerReq) },
    machine: runs[0].machine
      ? {
          ...runs[0].machine,
          pgMsPerReq: m((r) => r.machine?.pgMsPerReq ?? NaN),
          otherPct: m((r) => r.machine?.otherPct ?? NaN),
        }
      : null,
    pass: runs.every((r) => r.pass),
  };
}
