/**
 * The events bench's ground: the database (DATABASE_URL_BENCH or an embedded PostgreSQL in a temp
 * dir) and the broker (KAFKA_BROKERS or one started from the cached jars), the CPU meter of a
 * phase, and the probe events every run writes and waits for (throughput writes, the warm-up, the
 * paced latency writes, the effects counted in PostgreSQL).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startEmbeddedPostgres, migrate, openOrm, createLogger } from '@intranet/graph';
import { type KafkaSettings, kafkajsPatchState, writeProbes } from '@intranet/graph/events';
import { hasJava, startKafka, type KafkaBroker } from '../../scripts/kafka/kafka.js';
import { REPO_ROOT } from '../lib/procs.js';
import { cpuBetween, postgresPids, snapshot, type CpuSnapshot } from '../lib/sysstat.js';

/**
 * The relay and worker children run the compiled workers (dist/, built by `npm run bench` first),
 * as `npm run workers` does in production, not through the TypeScript loader.
 */
export const WORKERS_MAIN = path.join(REPO_ROOT, 'dist/workers/src/main.js');

/** The platform's own logging, silenced: the bench prints its figures. */
export const log = createLogger('silent');

export function pct(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Figures {
  eventsPerSec: number;
  p50: number;
  p99: number;
  /** CPU µs per event of each part during the throughput run (from /proc), and the 1-min load average. */
  cpu?: CpuUse;
}

export interface CpuUse {
  load1: number;
  /** µs of CPU per event: this process (writers, in-process relay, live feed), relay/worker children, PostgreSQL, the broker, everything else. */
  perEvent: Record<string, number>;
}

/** The broker's pid: a java kafka.Kafka process whose server.properties listens on `port` (null if not found). */
export function brokerPid(port: string): number | null {
  for (const d of fs.readdirSync('/proc')) {
    const pid = Number(d);
    if (!pid) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (!cmd.includes('kafka.Kafka')) continue;
      const props = cmd.find((a) => a.endsWith('.properties') && !a.includes('log4j'));
      if (!props || fs.readFileSync(props, 'utf8').includes(`:${port}`)) return pid;
    } catch {
      /* gone or not ours to read */
    }
  }
  return null;
}

/** Which kafkajs this run measures (the floor and the pipeline alike): its version, patched or not. */
export function kafkajsBuild(): string {
  const { version, unpatched } = kafkajsPatchState();
  return `kafkajs ${version}${unpatched.length ? ` (NOT patched: ${unpatched.join(', ')}; run npm install)` : ' + patches/kafkajs+2.2.4.patch'}`;
}

/** CPU accounting of one phase: named pid groups, the rest of the machine as `others`. */
export class CpuMeter {
  private a: CpuSnapshot | null;
  private c0 = process.cpuUsage();
  constructor(private readonly groups: () => Record<string, number[]>) {
    this.a = snapshot(Object.values(groups()).flat());
  }
  stop(events: number): CpuUse | undefined {
    const groups = this.groups();
    const b = snapshot(Object.values(groups).flat());
    const c = process.cpuUsage(this.c0);
    if (!this.a || !b) return undefined;
    const perEvent: Record<string, number> = { bench: (c.user + c.system) / events };
    let accounted = (c.user + c.system) / 1000;
    for (const [name, pids] of Object.entries(groups)) {
      const ms = cpuBetween(this.a, b, pids);
      accounted += ms;
      perEvent[name] = (ms * 1000) / events;
    }
    perEvent.others = (Math.max(0, b.busyMs - this.a.busyMs - accounted) * 1000) / events;
    return { load1: os.loadavg()[0]!, perEvent };
  }
}

/** What the runs share: the database, the broker, the run's shape and the probe helpers. */
export type EventsGround = Awaited<ReturnType<typeof startGround>>;

