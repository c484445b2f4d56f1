/**
 * The events bench's report: events/s and × floor of every row, latencies, CPU µs per event of each
 * process (and the rate our own work alone would fill the machine at), the pipeline against the
 * kafka + database floor, and the targets (kafka e2e ≥ 20,000 ev/s, ≥ ½ floor, live p99 from commit
 * < 100 ms).
 */
import os from 'node:os';
import type { BenchOutcome } from '../lib/bench.js';
import { table } from '../lib/format.js';
import { kafkajsBuild, type CpuUse, type Figures } from './infra.js';
import type { PipelineFigures } from './pipeline.js';

export interface EventsFigures {
  N: number;
  partitions: number;
  rate: number;
  coldFloor: number;
  floor: Figures;
  dbFloor: Figures;
  e2e: PipelineFigures;
  e2eSplit: PipelineFigures;
  e2eNoLive: PipelineFigures;
  emb: PipelineFigures;
  writeOnly: number;
  writeOnlyCpu: CpuUse | undefined;
  writeOnlyOrm: number;
}

export function reportEvents(f: EventsFigures, print: (line: string) => void): BenchOutcome {
  const {
    N,
    partitions,
    rate,
    coldFloor,
    floor,
    dbFloor,
    e2e,
    e2eSplit,
    e2eNoLive,
    emb,
    writeOnly,
    writeOnlyCpu,
    writeOnlyOrm,
  } = f;
  const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : '-');
  const rows: (string | number)[][] = [
    ['bare kafkajs floor', fmt(floor.eventsPerSec), '1.00', fmt(floor.p50), fmt(floor.p99), '-', '-', '-', '-'],
    [
      'kafka + database floor (bare)',
      fmt(dbFloor.eventsPerSec),
      (dbFloor.eventsPerSec / floor.eventsPerSec).toFixed(2),
      '-',
      '-',
      '-',
      '-',
      '-',
      '-',
    ],
    [
      'kafka e2e, relay in-process',
      fmt(e2e.eventsPerSec),
      (e2e.eventsPerSec / floor.eventsPerSec).toFixed(2),
      fmt(e2e.p50),
      fmt(e2e.p99),
      fmt(e2e.liveP50),
      fmt(e2e.liveP99),
      fmt(e2e.liveCommitP50),
      fmt(e2e.liveCommitP99),
    ],
    [
      'kafka e2e, relay process',
      fmt(e2eSplit.eventsPerSec),
      (e2eSplit.eventsPerSec / floor.eventsPerSec).toFixed(2),
      fmt(e2eSplit.p50),
      fmt(e2eSplit.p99),
      fmt(e2eSplit.liveP50),
      fmt(e2eSplit.liveP99),
      fmt(e2eSplit.liveCommitP50),
      fmt(e2eSplit.liveCommitP99),
    ],
    [
      'kafka e2e, relay process, no live group',
      fmt(e2eNoLive.eventsPerSec),
      (e2eNoLive.eventsPerSec / floor.eventsPerSec).toFixed(2),
      fmt(e2eNoLive.p50),
      fmt(e2eNoLive.p99),
      fmt(e2eNoLive.liveP50),
      fmt(e2eNoLive.liveP99),
      fmt(e2eNoLive.liveCommitP50),
      fmt(e2eNoLive.liveCommitP99),
    ],
    [
      'embedded end to end',
      fmt(emb.eventsPerSec),
      (emb.eventsPerSec / floor.eventsPerSec).toFixed(2),
      fmt(emb.p50),
      fmt(emb.p99),
      fmt(emb.liveP50),
      fmt(emb.liveP99),
      fmt(emb.liveCommitP50),
      fmt(emb.liveCommitP99),
    ],
    [
      'outbox writes only (recordMany)',
      fmt(writeOnly),
      (writeOnly / floor.eventsPerSec).toFixed(2),
      '-',
      '-',
      '-',
      '-',
      '-',
      '-',
    ],
    [
      'outbox writes only (record, ORM)',
      fmt(writeOnlyOrm),
      (writeOnlyOrm / floor.eventsPerSec).toFixed(2),
      '-',
      '-',
      '-',
      '-',
      '-',
      '-',
    ],
  ];
  print(
    table(
      [
        'path',
        'events/s',
        '× floor',
        'p50 ms',
        'p99 ms',
        'live p50',
        'live p99',
        'live p50 (commit)',
        'live p99 (commit)',
      ],
      rows,
    ),
  );
  print(
    'p50/p99: record() → consumer effect; live: record() → live listener; (commit): commit acknowledged → live listener',
  );
  const parts = ['bench', 'relay', 'worker', 'pg', 'kafka', 'others'];
  const cpuRow = (name: string, f: Figures) => {
    const u = f.cpu;
    if (!u) return [name, ...parts.map(() => '-'), '-', '-', '-'];
    const ours = parts.filter((p) => p !== 'others').reduce((t, p) => t + (u.perEvent[p] ?? 0), 0);
    return [
      name,
      ...parts.map((p) => (u.perEvent[p] === undefined ? '-' : u.perEvent[p]!.toFixed(0))),
      ours.toFixed(0),
      fmt((os.cpus().length * 1e6) / ours),
      u.load1.toFixed(1),
    ];
  };
  print(
    table(
      ['CPU µs per event', ...parts, 'total (ours)', 'cpu-bound ev/s', 'load1'],
      [
        cpuRow('bare kafkajs floor', floor),
        cpuRow('kafka + database floor (bare)', dbFloor),
        cpuRow('kafka e2e, relay in-process', e2e),
        cpuRow('kafka e2e, relay process', e2eSplit),
        cpuRow('relay process, no live group', e2eNoLive),
        cpuRow('embedded end to end', emb),
        cpuRow('outbox writes only (recordMany)', { eventsPerSec: writeOnly, p50: NaN, p99: NaN, cpu: writeOnlyCpu }),
      ],
    ),
  );
  print(
    'bench = this process (writers, in-process relay, live feed / floor producer+consumer); others = the rest of the machine in the same window',
  );
  print(
    `against the kafka + database floor: relay process ${(e2eSplit.eventsPerSec / dbFloor.eventsPerSec).toFixed(2)}×, without the live group ${(e2eNoLive.eventsPerSec / dbFloor.eventsPerSec).toFixed(2)}×, embedded ${(emb.eventsPerSec / dbFloor.eventsPerSec).toFixed(2)}×`,
  );
  const best = e2eSplit.eventsPerSec > e2e.eventsPerSec ? e2eSplit : e2e;
  const checks = {
    e2eAtLeast20k: best.eventsPerSec >= 20_000,
    e2eAtLeastHalfFloor: best.eventsPerSec >= floor.eventsPerSec / 2,
    liveP99Under100ms: Math.min(e2e.liveCommitP99, e2eSplit.liveCommitP99) < 100,
  };
  print(
    `targets: ${Object.entries(checks)
      .map(([k, v]) => `${k} ${v ? 'PASS' : 'FAIL'}`)
      .join(', ')}`,
  );
  return {
    pass: Object.values(checks).every(Boolean),
    headline: `kafka e2e ${fmt(best.eventsPerSec)} ev/s (${(best.eventsPerSec / floor.eventsPerSec).toFixed(2)}× floor ${fmt(floor.eventsPerSec)}), p99 ${fmt(best.p99)} ms, live p99 ${fmt(best.liveP99)} ms; without the live group ${fmt(e2eNoLive.eventsPerSec)} ev/s (${(e2eNoLive.eventsPerSec / floor.eventsPerSec).toFixed(2)}×, not the verdict); embedded ${fmt(emb.eventsPerSec)} ev/s`,
    results: {
      N,
      partitions,
      rate,
      kafkajs: kafkajsBuild(),
      coldFloor,
      floor,
      dbFloor,
      e2e,
      e2eSplit,
      e2eNoLive,
      embedded: emb,
      writeOnly,
      writeOnlyCpu,
      writeOnlyOrm,
      checks,
    },
  };
}
