/**
 * The soak's figures, report and verdict: per kind of request and per minute, the subscriptions'
 * events against the saves, CPU of the server, PostgreSQL, the VUs and the rest of the machine, the
 * server's warn/error lines, and the absolute targets (errors, p95 overall and per kind, RSS growth,
 * TCP connections and database backends back to their baseline). A latency miss while others take
 * half the machine or more is INCONCLUSIVE; any other miss is a FAIL.
 */
import os from 'node:os';
import path from 'node:path';
import { performance, type IntervalHistogram } from 'node:perf_hooks';
import type { BenchOutcome } from '../lib/bench.js';
import { ms, table } from '../lib/format.js';
import { REPO_ROOT } from '../lib/procs.js';
import type { MachineUse } from '../lib/sysstat.js';
import { mean, pct, type Outcome, type Sample, type SoakClient, type Vu } from './client.js';
import { LOGINS } from './documents.js';
import type { startPlatform } from './platform.js';
import type { Edits } from './vus.js';
import type { reportBystanders } from './blog.js';

type Backends = { total: number; idle: number; active: number; other: number };
type Tcp = { open: number; byState: Record<string, number> };

/** Everything the run measured, as the report reads it. */
export interface SoakMeasured {
  log: (line: string) => void;
  client: SoakClient;
  vus: Vu[];
  counters: { scheduleSaves: number; employeeSaves: number; computerSaves: number };
  edits: Edits;
  flags: {
    nVus: number;
    durationS: number;
    thinkMs: number;
    wsMax: number;
    p95Limit: number;
    maxErrorPct: number;
    maxRssGrowthPct: number;
    settleS: number;
    warmS: number;
  };
  rss: { at: number; mb: number }[];
  heap: { at: number; heapUsedMb: number; heapTotalMb: number; externalMb: number; handles: number }[];
  probes: { at: number; tcp: number; pg: number; fds: number }[];
  loadSeconds: number;
  before: { tcp: Tcp; pg: Backends; pgDetail: string[]; fds: number | null; rssMb: number | null };
  after: {
    tcp: Tcp;
    pg: Backends;
    pgDetail: string[];
    fds: number | null;
    rssMb: number | null;
    tcpJustAfter: number;
    pgJustAfter: number;
    tcpBackS: number;
    pgBackS: number;
  };
  peakTcp: number;
  peakPg: number;
  cpu: { serverPct: number; pgPct: number; benchPct: number; use: MachineUse | null };
  loadAtStart: string;
  loadAtEnd: string;
  lag: IntervalHistogram;
  platform: Awaited<ReturnType<typeof startPlatform>>;
  logFile: string;
  t0: number;
  /** The hostile client and the /healthz prober beside the VUs (soak/blog.ts). */
  bystanders: ReturnType<typeof reportBystanders>;
}

