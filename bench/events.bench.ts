/**
 * `npm run bench events` (or `npm run bench:events`): the event backbone end to end.
 *
 *   floor      bare kafkajs producer → consumer group, no database, same broker, same message size;
 *              timed after an untimed warm-up run of the same N events (a just-started broker and this
 *              process's kafkajs run the first N at about half the warm rate, while the JIT compiles)
 *   kafka + database floor   the same writers into the outbox, then a bare relay (claim, delete,
 *              send, commit) and a bare consumer (idempotency rows + effect rows per batch) in this
 *              process with pg and kafkajs alone (bench/events/db-floor.ts): the least the pipeline
 *              must do, without the platform's code
 *   kafka e2e  service transactions record events in the outbox → relay (FOR UPDATE SKIP LOCKED,
 *              batched) → Kafka → consumer group in a worker pool process (`workers/src/main.ts`)
 *              → effect + idempotency row committed in PostgreSQL
 *   kafka e2e, no live group   the relay-process run with this process's live consumer group joined
 *              only after the throughput run (the floor has one consumer group; the verdict stays on
 *              the runs with the live group, as every graph instance consumes every event)
 *   embedded   the same path with the embedded transport (relay → in-process consumer)
 *   live       commit → relay → Kafka → this instance's live consumer group (graphql-ws fan-out input)
 *
 * Throughput: N events written by 4 writers in transactions of 1,000 (recordMany: one INSERT per
 * transaction), first write → last effect committed, after an untimed warm-up of N/2 events through
 * the same processes. Latency: a paced run (one
 * event per service transaction) measuring record time → effect (consumer) / → live listener.
 * Prints ratios against the floor, and CPU µs per event of each process (this one, relay, worker,
 * PostgreSQL, broker, everything else) from /proc with the load average. Targets: e2e ≥ 20,000 events/s, e2e ≥ ½ floor, live p99 < 100 ms.
 * Uses KAFKA_BROKERS when set, else starts a broker from the cached jars; DATABASE_URL_BENCH or an
 * embedded PostgreSQL in a temp dir. Flags: --events=N (60000) --partitions=P (4) --rate=R (1000/s);
 * --profile writes V8 CPU profiles of the relay and worker children to bench/results/events-profile-<time>/
 * (wall-clock samples: on a busy machine they charge waiting to the function waited in);
 * --profile=perf starts them with --perf-basic-prof instead, for `perf record -a` (CPU time, JS names).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Kafka, Partitioners, logLevel } from 'kafkajs';
import { startEmbeddedPostgres } from '../graph/src/db/embedded.js';
import { migrate, openOrm } from '../graph/src/db/orm.js';
import { ConsumerRunner } from '../graph/src/platform/events/consumer.js';
import { EmbeddedTransport, TableDeadLetters } from '../graph/src/platform/events/embedded.js';
import { KafkaLiveFeed } from '../graph/src/platform/events/kafka/live-feed.js';
import { KafkaTransport } from '../graph/src/platform/events/kafka/transport.js';
import { ensureTopics } from '../graph/src/platform/events/kafka/topic-admin.js';
import type { KafkaSettings } from '../graph/src/platform/events/kafka/client.js';
import { kafkajsPatchState } from '../graph/src/platform/events/kafka/kafkajs-patch.js';
import { EventMetrics } from '../graph/src/platform/events/metrics.js';
import { ProbeConsumer } from '../graph/src/platform/events/probe.js';
import { RetryQueue } from '../graph/src/platform/events/retry-queue.js';
import { writeProbes } from '../graph/src/platform/events/test-support.js';
import { createLogger } from '../graph/src/platform/logger.js';
import { OutboxRelay } from '../graph/src/platform/events/relay.js';
import type { EventEnvelope } from '../schema/events/index.js';
import { hasJava, startKafka, type KafkaBroker } from '../scripts/kafka/kafka.js';
import { numArg, type Bench } from './lib/bench.js';
import { table } from './lib/format.js';
import { PLATFORM_NODE_FLAGS, REPO_ROOT } from './lib/procs.js';
import { cpuBetween, postgresPids, snapshot, type CpuSnapshot } from './lib/sysstat.js';
import { startDbFloor } from './events/db-floor.js';

/**
 * The relay and worker children run the compiled workers (dist/, built by `npm run bench` first),
 * as `npm run workers` does in production, not through the TypeScript loader.
 */
