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
 * bench/events/: infra.ts (database, broker, CPU meter, probe writes), floor.ts and db-floor.ts (the
 * peers), pipeline.ts (the platform's path, Kafka and embedded), report.ts (tables, targets).
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeProbes } from '@intranet/graph/events';
import { numArg, type Bench } from './lib/bench.js';
import { REPO_ROOT } from './lib/procs.js';
import { runFloors } from './events/floor.js';
import { CpuMeter, startGround } from './events/infra.js';
import { embedded, kafkaE2e } from './events/pipeline.js';
import { reportEvents } from './events/report.js';

const bench: Bench = {
  description:
    'Event backbone: outbox → relay → Kafka → consumer vs bare Kafka floor, embedded transport, live latency',
  async run({ args, log: print }) {
    const N = numArg(args, 'events', 60_000);
    const partitions = numArg(args, 'partitions', 4);
    const rate = numArg(args, 'rate', 1000);
    const paced = numArg(args, 'paced-seconds', 4);
    const profileDir = path.join(
      REPO_ROOT,
      'bench/results',
      `events-profile-${new Date().toISOString().replace(/[:.]/g, '-')}`,
    );
    const profileArgv =
      args.profile === 'perf'
        ? ['--perf-basic-prof']
        : args.profile
          ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]
          : [];
    const cleanup: (() => Promise<void>)[] = [];
    try {
      const g = await startGround({ N, partitions, rate, paced, print, cleanup });
      const { orm, pgPids, kPids, reset, bulkWrites } = g;
      const { coldFloor, floor, dbFloor } = await runFloors(g, cleanup);
      const e2e = await kafkaE2e(g, { args, profileArgv }, false);
      const e2eSplit = await kafkaE2e(g, { args, profileArgv }, true);
      const e2eNoLive = await kafkaE2e(g, { args, profileArgv }, true, false);
      const emb = await embedded(g);

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
      return reportEvents(
        {
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
        },
        print,
      );
    } finally {
      for (const c of cleanup.reverse()) await c().catch(() => undefined);
    }
  },
};

export default bench;