export function reportSoak(m: SoakMeasured): BenchOutcome {
  const {
    log,
    vus,
    counters,
    rss,
    heap,
    probes,
    loadSeconds,
    peakTcp,
    peakPg,
    loadAtStart,
    loadAtEnd,
    lag,
    platform,
    logFile,
    t0,
  } = m;
  const { samples, failures, clientErrors, wsFailures } = m.client;
  const { nVus, durationS, thinkMs, wsMax, p95Limit, maxErrorPct, maxRssGrowthPct, settleS, warmS } = m.flags;
  const { week, entriesOf, editComputers, editEmployees } = m.edits;
  const { tcp: tcp0, pg: pg0, pgDetail: pgDetail0, fds: fd0, rssMb: rss0 } = m.before;
  const {
    tcp: tcp1,
    pg: pg1,
    pgDetail,
    fds: fd1,
    rssMb: rssEnd,
    tcpJustAfter,
    pgJustAfter,
    tcpBackS,
    pgBackS,
  } = m.after;
  const { serverPct: serverCpuPct, pgPct: pgCpuPct, benchPct: benchCpuPct, use } = m.cpu;
  const { pid, port } = platform;

  const total = samples.length;
  const byOutcome = (o: Outcome, list = samples) => list.filter((s) => s.outcome === o).length;
  const wsErrors = wsFailures.filter((f) => f.at >= 0).length;
  const errors = byOutcome('error') + wsErrors;
  const errorPct = (errors / Math.max(1, total)) * 100;
  const kinds = [...new Set(samples.map((s) => s.kind))].sort();
  const stats = (list: Sample[]) => {
    const lat = list.map((s) => s.ms).sort((a, b) => a - b);
    return {
      n: list.length,
      ok: byOutcome('ok', list),
      conflicts: byOutcome('conflict', list),
      client: byOutcome('client', list),
      errors: byOutcome('error', list),
      p50: pct(lat, 0.5),
      p95: pct(lat, 0.95),
      p99: pct(lat, 0.99),
      max: lat[lat.length - 1] ?? NaN,
      rps: list.length / loadSeconds,
    };
  };
  const perKind = Object.fromEntries(kinds.map((k) => [k, stats(samples.filter((s) => s.kind === k))]));
  const all = stats(samples);
  const afterWarm = stats(samples.filter((x) => x.at >= warmS * 1000));
  const worstKind = kinds.reduce((a, k) => (perKind[k].p95 > (perKind[a]?.p95 ?? -1) ? k : a), kinds[0]);

  const windowS = Math.min(60, (loadSeconds - warmS) / 2);
  const early = rss.filter((r) => r.at >= warmS * 1000 && r.at < (warmS + windowS) * 1000).map((r) => r.mb);
  const late = rss.filter((r) => r.at >= (loadSeconds - windowS) * 1000 && r.at <= loadSeconds * 1000).map((r) => r.mb);
  const rssGrowthPct = ((mean(late) - mean(early)) / mean(early)) * 100;
  // The V8 heap in the same windows (from /metrics): RSS that grows with a flat heap is the allocator
  // and the young generation sizing to the request rate, a growing heap is retained objects.
  const inWin = (a: number, b: number) => (x: { at: number }) => x.at >= a * 1000 && x.at < b * 1000;
  const heapEarly = heap.filter(inWin(warmS, warmS + windowS));
  const heapLate = heap.filter(inWin(loadSeconds - windowS, loadSeconds + 0.001));
  const heapUsedEarly = mean(heapEarly.map((h) => h.heapUsedMb));
  const heapUsedLate = mean(heapLate.map((h) => h.heapUsedMb));
  const rateEarly = samples.filter(inWin(warmS, warmS + windowS)).length / windowS;
  const rateLate = samples.filter(inWin(loadSeconds - windowS, loadSeconds + 0.001)).length / windowS;

  const scheduleSubs = vus.filter((v) => v.sub === 'schedule');
  const employeeSubs = vus.filter((v) => v.sub === 'employee');
  const events = {
    scheduleChanged: scheduleSubs.reduce((a, v) => a + v.events, 0),
    scheduleExpected: counters.scheduleSaves * scheduleSubs.length,
    employeeChanged: employeeSubs.reduce((a, v) => a + v.events, 0),
    employeeExpected: counters.employeeSaves * employeeSubs.length,
    reconnects: vus.reduce((a, v) => a + v.reconnects, 0),
  };

  const verdict = {
    errors: errorPct < maxErrorPct,
    p95All: all.p95 < p95Limit,
    p95PerKind: kinds.every((k) => perKind[k].p95 < p95Limit),
    rss: Number.isFinite(rssGrowthPct) && rssGrowthPct < maxRssGrowthPct,
    healthz: m.bystanders.healthzPass,
    tcp: tcp1.open <= tcp0.open,
    db: pg1.total <= pg0.total,
  };
  const pf = (b: boolean) => (b ? 'PASS' : 'FAIL');

  log(`\nper kind of request (${loadSeconds.toFixed(0)} s of load, ${nVus} VUs):`);
  log(
    table(
      [
        'kind',
        'requests',
        'req/s',
        'ok',
        'conflict',
        'other 4xx',
        'errors',
        'p50 ms',
        'p95 ms',
        'p99 ms',
        'max ms',
        `p95<${p95Limit}`,
      ],
      [...kinds.map((k) => [k, perKind[k]] as const), ['all', all] as const].map(([k, s]) => [
        k,
        s.n,
        s.rps.toFixed(1),
        s.ok,
        s.conflicts,
        s.client,
        s.errors,
        ms(s.p50),
        ms(s.p95),
        ms(s.p99),
        ms(s.max),
        pf(s.p95 < p95Limit),
      ]),
    ),
  );
  const minutes = Math.ceil(loadSeconds / 60);
  log(`\nper minute:`);
  log(
    table(
      [
        'minute',
        'requests',
        'errors',
        'conflicts',
        'p95 ms',
        'RSS mean MB',
        'RSS max MB',
        'heap used MB',
        'heap total MB',
        'external MB',
        'server TCP max',
        'db backends max',
        'server fds max',
      ],
      Array.from({ length: minutes }, (_, m) => {
        const inM = (x: { at: number }) => x.at >= m * 60_000 && x.at < (m + 1) * 60_000;
        const s = stats(samples.filter(inM));
        const r = rss.filter(inM).map((x) => x.mb);
        const p = probes.filter(inM);
        const h = heap.filter(inM);
        return [
          m + 1,
          s.n,
          s.errors,
          s.conflicts,
          ms(s.p95),
          mean(r).toFixed(1),
          Math.max(...r).toFixed(1),
          mean(h.map((x) => x.heapUsedMb)).toFixed(1),
          mean(h.map((x) => x.heapTotalMb)).toFixed(1),
          mean(h.map((x) => x.externalMb)).toFixed(1),
          Math.max(...p.map((x) => x.tcp)),
          Math.max(...p.map((x) => x.pg)),
          Math.max(...p.map((x) => x.fds)),
        ];
      }),
    ),
  );
  log(
    `\nsubscriptions: scheduleChanged ${events.scheduleChanged} events received over ${scheduleSubs.length} sockets (${counters.scheduleSaves} schedule saves × ${scheduleSubs.length} = ${events.scheduleExpected} expected), ` +
      `employeeChanged ${events.employeeChanged} over ${employeeSubs.length} sockets (${counters.employeeSaves} employee saves × ${employeeSubs.length} = ${events.employeeExpected} expected); computer saves ${counters.computerSaves}; ` +
      `unexpected socket closes/error frames ${wsErrors}, reconnects ${events.reconnects}`,
  );
  log(
    `server: CPU ${serverCpuPct.toFixed(0)}% of a core, PostgreSQL ${pgCpuPct.toFixed(0)}%, this bench (the VUs) ${benchCpuPct.toFixed(0)}%, other processes ${use?.otherPct.toFixed(0) ?? '-'}% of the machine (${os.cpus().length} cores), ` +
      `bench event-loop delay p99 ${(lag.percentile(99) / 1e6).toFixed(1)} ms; load ${loadAtEnd} at the end of the load`,
  );
  log(
    `server log: ${platform.logLines().count} warn/error lines (${platform.logLines().errors} errors) in ${path.relative(REPO_ROOT, logFile)}`,
  );
  for (const l of platform.logLines().first.slice(0, 5)) log(`  ${l.slice(0, 600)}`);
  if (failures.length) {
    log(`errors (first ${Math.min(10, failures.length)} of ${byOutcome('error')}):`);
    for (const f of failures.slice(0, 10))
      log(
        `  t=${(f.at / 1000).toFixed(1)} s VU ${f.vu} (${f.login}) ${f.kind}: ${f.request.slice(0, 400)} → ${f.detail.slice(0, 400)}${f.requestId ? ` [X-Request-Id ${f.requestId}]` : ''}`,
      );
  }
  if (clientErrors.length) {
    log(`other 4xx / GraphQL errors (first ${Math.min(10, clientErrors.length)} of ${byOutcome('client')}):`);
    for (const f of clientErrors.slice(0, 10))
      log(
        `  t=${(f.at / 1000).toFixed(1)} s VU ${f.vu} (${f.login}) ${f.kind}: ${f.request.slice(0, 300)} → ${f.detail.slice(0, 300)}`,
      );
  }
  if (wsFailures.length) {
    log(`WebSocket failures (first ${Math.min(10, wsFailures.length)} of ${wsFailures.length}):`);
    for (const f of wsFailures.slice(0, 10))
      log(`  t=${(f.at / 1000).toFixed(1)} s VU ${f.vu} (${f.login}): ${f.what}`);
  }
  if (pgDetail.length) log(`database backends left:\n  ${pgDetail.join('\n  ')}`);

  const rows: (string | number)[][] = [
    [
      'errors < ' + maxErrorPct + ' %',
      `${errors} of ${total} requests = ${errorPct.toFixed(3)} % (${byOutcome('error')} HTTP/GraphQL, ${wsErrors} WebSocket); conflicts ${all.conflicts} (expected), other 4xx ${all.client}`,
      pf(verdict.errors),
    ],
    [
      `p95 < ${p95Limit} ms, all`,
      `${ms(all.p95)} ms (p50 ${ms(all.p50)}, p99 ${ms(all.p99)}, max ${ms(all.max)}), ${all.rps.toFixed(1)} req/s; after warm-up p95 ${ms(afterWarm.p95)} ms`,
      pf(verdict.p95All),
    ],
    [
      `p95 < ${p95Limit} ms, per kind`,
      `worst ${worstKind} ${ms(perKind[worstKind]?.p95)} ms; ${kinds.filter((k) => perKind[k].p95 >= p95Limit).join(', ') || 'none over'}`,
      pf(verdict.p95PerKind),
    ],
    [
      `RSS growth < ${maxRssGrowthPct} %`,
      `${mean(early).toFixed(1)} MB (${warmS.toFixed(0)}–${(warmS + windowS).toFixed(0)} s) → ${mean(late).toFixed(1)} MB (last ${windowS.toFixed(0)} s) = ${rssGrowthPct >= 0 ? '+' : ''}${rssGrowthPct.toFixed(1)} %; max ${Math.max(...rss.map((r) => r.mb)).toFixed(0)} MB, after ${rssEnd?.toFixed(0)} MB; V8 heap used ${heapUsedEarly.toFixed(1)} → ${heapUsedLate.toFixed(1)} MB; ${rateEarly.toFixed(1)} → ${rateLate.toFixed(1)} req/s`,
      pf(verdict.rss),
    ],
    [
      `server TCP on :${port} back`,
      `before ${tcp0.open}, peak ${peakTcp}, just after ${tcpJustAfter}, after settling ${tcp1.open} ${JSON.stringify(tcp1.byState)}${Number.isFinite(tcpBackS) ? ` (back in ${tcpBackS.toFixed(0)} s)` : ''}; fds ${fd0} → ${fd1}`,
      pf(verdict.tcp),
    ],
    [
      `db backends back`,
      `before ${pg0.total}, peak ${peakPg} (pool max ${process.env.DB_POOL_MAX ?? 10}), just after ${pgJustAfter}, after settling ${pg1.total}${Number.isFinite(pgBackS) ? ` (back in ${pgBackS.toFixed(0)} s)` : ` (not back within ${settleS} s)`}`,
      pf(verdict.db),
    ],
  ];
  rows.push([
    `/healthz p99 < ${m.bystanders.limitMs} ms beside a hostile client`,
    `${m.bystanders.healthz}; ${m.bystanders.hostile}`,
    pf(verdict.healthz),
  ]);
  log(`\ntargets (absolute soak targets, no peer comparison):`);
  log(table(['target', 'measured', 'verdict'], rows));
  // A shared machine: when only latency fails while other processes take half the machine or more,
  // the latency verdict is not the platform's (inconclusive, exit code 2); every other target stands.
  const hardFail = !verdict.errors || !verdict.rss || !verdict.tcp || !verdict.db;
  const latencyFail = !verdict.p95All || !verdict.p95PerKind || !verdict.healthz;
  const busy = (use?.otherPct ?? 0) >= 50 || os.loadavg()[0] >= 2 * os.cpus().length;
  const pass: boolean | null = hardFail ? false : latencyFail ? (busy ? null : false) : true;
  if (latencyFail && busy)
    log(
      `latency: FAIL measured on a busy machine (other processes ${use?.otherPct.toFixed(0) ?? '-'}% of it, load ${loadAtEnd}): reported as inconclusive${hardFail ? '' : ' (every other target passed)'}`,
    );
  log(
    `load average (1/5/15 min): ${loadAtStart} at the start of the load, ${loadAtEnd} at its end; total ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );

  return {
    pass,
    inconclusive: pass === null,
    headline:
      `${nVus} VUs ${loadSeconds.toFixed(0)} s: ${total} requests, errors ${errorPct.toFixed(2)} %, p95 ${ms(all.p95)} ms (worst ${worstKind} ${ms(perKind[worstKind]?.p95)}), ` +
      `RSS ${rssGrowthPct >= 0 ? '+' : ''}${rssGrowthPct.toFixed(1)} %, TCP ${tcp0.open}→${tcp1.open}, db ${pg0.total}→${pg1.total}; ${pass === null ? 'INCONCLUSIVE (latency on a busy machine)' : pass ? 'PASS' : 'FAIL'} (load ${loadAtEnd})`,
    results: {
      bystanders: m.bystanders.results,
      setup: {
        vus: nVus,
        durationS,
        loadSeconds,
        thinkMs,
        logins: LOGINS,
        wsMaxSocketsPerUser: wsMax,
        week,
        entries: Object.fromEntries(entriesOf),
        editComputers,
        editEmployees: editEmployees.map((e) => e.id),
        pid,
        port,
        logFile: path.relative(REPO_ROOT, logFile),
      },
      all,
      afterWarmUp: afterWarm,
      perKind,
      errors: {
        count: errors,
        pct: errorPct,
        http: byOutcome('error'),
        ws: wsErrors,
        first: failures.slice(0, 50),
        clientErrors: clientErrors.slice(0, 50),
        ws_failures: wsFailures.slice(0, 50),
      },
      rss: { warmS, windowS, earlyMeanMb: mean(early), lateMeanMb: mean(late), growthPct: rssGrowthPct, samples: rss },
      heap: {
        usedEarlyMb: heapUsedEarly,
        usedLateMb: heapUsedLate,
        reqPerSecEarly: rateEarly,
        reqPerSecLate: rateLate,
        samples: heap,
      },
      tcp: { before: tcp0, peak: peakTcp, justAfter: tcpJustAfter, after: tcp1, backS: tcpBackS },
      db: {
        before: pg0,
        beforeDetail: pgDetail0,
        peak: peakPg,
        justAfter: pgJustAfter,
        after: pg1,
        backS: pgBackS,
        left: pgDetail,
      },
      fds: { before: fd0, after: fd1 },
      rssBeforeMb: rss0,
      probes,
      events,
      counters,
      cpu: { serverPct: serverCpuPct, pgPct: pgCpuPct, benchPct: benchCpuPct, machine: use, busy },
      benchLagP99Ms: lag.percentile(99) / 1e6,
      serverLog: platform.logLines(),
      verdict,
      loadavg: { atStart: loadAtStart, atEnd: loadAtEnd },
    },
  };
}