const WORKERS_MAIN = path.join(REPO_ROOT, 'dist/workers/src/main.js');

const log = createLogger('silent');

function pct(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Figures {
  eventsPerSec: number;
  p50: number;
  p99: number;
  /** CPU µs per event of each part during the throughput run (from /proc), and the 1-min load average. */
  cpu?: CpuUse;
}

interface CpuUse {
  load1: number;
  /** µs of CPU per event: this process (writers, in-process relay, live feed), relay/worker children, PostgreSQL, the broker, everything else. */
  perEvent: Record<string, number>;
}

/** The broker's pid: a java kafka.Kafka process whose server.properties listens on `port` (null if not found). */
function brokerPid(port: string): number | null {
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
function kafkajsBuild(): string {
  const { version, unpatched } = kafkajsPatchState();
  return `kafkajs ${version}${unpatched.length ? ` (NOT patched: ${unpatched.join(', ')}; run npm install)` : ' + patches/kafkajs+2.2.4.patch'}`;
}

/** CPU accounting of one phase: named pid groups, the rest of the machine as `others`. */
class CpuMeter {
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

const bench: Bench = {
  description: 'Event backbone: outbox → relay → Kafka → consumer vs bare Kafka floor, embedded transport, live latency',
  async run({ args, log: print }) {
    const N = numArg(args, 'events', 60_000);
    const partitions = numArg(args, 'partitions', 4);
    const rate = numArg(args, 'rate', 1000);
    const paced = numArg(args, 'paced-seconds', 4);
    const profileDir = path.join(REPO_ROOT, 'bench/results', `events-profile-${new Date().toISOString().replace(/[:.]/g, '-')}`);
    const profileArgv = args.profile === 'perf' ? ['--perf-basic-prof'] : args.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
    const cleanup: (() => Promise<void>)[] = [];
    try {
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
      print(`load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} (${os.cpus().length} cores)`);
      print(`broker ${brokers}, ${partitions} partitions, ${N} events per throughput run, paced latency at ${rate}/s for ${paced} s; ${kafkajsBuild()}`);
      const run = Date.now().toString(36);
      const settings = (name: string): KafkaSettings => ({
        brokers: brokers!.split(','),
        clientId: 'bench',
        topicPrefix: `bench.${run}.${name}.`,
        partitions,
        replicationFactor: 1,
      });
      const reset = () => orm.em.fork().execute(`truncate outbox_event, outbox_sent, event_consumed, event_dead_letter, event_probe_effect, event_retry restart identity`);
      const effects = async (): Promise<number> => (await orm.em.fork().execute(`select count(*)::int as n from event_probe_effect`))[0].n;
      const latencies = async (): Promise<number[]> =>
        ((await orm.em.fork().execute(`select latency_ms from event_probe_effect where latency_ms is not null order by latency_ms`)) as { latency_ms: number }[]).map(
          (r) => r.latency_ms,
        );
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
      const bulkWrites = (n: number) => writeProbes(orm, { total: n, aggregates: 400, perTx: 1000, concurrency: 4, bulk: true });
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

      // --- floor: bare kafkajs ------------------------------------------------------------------
      const floorSettings = settings('floor');
      const kafka = new Kafka({ clientId: 'bench-floor', brokers: floorSettings.brokers, logLevel: logLevel.NOTHING });
      await ensureTopics(kafka, floorSettings);
      const floorTopic = `${floorSettings.topicPrefix}probe`;
      const sample = JSON.stringify({
        id: '00000000-0000-4000-8000-000000000000',
        type: 'platform.probe',
        aggregateType: 'probe',
        aggregateId: 'agg-0-00',
        occurredAt: new Date().toISOString(),
        actorId: null,
        payload: { seq: 12345, sentAtMs: Date.now() },
        version: 1,
      });
      const producer = kafka.producer({ allowAutoTopicCreation: false, maxInFlightRequests: 1, createPartitioner: Partitioners.DefaultPartitioner });
      await producer.connect();
      cleanup.push(() => producer.disconnect());
      let received = 0;
      const floorLat: number[] = [];
      let measuring = false;
      const consumer = kafka.consumer({ groupId: `${floorSettings.topicPrefix}g`, allowAutoTopicCreation: false, maxWaitTimeInMs: 100, maxBytesPerPartition: 4 << 20 });
      await consumer.connect();
      cleanup.push(() => consumer.disconnect());
      await consumer.subscribe({ topics: [floorTopic], fromBeginning: true });
      let joined!: () => void;
      const joinedP = new Promise<void>((r) => (joined = r));
      consumer.on(consumer.events.GROUP_JOIN, () => joined());
      await consumer.run({
        partitionsConsumedConcurrently: partitions,
        eachBatch: async ({ batch }) => {
          const now = Date.now();
          if (measuring) for (const m of batch.messages) floorLat.push(now - Number(m.headers!.t!.toString()));
          received += batch.messages.length;
        },
      });
      await joinedP;
      const sendFloor = async (count: number, chunk: number, stamp: boolean) => {
        for (let i = 0; i < count; i += chunk) {
          const n = Math.min(chunk, count - i);
          const t = String(Date.now());
          await producer.sendBatch({
            acks: -1,
            topicMessages: [{ topic: floorTopic, messages: Array.from({ length: n }, (_, k) => ({ key: `agg-${(i + k) % 100}`, value: sample, ...(stamp ? { headers: { t } } : {}) })) }],
          });
        }
      };
      // A warm-up run first, untimed: on a broker just started (and in this process) the first N
      // events run while the JIT compiles the fetch and produce paths, at about half the warm rate;
      // the pipeline below runs on the warmed broker, and warms its own processes the same way.
      const cw0 = performance.now();
      await sendFloor(N, 2000, false);
      while (received < N) await sleep(5);
      const coldFloor = N / ((performance.now() - cw0) / 1000);
      received = 0;
      const floorMeter = new CpuMeter(() => ({ kafka: kPids() }));
      const f0 = performance.now();
      await sendFloor(N, 2000, false);
      while (received < N) await sleep(5);
      const floorSec = (performance.now() - f0) / 1000;
      const floorCpu = floorMeter.stop(N);
      // paced floor latency
      measuring = true;
      const base = received;
      const pacedTotal = Math.round(rate * paced);
      const pt0 = performance.now();
      for (let i = 0; i < pacedTotal; i++) {
        const wait = pt0 + (i * 1000) / rate - performance.now();
        if (wait > 1) await sleep(wait);
        await sendFloor(1, 1, true);
      }
      while (received < base + pacedTotal) await sleep(5);
      floorLat.sort((a, b) => a - b);
      const floor: Figures = { eventsPerSec: N / floorSec, p50: pct(floorLat, 0.5), p99: pct(floorLat, 0.99), cpu: floorCpu };
      print(`floor: ${floor.eventsPerSec.toFixed(0)} events/s (the warm-up run before it: ${coldFloor.toFixed(0)}), paced latency p50 ${floor.p50} ms p99 ${floor.p99} ms`);

      // --- kafka + database floor: the same writers, a bare relay and consumer (bench/events/db-floor.ts)
      const dbFloor = await (async (): Promise<Figures> => {
        await reset();
        const s = settings('dbfloor');
        await ensureTopics(kafka, s);
        const f = await startDbFloor({ dbUrl: dbUrl!, kafka, topic: `${s.topicPrefix}probe`, groupId: `${s.topicPrefix}g`, partitions });
        try {
          const once = async (n: number) => {
            const t0 = performance.now();
            const relayed = f.relay(n);
            await bulkWrites(n);
            await relayed;
            return ((await waitEffects(n)) - t0) / 1000;
          };
          await once(N / 2); // warm-up, untimed
          await reset();
          const meter = new CpuMeter(() => ({ pg: pgPids(), kafka: kPids() }));
          const sec = await once(N);
          const cpu = meter.stop(N);
          await reset();
          return { eventsPerSec: N / sec, p50: NaN, p99: NaN, cpu };
        } finally {
          await f.stop();
        }
      })();
      print(`kafka + database floor: ${dbFloor.eventsPerSec.toFixed(0)} events/s`);

      // --- Kafka end to end -----------------------------------------------------------------------
      // liveDuringThroughput false: this process's live consumer group (the graph's graphql-ws feed)
      // joins only after the throughput run, for the latency run: the same pipeline without the
      // second consumer group that the floor does not have (its cost shows as the difference).
      const kafkaE2e = async (separateRelay: boolean, liveDuringThroughput = true): Promise<Figures & { liveP50: number; liveP99: number; liveCommitP50: number; liveCommitP99: number }> => {
        await reset();
        const s = settings('e2e');
        const metrics = new EventMetrics();
        const transport = new KafkaTransport(s, log);
        await transport.start();
        const relay = new OutboxRelay(dbUrl!, transport, log, { batchSize: 2000, pollMs: 500 }, metrics);
        // Relay and consumers run as they can in production: `npm run workers -- relay` and a worker pool process.
        let workerOut = '';
        const childEnv = {
            ...process.env,
            NODE_ENV: 'production',
            SESSION_SECRET: 'bench-bench-bench-bench-bench-bench-0000',
            LOG_LEVEL: 'warn',
            DATABASE_URL: dbUrl!,
            KAFKA_BROKERS: brokers!,
            KAFKA_TOPIC_PREFIX: s.topicPrefix,
            KAFKA_PARTITIONS: String(partitions),
            RELAY_BATCH_SIZE: String(numArg(args, 'relay-batch', 2000)),
            MALLOC_MMAP_THRESHOLD_: '524288', // as `npm run workers` sets it
        };
        const relayProc = separateRelay
          ? spawn(process.execPath, [...PLATFORM_NODE_FLAGS, ...profileArgv, WORKERS_MAIN, 'relay'], { cwd: REPO_ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] })
          : undefined;
        relayProc?.stdout!.on('data', (d) => (workerOut += d));
        relayProc?.stderr!.on('data', (d) => (workerOut += d));
        const relayExit = relayProc ? new Promise((r) => relayProc.once('exit', r)) : Promise.resolve();
        const worker = spawn(process.execPath, [...PLATFORM_NODE_FLAGS, ...profileArgv, WORKERS_MAIN, '--only', 'probe', '--concurrency', String(partitions), '--port', '0'], {
          cwd: REPO_ROOT,
          env: childEnv, // RELAY_BATCH_SIZE means nothing to a consumer pool
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        worker.stdout!.on('data', (d) => (workerOut += d));
        worker.stderr!.on('data', (d) => (workerOut += d));
        const workerExit = new Promise((r) => worker.once('exit', r));
        const live: number[] = [];
        const liveAt = new Map<string, number>();
        let liveOn = false;
        const feed = new KafkaLiveFeed(transport.kafka, s, (batch: EventEnvelope[]) => {
          if (!liveOn) return;
          const now = Date.now();
          for (const e of batch) {
            const t = (e.payload as { sentAtMs?: number }).sentAtMs;
            if (t !== undefined) {
              live.push(now - t);
              liveAt.set(e.id, now);
            }
          }
        }, log);
        if (liveDuringThroughput) {
          await feed.start();
          await feed.ready;
        }
        // Wait for the worker to join its group (an empty round trip through the whole path).
        if (!separateRelay) await relay.start();
        await writeProbes(orm, { total: 1, aggregates: 1, prefix: 'warmup' });
        await waitEffects(1, 60_000).catch((err) => {
          throw new Error(`${(err as Error).message}; worker output:\n${workerOut}`);
        });
        await reset();
        await warmUp(); // the relay and worker children are new processes (in production they run for days)
        try {
          const meter = new CpuMeter(() => ({
            relay: relayProc?.pid ? [relayProc.pid] : [],
            worker: worker.pid ? [worker.pid] : [],
            pg: pgPids(),
            kafka: kPids(),
          }));
          const t0 = performance.now();
          const progress: string[] = [];
          const sampler = setInterval(async () => {
            if (!args.progress) return;
            const [r] = await orm.em.fork().execute(`select (select count(*) from outbox_event)::int as backlog, (select count(*) from event_probe_effect)::int as done`);
            progress.push(`${((performance.now() - t0) / 1000).toFixed(0)}s backlog ${r.backlog} effects ${r.done}`);
          }, 1000);
          await bulkWrites(N);
          const writeSec = (performance.now() - t0) / 1000;
          const t1 = await waitEffects(N);
          const cpu = meter.stop(N);
          clearInterval(sampler);
          const sec = (t1 - t0) / 1000;
          print(`kafka e2e (${separateRelay ? 'relay process' : 'relay in the writers process'}${liveDuringThroughput ? '' : ', no live group during the throughput run'}): writes took ${writeSec.toFixed(2)} s, last effect at ${sec.toFixed(2)} s`);
          if (args.progress) print(progress.join('\n'));
          await reset();
          if (!liveDuringThroughput) {
            await feed.start();
            await feed.ready;
          }
          liveOn = true;
          const total = await pacedWrites();
          await waitEffects(total, 60_000);
          await sleep(200);
          const lat = await latencies();
          live.sort((a, b) => a - b);
          return { eventsPerSec: N / sec, p50: pct(lat, 0.5), p99: pct(lat, 0.99), cpu, liveP50: pct(live, 0.5), liveP99: pct(live, 0.99), ...(() => {
            const c = fromCommit(liveAt);
            return { liveCommitP50: pct(c, 0.5), liveCommitP99: pct(c, 0.99) };
          })() };
        } finally {
          await relay.stop();
          relayProc?.kill('SIGTERM');
          worker.kill('SIGTERM');
          await Promise.all([workerExit, relayExit]);
          await feed.stop();
          await transport.stop();
        }
      };
      const e2e = await kafkaE2e(false);
      const e2eSplit = await kafkaE2e(true);
      const e2eNoLive = await kafkaE2e(true, false);

      // --- embedded ---------------------------------------------------------------------------
      const embedded = async (): Promise<Figures & { liveP50: number; liveP99: number; liveCommitP50: number; liveCommitP99: number }> => {
        await reset();
        const metrics = new EventMetrics();
        // As the backbone wires it: with the retry queue (one look-up of waiting aggregates per batch).
        const transport = new EmbeddedTransport(log, { concurrency: 2, retries: new RetryQueue(orm, log) });
        const live: number[] = [];
        const liveAt = new Map<string, number>();
        let liveOn = false;
        transport.onLive((batch) => {
          if (!liveOn) return;
          const now = Date.now();
          for (const e of batch) {
            const t = (e.payload as { sentAtMs?: number }).sentAtMs;
            if (t !== undefined) {
              live.push(now - t);
              liveAt.set(e.id, now);
            }
          }
        });
        transport.addConsumer(new ConsumerRunner(new ProbeConsumer(), orm, new TableDeadLetters(orm), { maxAttempts: 3, baseMs: 50, maxMs: 1000 }, metrics, log));
        const relay = new OutboxRelay(dbUrl!, transport, log, { batchSize: 2000, pollMs: 500 }, metrics);
        await transport.start();
        await relay.start();
        try {
          await warmUp();
          const meter = new CpuMeter(() => ({ pg: pgPids(), kafka: kPids() }));
          const t0 = performance.now();
          await bulkWrites(N);
          const t1 = await waitEffects(N);
          const cpu = meter.stop(N);
          const sec = (t1 - t0) / 1000;
          await reset();
          liveOn = true;
          const total = await pacedWrites();
          await waitEffects(total, 60_000);
          const lat = await latencies();
          live.sort((a, b) => a - b);
          return { eventsPerSec: N / sec, p50: pct(lat, 0.5), p99: pct(lat, 0.99), cpu, liveP50: pct(live, 0.5), liveP99: pct(live, 0.99), ...(() => {
            const c = fromCommit(liveAt);
            return { liveCommitP50: pct(c, 0.5), liveCommitP99: pct(c, 0.99) };
          })() };
        } finally {
          await transport.stop();
          await relay.stop();
        }
      };
      const emb = await embedded();

      // --- write-only baselines (service transactions into the outbox, no relay) ----------------
      await reset();
      const writeMeter = new CpuMeter(() => ({ pg: pgPids(), kafka: kPids() }));
      let w0 = performance.now();
      await bulkWrites(N);
      const writeOnly = N / ((performance.now() - w0) / 1000);
      const writeOnlyCpu = writeMeter.stop(N);
      await reset();
      w0 = performance.now();
      await writeProbes(orm, { total: Math.min(N, 20_000), aggregates: 400, perTx: 250, concurrency: 4 });
      const writeOnlyOrm = Math.min(N, 20_000) / ((performance.now() - w0) / 1000);
      await reset();

      const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : '-');
      const rows: (string | number)[][] = [
        ['bare kafkajs floor', fmt(floor.eventsPerSec), '1.00', fmt(floor.p50), fmt(floor.p99), '-', '-', '-', '-'],
        ['kafka + database floor (bare)', fmt(dbFloor.eventsPerSec), (dbFloor.eventsPerSec / floor.eventsPerSec).toFixed(2), '-', '-', '-', '-', '-', '-'],
        ['kafka e2e, relay in-process', fmt(e2e.eventsPerSec), (e2e.eventsPerSec / floor.eventsPerSec).toFixed(2), fmt(e2e.p50), fmt(e2e.p99), fmt(e2e.liveP50), fmt(e2e.liveP99), fmt(e2e.liveCommitP50), fmt(e2e.liveCommitP99)],
        ['kafka e2e, relay process', fmt(e2eSplit.eventsPerSec), (e2eSplit.eventsPerSec / floor.eventsPerSec).toFixed(2), fmt(e2eSplit.p50), fmt(e2eSplit.p99), fmt(e2eSplit.liveP50), fmt(e2eSplit.liveP99), fmt(e2eSplit.liveCommitP50), fmt(e2eSplit.liveCommitP99)],
        ['kafka e2e, relay process, no live group', fmt(e2eNoLive.eventsPerSec), (e2eNoLive.eventsPerSec / floor.eventsPerSec).toFixed(2), fmt(e2eNoLive.p50), fmt(e2eNoLive.p99), fmt(e2eNoLive.liveP50), fmt(e2eNoLive.liveP99), fmt(e2eNoLive.liveCommitP50), fmt(e2eNoLive.liveCommitP99)],
        ['embedded end to end', fmt(emb.eventsPerSec), (emb.eventsPerSec / floor.eventsPerSec).toFixed(2), fmt(emb.p50), fmt(emb.p99), fmt(emb.liveP50), fmt(emb.liveP99), fmt(emb.liveCommitP50), fmt(emb.liveCommitP99)],
        ['outbox writes only (recordMany)', fmt(writeOnly), (writeOnly / floor.eventsPerSec).toFixed(2), '-', '-', '-', '-', '-', '-'],
        ['outbox writes only (record, ORM)', fmt(writeOnlyOrm), (writeOnlyOrm / floor.eventsPerSec).toFixed(2), '-', '-', '-', '-', '-', '-'],
      ];
      print(table(['path', 'events/s', '× floor', 'p50 ms', 'p99 ms', 'live p50', 'live p99', 'live p50 (commit)', 'live p99 (commit)'], rows));
      print('p50/p99: record() → consumer effect; live: record() → live listener; (commit): commit acknowledged → live listener');
      const parts = ['bench', 'relay', 'worker', 'pg', 'kafka', 'others'];
      const cpuRow = (name: string, f: Figures) => {
        const u = f.cpu;
        if (!u) return [name, ...parts.map(() => '-'), '-', '-', '-'];
        const ours = parts.filter((p) => p !== 'others').reduce((t, p) => t + (u.perEvent[p] ?? 0), 0);
        return [name, ...parts.map((p) => (u.perEvent[p] === undefined ? '-' : u.perEvent[p]!.toFixed(0))), ours.toFixed(0), fmt((os.cpus().length * 1e6) / ours), u.load1.toFixed(1)];
      };
      print(
        table(
          ['CPU µs per event', ...parts, 'total (ours)', 'cpu-bound ev/s', 'load1'],
          [cpuRow('bare kafkajs floor', floor), cpuRow('kafka + database floor (bare)', dbFloor), cpuRow('kafka e2e, relay in-process', e2e), cpuRow('kafka e2e, relay process', e2eSplit), cpuRow('relay process, no live group', e2eNoLive), cpuRow('embedded end to end', emb), cpuRow('outbox writes only (recordMany)', { eventsPerSec: writeOnly, p50: NaN, p99: NaN, cpu: writeOnlyCpu })],
        ),
      );
      print('bench = this process (writers, in-process relay, live feed / floor producer+consumer); others = the rest of the machine in the same window');
      print(
        `against the kafka + database floor: relay process ${(e2eSplit.eventsPerSec / dbFloor.eventsPerSec).toFixed(2)}×, without the live group ${(e2eNoLive.eventsPerSec / dbFloor.eventsPerSec).toFixed(2)}×, embedded ${(emb.eventsPerSec / dbFloor.eventsPerSec).toFixed(2)}×`,
      );
      const best = e2eSplit.eventsPerSec > e2e.eventsPerSec ? e2eSplit : e2e;
      const checks = {
        e2eAtLeast20k: best.eventsPerSec >= 20_000,
        e2eAtLeastHalfFloor: best.eventsPerSec >= floor.eventsPerSec / 2,
        liveP99Under100ms: Math.min(e2e.liveCommitP99, e2eSplit.liveCommitP99) < 100,
      };
      print(`targets: ${Object.entries(checks).map(([k, v]) => `${k} ${v ? 'PASS' : 'FAIL'}`).join(', ')}`);
      return {
        pass: Object.values(checks).every(Boolean),
        headline: `kafka e2e ${fmt(best.eventsPerSec)} ev/s (${(best.eventsPerSec / floor.eventsPerSec).toFixed(2)}× floor ${fmt(floor.eventsPerSec)}), p99 ${fmt(best.p99)} ms, live p99 ${fmt(best.liveP99)} ms; without the live group ${fmt(e2eNoLive.eventsPerSec)} ev/s (${(e2eNoLive.eventsPerSec / floor.eventsPerSec).toFixed(2)}×, not the verdict); embedded ${fmt(emb.eventsPerSec)} ev/s`,
        results: { N, partitions, rate, kafkajs: kafkajsBuild(), coldFloor, floor, dbFloor, e2e, e2eSplit, e2eNoLive, embedded: emb, writeOnly, writeOnlyCpu, writeOnlyOrm, checks },
      };
    } finally {
      for (const c of cleanup.reverse()) await c().catch(() => undefined);
    }
  },
};

export default bench;
