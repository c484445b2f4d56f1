/**
 * The live bench's report: both servers' paced and train phases side by side, the ratios, the
 * correctness of every delivery, and the verdict (paced p99 under the limit, train deliveries/s ≥
 * target × bare's, every delivery correct).
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { BenchOutcome } from '../lib/bench.js';
import { ms, table } from '../lib/format.js';
import { load, type Check, type PhaseResult } from './phases.js';

type ServerRun = { paced: PhaseResult; train: PhaseResult; samples: Record<string, string> };

export interface LiveReport {
  g: ServerRun;
  b: ServerRun;
  checks: Check[];
  subs: number;
  viewers: number;
  nGens: number;
  /** The bench's own setup figures, for the results file (what is changed, and how). */
  setup: Record<string, unknown>;
  /** What a correct run means, said in the log when every check passed. */
  correctText: string;
  nPaced: number;
  nTrain: number;
  gapMs: number;
  pool: number;
  publicFrame: string;
  p99Limit: number;
  targetRatio: number;
  t0: number;
  log: (line: string) => void;
}

export function reportLive(r: LiveReport): BenchOutcome {
  const {
    g,
    b,
    checks,
    subs,
    nGens,
    setup,
    correctText,
    nPaced,
    nTrain,
    gapMs,
    pool,
    publicFrame,
    p99Limit,
    targetRatio,
    t0,
    log,
  } = r;
  const row = (name: string, p: PhaseResult) => [
    name,
    `${p.deliveries}/${p.expected}`,
    ms(p.p50),
    ms(p.p90),
    ms(p.p99),
    ms(p.max),
    ms(p.p99FromAnswer),
    p.deliveriesPerSec.toFixed(0),
    p.serverCpuMsPerChange.toFixed(1),
    ((p.genCpuMs / Math.max(1, p.deliveries)) * 1000).toFixed(1),
    ms(p.genLagP99),
    p.machine ? p.machine.otherPct.toFixed(0) : '-',
    p.load,
  ];
  log(
    `\n${subs} subscriptions over ${r.viewers} sessions, ${nGens} load generators; latency = change request sent (mutation / POST) → frame received`,
  );
  log(
    table(
      [
        'server / phase',
        'delivered',
        'p50 ms',
        'p90 ms',
        'p99 ms',
        'max ms',
        'p99 from answer',
        'deliveries/s',
        'srv cpu ms/change',
        'gen cpu µs/delivery',
        'gen lag p99',
        'others cpu%',
        'load 1/5/15',
      ],
      [
        row('graph paced', g.paced),
        row('bare paced', b.paced),
        row('graph train', g.train),
        row('bare train', b.train),
      ],
    ),
  );
  const ratio = g.train.deliveriesPerSec / b.train.deliveriesPerSec;
  const correct = checks.every((c) => !c.duplicates && !c.violations && !c.unexpected && !c.missing && !c.closed);
  const verdict = {
    pacedP99: g.paced.p99 < p99Limit,
    throughput: ratio >= targetRatio,
    correct,
  };
  log(
    `ratios graph/bare: throughput ${ratio.toFixed(2)} (target ≥ ${targetRatio}), paced p99 ${(g.paced.p99 / b.paced.p99).toFixed(1)}×, train p99 ${(g.train.p99 / b.train.p99).toFixed(1)}×`,
  );
  log(
    `correctness: ${correct ? correctText : JSON.stringify(checks.filter((c) => c.duplicates || c.violations || c.unexpected || c.missing || c.closed))}`,
  );
  log(
    `targets: paced p99 ${ms(g.paced.p99)} ms < ${p99Limit} ${verdict.pacedP99 ? 'PASS' : 'FAIL'}; throughput ${ratio.toFixed(2)}× bare ≥ ${targetRatio} ${verdict.throughput ? 'PASS' : 'FAIL'}; correctness ${correct ? 'PASS' : 'FAIL'}`,
  );
  log(`load at end: ${load()}; total ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  // The bare peer itself missing the latency limit means the machine is the limit: no latency verdict (exit 2), unless a check failed.
  const busy = !verdict.pacedP99 && b.paced.p99 >= p99Limit && correct;
  if (busy)
    log(
      `the bare server itself missed p99 < ${p99Limit} ms paced (${ms(b.paced.p99)} ms): the machine is too busy to judge; INCONCLUSIVE`,
    );
  const pass = busy ? null : verdict.pacedP99 && verdict.throughput && verdict.correct;
  return {
    pass,
    inconclusive: busy,
    headline:
      `graph paced p50/p99 ${ms(g.paced.p50)}/${ms(g.paced.p99)} ms (bare ${ms(b.paced.p50)}/${ms(b.paced.p99)}), train ${g.train.deliveriesPerSec.toFixed(0)} vs bare ${b.train.deliveriesPerSec.toFixed(0)} deliveries/s = ${ratio.toFixed(2)}×, ` +
      `correct ${correct}; ${busy ? 'INCONCLUSIVE (bare paced p99 over the limit: machine too busy)' : pass ? 'PASS' : 'FAIL'} (load ${load()})`,
    results: {
      setup: {
        subscriptions: subs,
        sessions: r.viewers,
        generators: nGens,
        ...setup,
        paced: nPaced,
        train: nTrain,
        gapMs,
        pool,
        frameBytes: Buffer.byteLength(publicFrame),
      },
      graph: { paced: g.paced, train: g.train, classes: Object.keys(g.samples) },
      bare: { paced: b.paced, train: b.train },
      ratio,
      checks,
      verdict,
      loadavg: os.loadavg(),
    },
  };
}
