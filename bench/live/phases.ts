/**
 * The live bench's phases against one server (graph or bare): open every connection through the
 * load generators, warm up (one change per entry: proves every subscription is live), `paced` (one
 * change at a time, the next after every delivery and a gap: latency without queueing) and `train`
 * (changes back to back, one writer per entry: throughput), each with the CPU of the server, the
 * generators, PostgreSQL and the rest of the machine; then close. Every delivery is checked by the
 * generators (exactly once, the viewer's own view); the counts land in `run.checks`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { summariseProfile } from '../lib/cpuprofile.js';
import { ms, table } from '../lib/format.js';
import { REPO_ROOT, type BenchChild } from '../lib/procs.js';
import { cpuBetween, machineUse, postgresPids, snapshot, type MachineUse } from '../lib/sysstat.js';
import type { Viewer } from './setup.js';

export const sleep = (t: number) => new Promise((r) => setTimeout(r, t));
export const epoch = () => performance.timeOrigin + performance.now();
const pct = (s: number[], p: number) => (s.length ? s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)] : NaN);
export const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

export interface Entry {
  id: number;
  version: number;
  owner: Viewer;
  guestIds: number[];
  isPrivate: boolean;
}
export interface GenReport {
  latencies: number[];
  missing: number;
  lastReceipt: number;
  duplicates: number;
  violations: number;
  firstViolation?: string;
  unexpected: number;
  firstUnexpected?: string;
  closedEarly: number;
  lagP99: number;
  samples: Record<string, string>;
}
export interface PhaseResult {
  changes: number;
  deliveries: number;
  expected: number;
  missing: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Latency from the mutation's answer (commit acknowledged); can be lower, even negative: the fan-out runs before the answer is written. */
  p99FromAnswer: number;
  seconds: number;
  deliveriesPerSec: number;
  serverCpuMs: number;
  serverCpuMsPerChange: number;
  genCpuMs: number;
  genLagP99: number;
  machine: (MachineUse & { pgCpuMs: number }) | null;
  load: string;
}

export interface Check {
  server: string;
  phase: string;
  duplicates: number;
  violations: number;
  unexpected: number;
  closed: number;
  missing: number;
  first?: string;
}

/** Completion notices: a generator reports a key once all of its connections have it. */
export class Completions {
  private readonly complete = new Map<string, number>();
  private readonly waiters = new Map<string, () => void>();

  constructor(private readonly gens: BenchChild[]) {
    for (const g of gens)
      g.proc.on('message', (m: { type?: string; key?: string }) => {
        if (m?.type !== 'complete' || !m.key) return;
        const n = (this.complete.get(m.key) ?? 0) + 1;
        this.complete.set(m.key, n);
        if (n === gens.length) this.waiters.get(m.key)?.();
      });
  }

  /** Whether every connection got `key` within the time. */
  delivered = (key: string, timeoutMs = 10_000): Promise<boolean> =>
    this.complete.get(key) === this.gens.length
      ? Promise.resolve(true)
      : new Promise<boolean>((resolve) => {
          const t = setTimeout(() => {
            this.waiters.delete(key);
            resolve(false);
          }, timeoutMs);
          this.waiters.set(key, () => {
            clearTimeout(t);
            this.waiters.delete(key);
            resolve(true);
          });
        });
}

/** The subscription every connection holds, and the frame kind (frames.ts) its generators key and check frames by. */
export interface LiveSubscription {
  query: string;
  operationName: string;
  variables: Record<string, unknown>;
  /** Absolute path of the module exporting `frames: FrameKind`. */
  frames: string;
  /** How many of the connections must receive each change on the graph server (the others may not see it). */
  receivers: number;
}

/** What the phases of both servers share. `E`: what a change is made to (a schedule entry, a post). */
export interface LiveRun<E = Entry> {
  gens: BenchChild[];
  /** Each generator's connections (session and token). */
  slices: { viewerId: number; token: string }[][];
  subs: number;
  subscription: LiveSubscription;
  graphUrl: string;
  pgData: string;
  entries: E[];
  nPaced: number;
  nTrain: number;
  gapMs: number;
  profile: boolean;
  completions: Completions;
  checks: Check[];
  /** The next change number (unique across both servers). */
  nextSeq: () => number;
  log: (line: string) => void;
}

export type Send<E = Entry> = (entry: E, n: number) => Promise<{ key: string; sentAt: number; answeredAt: number }>;

