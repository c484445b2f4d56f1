/**
 * The events bench's system under test: service transactions record events in the outbox → relay
 * (in the writers' process or its own) → Kafka → a worker pool process (`npm run workers -- --only
 * probe`) → effect + idempotency rows, with this process's live consumer group (the graph's
 * graphql-ws feed) during the throughput run or only for the latency run; and the same path on the
 * embedded transport (relay → in-process consumer). Each: throughput after an untimed warm-up, then
 * a paced latency run (record → effect, record → live, commit → live).
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import {
  ConsumerRunner,
  EmbeddedTransport,
  TableDeadLetters,
  KafkaLiveFeed,
  KafkaTransport,
  EventMetrics,
  ProbeConsumer,
  OutboxRelay,
  RetryQueue,
  writeProbes,
} from '@intranet/graph/events';
import type { EventEnvelope } from '@intranet/schema/events';
import { numArg, type BenchArgs } from '../lib/bench.js';
import { PLATFORM_NODE_FLAGS, REPO_ROOT } from '../lib/procs.js';
import { CpuMeter, log, pct, sleep, WORKERS_MAIN, type EventsGround, type Figures } from './infra.js';

export type PipelineFigures = Figures & {
  liveP50: number;
  liveP99: number;
  liveCommitP50: number;
  liveCommitP99: number;
};
export interface PipelineOptions {
  args: BenchArgs;
  /** Node flags of the relay and worker children (--profile). */
  profileArgv: string[];
}

/** This process's live listener (the graph's graphql-ws feed input): when each stamped probe event arrived, while `on`. */
class LiveProbe {
  on = false;
  private readonly latencies: number[] = [];
  private readonly at = new Map<string, number>();

  onBatch = (batch: EventEnvelope[]) => {
    if (!this.on) return;
    const now = Date.now();
    for (const e of batch) {
      const t = (e.payload as { sentAtMs?: number }).sentAtMs;
      if (t !== undefined) {
        this.latencies.push(now - t);
        this.at.set(e.id, now);
      }
    }
  };

  /** A run's figures: throughput, record → effect (`effectLatencies`, sorted), record → live and commit → live. */
  figures(
    eventsPerSec: number,
    effectLatencies: number[],
    cpu: Figures['cpu'],
    fromCommit: (received: Map<string, number>) => number[],
  ): PipelineFigures {
    const live = [...this.latencies].sort((a, b) => a - b);
    const c = fromCommit(this.at);
    return {
      eventsPerSec,
      p50: pct(effectLatencies, 0.5),
      p99: pct(effectLatencies, 0.99),
      cpu,
      liveP50: pct(live, 0.5),
      liveP99: pct(live, 0.99),
      liveCommitP50: pct(c, 0.5),
      liveCommitP99: pct(c, 0.99),
    };
  }
}

// --- Kafka end to end -----------------------------------------------------------------------
// liveDuringThroughput false: this process's live consumer group (the graph's graphql-ws feed)
// joins only after the throughput run, for the latency run: the same pipeline without the
// second consumer group that the floor does not have (its cost shows as the difference).
export async function kafkaE2e(
  g: EventsGround,
  o: PipelineOptions,
  separateRelay: boolean,
  liveDuringThroughput = true,
): Promise<PipelineFigures> {
  const {
    N,
    partitions,
    print,
    orm,
    dbUrl,
    brokers,
    pgPids,
    kPids,
    settings,
    reset,
    latencies,
    waitEffects,
    bulkWrites,
    warmUp,
    pacedWrites,
    fromCommit,
  } = g;
  const { args, profileArgv } = o;
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
    ? spawn(process.execPath, [...PLATFORM_NODE_FLAGS, ...profileArgv, WORKERS_MAIN, 'relay'], {
        cwd: REPO_ROOT,
        env: childEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    : undefined;
  relayProc?.stdout!.on('data', (d) => (workerOut += d));
  relayProc?.stderr!.on('data', (d) => (workerOut += d));
  const relayExit = relayProc ? new Promise((r) => relayProc.once('exit', r)) : Promise.resolve();
  const worker = spawn(
    process.execPath,
    [
      ...PLATFORM_NODE_FLAGS,
      ...profileArgv,
      WORKERS_MAIN,
      '--only',
      'probe',
      '--concurrency',
      String(partitions),
      '--port',
      '0',
    ],
    {
      cwd: REPO_ROOT,
      env: childEnv, // RELAY_BATCH_SIZE means nothing to a consumer pool
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  worker.stdout!.on('data', (d) => (workerOut += d));
  worker.stderr!.on('data', (d) => (workerOut += d));
  const workerExit = new Promise((r) => worker.once('exit', r));
  const live = new LiveProbe();
  const feed = new KafkaLiveFeed(transport.kafka, s, live.onBatch, log);
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
      const [r] = await orm.em
        .fork()
        .execute(
          `select (select count(*) from outbox_event)::int as backlog, (select count(*) from event_probe_effect)::int as done`,
        );
      progress.push(`${((performance.now() - t0) / 1000).toFixed(0)}s backlog ${r.backlog} effects ${r.done}`);
    }, 1000);
    await bulkWrites(N);
    const writeSec = (performance.now() - t0) / 1000;
    const t1 = await waitEffects(N);
    const cpu = meter.stop(N);
    clearInterval(sampler);
    const sec = (t1 - t0) / 1000;
    print(
      `kafka e2e (${separateRelay ? 'relay process' : 'relay in the writers process'}${liveDuringThroughput ? '' : ', no live group during the throughput run'}): writes took ${writeSec.toFixed(2)} s, last effect at ${sec.toFixed(2)} s`,
    );
    if (args.progress) print(progress.join('\n'));
    await reset();
    if (!liveDuringThroughput) {
      await feed.start();
      await feed.ready;
    }
    live.on = true;
    const total = await pacedWrites();
    await waitEffects(total, 60_000);
    await sleep(200);
    return live.figures(N / sec, await latencies(), cpu, fromCommit);
  } finally {
    await relay.stop();
    relayProc?.kill('SIGTERM');
    worker.kill('SIGTERM');
    await Promise.all([workerExit, relayExit]);
    await feed.stop();
    await transport.stop();
  }
}

// --- embedded ---------------------------------------------------------------------------
export async function embedded(g: EventsGround): Promise<PipelineFigures> {
  const { N, orm, dbUrl, pgPids, kPids, reset, latencies, waitEffects, bulkWrites, warmUp, pacedWrites, fromCommit } =
    g;
  await reset();
  const metrics = new EventMetrics();
  // As the backbone wires it: with the retry queue (one look-up of waiting aggregates per batch).
  const transport = new EmbeddedTransport(log, { concurrency: 2, retries: new RetryQueue(orm, log) });
  const live = new LiveProbe();
  transport.onLive(live.onBatch);
  transport.addConsumer(
    new ConsumerRunner(
      new ProbeConsumer(),
      orm,
      new TableDeadLetters(orm),
      { maxAttempts: 3, baseMs: 50, maxMs: 1000 },
      metrics,
      log,
    ),
  );
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
    live.on = true;
    const total = await pacedWrites();
    await waitEffects(total, 60_000);
    return live.figures(N / sec, await latencies(), cpu, fromCommit);
  } finally {
    await transport.stop();
    await relay.stop();
  }
}