/** Starts (or joins) the database and the broker; `cleanup` stops what was started, in reverse. */
export async function startGround(o: {
  N: number;
  partitions: number;
  rate: number;
  paced: number;
  print: (line: string) => void;
  cleanup: (() => Promise<void>)[];
}) {
  const { N, partitions, rate, paced, print, cleanup } = o;
  // --- infrastructure -----------------------------------------------------------------------
  let dbUrl = process.env.DATABASE_URL_BENCH;
  let pgDir: string | undefined;
  if (!dbUrl) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'intranet-bench-events-pg-'));
    const pg = await startEmbeddedPostgres(dir, 'bench_events');
    pgDir = dir;
    cleanup.push(async () => {
      await pg.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    dbUrl = pg.url;
  }
  const orm = await openOrm(dbUrl, 12);
  cleanup.push(() => orm.close());
  await migrate(orm);
  let brokers = process.env.KAFKA_BROKERS;
  if (!brokers) {
    if (!hasJava()) throw new Error('no KAFKA_BROKERS and no Java to start a broker');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'intranet-bench-kafka-'));
    const broker: KafkaBroker = await startKafka({ dir, heap: '768m' });
    cleanup.push(async () => {
      await broker.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    brokers = broker.brokers;
  }
  const kafkaPid = brokerPid(brokers.split(',')[0]!.split(':').pop()!);
  const pgPids = () => (pgDir ? postgresPids(pgDir) : []);
  const kPids = () => (kafkaPid ? [kafkaPid] : []);
  print(
    `load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (${os.cpus().length} cores)`,
  );
  print(
    `broker ${brokers}, ${partitions} partitions, ${N} events per throughput run, paced latency at ${rate}/s for ${paced} s; ${kafkajsBuild()}`,
  );
  const run = Date.now().toString(36);
  const settings = (name: string): KafkaSettings => ({
    brokers: brokers!.split(','),
    clientId: 'bench',
    topicPrefix: `bench.${run}.${name}.`,
    partitions,
    replicationFactor: 1,
  });
  const reset = () =>
    orm.em
      .fork()
      .execute(
        `truncate outbox_event, outbox_sent, event_consumed, event_dead_letter, event_probe_effect, event_retry restart identity`,
      );
  const effects = async (): Promise<number> =>
    (await orm.em.fork().execute(`select count(*)::int as n from event_probe_effect`))[0].n;
  const latencies = async (): Promise<number[]> =>
    (
      (await orm.em
        .fork()
        .execute(`select latency_ms from event_probe_effect where latency_ms is not null order by latency_ms`)) as {
        latency_ms: number;
      }[]
    ).map((r) => r.latency_ms);
  /**
   * Waits for n effects. Polls max(id) (an index lookup) and counts only when that says n may be
   * there: counting the growing effect table every 20 ms cost PostgreSQL more CPU than a
   * consumer's whole transaction, and was booked to the system under test.
   */
  const waitEffects = async (n: number, timeoutMs = 180_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const [{ top }] = await orm.em.fork().execute(`select coalesce(max(id), 0)::int as top from event_probe_effect`);
      if (top >= n && (await effects()) >= n) break;
      if (Date.now() > deadline) throw new Error(`only ${await effects()} of ${n} effects after ${timeoutMs} ms`);
      await sleep(20);
    }
    return performance.now();
  };
  /** The throughput runs' writes: 4 writers, transactions of 1,000 events (one recordMany INSERT each). */
  const bulkWrites = (n: number) =>
    writeProbes(orm, { total: n, aggregates: 400, perTx: 1000, concurrency: 4, bulk: true });
  /** Untimed: N/2 events through the running pipeline (new processes run their first events while the JIT compiles), then a clean slate. */
  const warmUp = async () => {
    await bulkWrites(N / 2);
    await waitEffects(N / 2);
    await reset();
  };
  /** Commit acknowledged (the writer's transactional() resolved), per event id, in the paced runs. */
  const committedAt = new Map<string, number>();
  const pacedWrites = async () => {
    const total = Math.round(rate * paced);
    const t0 = performance.now();
    for (let i = 0; i < total; i++) {
      const due = t0 + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      const [id] = await writeProbes(orm, { total: 1, aggregates: 1, stamp: true, prefix: `lat${i % 50}` });
      committedAt.set(id!, Date.now());
    }
    return total;
  };
  /** Live latency from the commit: receive time minus commit-acknowledged time (≥ 0). */
  const fromCommit = (received: Map<string, number>) => {
    const out: number[] = [];
    for (const [id, at] of received) {
      const c = committedAt.get(id);
      if (c !== undefined) out.push(Math.max(0, at - c));
    }
    return out.sort((a, b) => a - b);
  };
  return {
    N,
    partitions,
    rate,
    paced,
    print,
    orm,
    dbUrl: dbUrl!,
    brokers: brokers!,
    pgPids,
    kPids,
    settings,
    reset,
    effects,
    latencies,
    waitEffects,
    bulkWrites,
    warmUp,
    pacedWrites,
    fromCommit,
  };
}