/** Opens the connections, runs warm-up, paced and train phases against one server, closes them. */
export async function runServer<E>(run: LiveRun<E>, kind: 'graph' | 'bare', server: BenchChild, send: Send<E>) {
  const { gens, slices, subs, subscription, graphUrl, pgData, entries, nPaced, nTrain, gapMs, log } = run;
  const delivered = run.completions.delivered;
  const url = String(server.ready.url).replace('http', 'ws') + '/graphql';
  const o0 = performance.now();
  const opened = await Promise.all(
    gens.map(async (g, i) => {
      const done = new Promise<{ opened: number; failed: number; firstError?: string }>((resolve) => {
        const on = (m: { type?: string; opened: number; failed: number; firstError?: string }) => {
          if (m?.type !== 'opened') return;
          g.proc.off('message', on);
          resolve(m);
        };
        g.proc.on('message', on);
      });
      const { query, operationName, variables, frames } = subscription;
      await g.request({
        type: 'open',
        mode: kind === 'graph' ? 'graphql' : 'bare',
        url,
        origin: graphUrl,
        conns: slices[i],
        query,
        operationName,
        variables,
        frames,
        parallel: 50,
      });
      return done;
    }),
  );
  const failed = opened.reduce((a, o) => a + o.failed, 0);
  if (failed) throw new Error(`${kind}: ${failed} connections failed: ${opened.find((o) => o.firstError)?.firstError}`);
  log(
    `\n${kind}: ${subs} connections${kind === 'graph' ? ' subscribed' : ''} in ${((performance.now() - o0) / 1000).toFixed(1)} s (load ${load()})`,
  );

  const reportAll = async (refs: Record<string, number>) =>
    (await Promise.all(
      gens.map((g) => g.request<GenReport & { type: string }>({ type: 'report', refs })),
    )) as GenReport[];

  // warm-up: every entry once; proves every subscription receives (not measured)
  for (const e of entries) {
    const r = await send(e, run.nextSeq());
    if (!(await delivered(r.key, 20_000)))
      throw new Error(`${kind}: warm-up change ${r.key} did not reach every connection`);
  }
  const warm = await reportAll({}); // also resets the generators' lag histograms
  const samples = Object.assign({}, ...warm.map((w) => w.samples)) as Record<string, string>;

  const phase = async (
    name: string,
    work: () => Promise<{ refs: Record<string, number>; sent: Record<string, number>; first: number }>,
  ): Promise<PhaseResult> => {
    const ours = [server.proc.pid!, ...gens.map((g) => g.proc.pid!), process.pid];
    const pg0 = postgresPids(pgData);
    const m0 = snapshot([...pg0, ...ours]);
    await server.stats(true);
    const g0 = await Promise.all(gens.map((g) => g.stats(true)));
    void g0;
    const { refs, sent, first } = await work();
    await sleep(200);
    const pg1 = [...new Set([...pg0, ...postgresPids(pgData)])];
    const m1 = snapshot([...pg1, ...ours]);
    const st = await server.stats(true);
    const gs = await Promise.all(gens.map((g) => g.stats(true)));
    const reports = await reportAll(sent);
    const lat = reports.flatMap((r) => r.latencies).sort((a, b) => a - b);
    // latency from the answer = from the request sent − (answer − send)
    const shift = Object.keys(refs).map((k) => sent[k] - refs[k]);
    const perKeyShift = shift.length ? shift.reduce((a, b) => a + b, 0) / shift.length : 0;
    const last = Math.max(...reports.map((r) => r.lastReceipt));
    const deliveries = lat.length;
    const changes = Object.keys(refs).length;
    const use = machineUse(m0, m1, pg1, ours);
    const res: PhaseResult = {
      changes,
      deliveries,
      expected: changes * (kind === 'graph' ? subscription.receivers : subs),
      missing: reports.reduce((a, r) => a + r.missing, 0),
      p50: pct(lat, 0.5),
      p90: pct(lat, 0.9),
      p99: pct(lat, 0.99),
      max: lat[lat.length - 1] ?? NaN,
      p99FromAnswer: pct(lat, 0.99) + perKeyShift,
      seconds: (last - first) / 1000,
      deliveriesPerSec: deliveries / ((last - first) / 1000),
      serverCpuMs: st.cpuUserMs + st.cpuSystemMs,
      serverCpuMsPerChange: (st.cpuUserMs + st.cpuSystemMs) / Math.max(1, changes),
      genCpuMs: gs.reduce((a, s) => a + s.cpuUserMs + s.cpuSystemMs, 0),
      genLagP99: Math.max(...reports.map((r) => r.lagP99)),
      machine: use && m0 && m1 ? { ...use, pgCpuMs: cpuBetween(m0, m1, pg1) } : null,
      load: load(),
    };
    const dup = reports.reduce((a, r) => a + r.duplicates, 0);
    const vio = reports.reduce((a, r) => a + r.violations, 0);
    const unx = reports.reduce((a, r) => a + r.unexpected, 0);
    const closed = reports.reduce((a, r) => a + r.closedEarly, 0);
    run.checks.push({
      server: kind,
      phase: name,
      duplicates: dup,
      violations: vio,
      unexpected: unx,
      closed,
      missing: res.missing,
      first:
        reports.find((r) => r.firstViolation)?.firstViolation ??
        reports.find((r) => r.firstUnexpected)?.firstUnexpected,
    });
    log(
      `  ${name.padEnd(6)} ${changes} changes, ${deliveries}/${res.expected} delivered: p50 ${ms(res.p50)} p90 ${ms(res.p90)} p99 ${ms(res.p99)} max ${ms(res.max)} ms, ` +
        `${res.deliveriesPerSec.toFixed(0)} deliveries/s, server CPU ${res.serverCpuMsPerChange.toFixed(0)} ms/change, gen lag p99 ${ms(res.genLagP99)} ms, ` +
        `others ${res.machine?.otherPct.toFixed(0) ?? '-'}% (load ${res.load})` +
        (dup || vio || unx || res.missing || closed
          ? `  !! dup ${dup} violations ${vio} unexpected ${unx} missing ${res.missing} closed ${closed}`
          : ''),
    );
    return res;
  };

  const paced = await phase('paced', async () => {
    const refs: Record<string, number> = {};
    const sent: Record<string, number> = {};
    let first = 0;
    for (let i = 0; i < nPaced; i++) {
      const r = await send(entries[i % entries.length], run.nextSeq());
      first ||= r.sentAt;
      refs[r.key] = r.answeredAt;
      sent[r.key] = r.sentAt;
      await delivered(r.key);
      await sleep(gapMs);
    }
    return { refs, sent, first };
  });
  const profileFile =
    run.profile && kind === 'graph'
      ? path.join(REPO_ROOT, 'bench/results', `live-graph-${Date.now()}.cpuprofile`)
      : null;
  if (profileFile) {
    fs.mkdirSync(path.dirname(profileFile), { recursive: true });
    await server.request({ type: 'profileStart' });
  }
  const train = await phase('train', async () => {
    const refs: Record<string, number> = {};
    const sent: Record<string, number> = {};
    const first = epoch();
    const per = Math.ceil(nTrain / entries.length);
    await Promise.all(
      entries.map(async (e, i) => {
        for (let k = 0; k < per && i + k * entries.length < nTrain; k++) {
          const r = await send(e, run.nextSeq());
          refs[r.key] = r.answeredAt;
          sent[r.key] = r.sentAt;
        }
      }),
    );
    await Promise.all(Object.keys(refs).map((k) => delivered(k, 30_000)));
    return { refs, sent, first };
  });
  if (profileFile) {
    await server.request({ type: 'profileStop', file: profileFile });
    const prof = summariseProfile(profileFile, 30);
    log(
      `  CPU profile of the graph server over the train: ${path.relative(REPO_ROOT, profileFile)}, busy ${prof.busyMs.toFixed(0)} of ${prof.totalMs.toFixed(0)} ms`,
    );
    log(
      table(
        ['self time by area', 'ms', '% busy'],
        prof.byArea.slice(0, 15).map((a) => [a.area, a.ms.toFixed(0), a.pctBusy.toFixed(1)]),
      ),
    );
    log(
      table(
        ['hottest functions (self)', 'ms', '% busy'],
        prof.topFunctions.slice(0, 30).map((f) => [f.fn.slice(0, 110), f.ms.toFixed(0), f.pctBusy.toFixed(1)]),
      ),
    );
  }
  const sockets = (await server.stats(false)).extra?.sockets;
  await Promise.all(gens.map((g) => g.request({ type: 'close' })));
  return { paced, train, samples, sockets };
}
