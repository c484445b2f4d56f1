/**
 * The scale bench's cluster on this machine: one PostgreSQL (embedded, the demo company seeded), one
 * Kafka broker (scripts/kafka), one S3-compatible store (SeaweedFS, scripts/s3), N graph instances (the compiled launcher, as `npm start` runs it,
 * each with a data directory of its own) and worker processes (`dist/workers/src/main.js`), all on
 * that database and broker with one session secret. Each instance sits behind a small load balancer
 * as the VUs see it: a request goes to the VU's home instance while it is up, else to another; an
 * instance is down from its first refused connection (a passive check) until its /readyz says ready.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startKafka, type KafkaBroker } from '../../scripts/kafka/kafka.js';
import { startSeaweed, TEST_CREDENTIALS, type SeaweedServer } from '../../scripts/s3/seaweedfs.js';
import { startBenchDatabase, type BenchDatabase } from '../lib/database.js';
import { onCleanup, PLATFORM_NODE_FLAGS, REPO_ROOT } from '../lib/procs.js';
import { SoakClient, sleep, type Vu } from '../soak/client.js';
import { startPlatform, type Platform } from '../soak/platform.js';

export interface Instance {
  name: string;
  platform: Platform;
  client: SoakClient;
  /** False from a refused connection or a failed /readyz until /readyz says ready again. */
  up: boolean;
  /** Every client this instance had (a restart makes a new one): their samples are the instance's. */
  clients: SoakClient[];
}

export interface Cluster {
  db: BenchDatabase;
  kafka: KafkaBroker;
  /** The S3-compatible store every instance and worker keeps files in. */
  s3: SeaweedServer;
  instances: Instance[];
  workers: ChildProcess[];
  env: Record<string, string>;
  /** The instance a VU's next request goes to: its home (n mod instances) while up, else the first one up. */
  route(vu: Vu): Instance;
  /** SIGKILL, as a crash: the load balancer learns it from the refused connections. */
  kill(i: Instance): void;
  /** Starts the instance again on the same ports and database. */
  restart(i: Instance): Promise<void>;
  stop(): Promise<void>;
}

const logDir = path.join(REPO_ROOT, 'bench/results');

export async function startCluster(o: {
  instances: number;
  workers: number;
  stamp: string;
  log: (line: string) => void;
}): Promise<Cluster> {
  const sdir = fs.mkdtempSync(path.join(os.tmpdir(), 'intranet-bench-s3-'));
  const s3 = await startSeaweed({ dir: sdir });
  onCleanup('s3', async () => {
    await s3.stop();
    fs.rmSync(sdir, { recursive: true, force: true });
  });
  const files = {
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: 'intranet-scale',
    S3_ACCESS_KEY_ID: TEST_CREDENTIALS.accessKeyId,
    S3_SECRET_ACCESS_KEY: TEST_CREDENTIALS.secretAccessKey,
    S3_CREATE_BUCKET: 'true',
  };
  const db = await startBenchDatabase(files); // the demo blog's pictures and PDF go to the store too
  const kdir = fs.mkdtempSync(path.join(os.tmpdir(), 'intranet-bench-kafka-'));
  const kafka = await startKafka({ dir: kdir, heap: '512m' });
  onCleanup('kafka', async () => {
    await kafka.stop();
    fs.rmSync(kdir, { recursive: true, force: true });
  });
  o.log(
    `database ${db.url.replace(/:[^:@/]+@/, ':…@')} (demo company), Kafka at ${kafka.brokers}, S3 (SeaweedFS) at ${s3.endpoint}`,
  );
  const env: Record<string, string> = {
    NODE_ENV: 'development', // the demo logins; nothing else differs for this bench
    DATABASE_URL: db.url,
    KAFKA_BROKERS: kafka.brokers,
    KAFKA_TOPIC_PREFIX: 'scale.',
    SEED_DEMO: 'never',
    SESSION_SECRET: 'bench-scale-session-secret-0123456789abcdef0123',
    LOG_LEVEL: 'warn',
    WS_MAX_SOCKETS_PER_USER: '100',
    ...files,
  };
  const instances: Instance[] = [];
  const startOne = async (name: string, ports?: [number, number]) => {
    const platform = await startPlatform({
      env,
      logFile: path.join(logDir, `scale-${name}-${o.stamp}.log`),
      ports,
    });
    return platform;
  };
  const makeClient = (inst: () => Instance, port: number) =>
    new SoakClient(port, (r) => {
      if (r.networkError && /ECONNREFUSED|ECONNRESET|socket hang up/.test(r.networkError)) inst().up = false;
    });
  for (let k = 0; k < o.instances; k++) {
    const name = String.fromCharCode(65 + k);
    const platform = await startOne(name);
    const inst: Instance = { name, platform, client: null as unknown as SoakClient, up: true, clients: [] };
    inst.client = makeClient(() => inst, platform.port);
    inst.clients.push(inst.client);
    instances.push(inst);
    o.log(`instance ${name}: pid ${platform.pid} at ${platform.url}`);
  }
  const workers: ChildProcess[] = [];
  for (let k = 0; k < o.workers; k++) {
    const out = fs.openSync(path.join(logDir, `scale-worker${k + 1}-${o.stamp}.log`), 'w');
    const w = spawn(
      process.execPath,
      [...PLATFORM_NODE_FLAGS, 'dist/workers/src/main.js', '--concurrency', '2', '--port', '0'],
      { cwd: REPO_ROOT, env: { ...process.env, ...env, DATA_DIR: db.tmp }, stdio: ['ignore', out, out] },
    );
    fs.closeSync(out);
    workers.push(w);
    onCleanup(`worker ${k + 1}`, () => void w.kill('SIGTERM'));
  }
  o.log(`workers: ${workers.length} processes (pids ${workers.map((w) => w.pid).join(', ')})`);

  // The load balancer's active check, as docs/operations.md asks: /readyz of each instance four
  // times a second (an instance whose live feed has not joined yet takes no traffic).
  let checking = true;
  const checker = (async () => {
    while (checking) {
      await Promise.all(
        instances.map(async (i) => {
          const ok = await fetch(`${i.platform.url}/readyz`, { signal: AbortSignal.timeout(1500) }).then(
            (r) => r.ok,
            () => false,
          );
          i.up = ok;
        }),
      );
      await sleep(250);
    }
  })();

  return {
    db,
    kafka,
    s3,
    instances,
    workers,
    env,
    route: (vu) => {
      const home = instances[vu.n % instances.length]!;
      return home.up ? home : (instances.find((i) => i.up) ?? home);
    },
    kill: (i) => {
      i.up = false;
      i.platform.proc.kill('SIGKILL');
    },
    restart: async (i) => {
      const platform = await startOne(`${i.name}-restarted`, [
        i.platform.port,
        Number(new URL(i.platform.metricsUrl).port),
      ]);
      i.platform = platform;
      i.client = makeClient(() => i, platform.port);
      i.client.loadStart = i.clients[0]!.loadStart;
      i.clients.push(i.client);
    },
    stop: async () => {
      checking = false;
      await checker;
      for (const w of workers) w.kill('SIGTERM');
      await Promise.all(workers.map((w) => new Promise((r) => (w.exitCode !== null ? r(null) : w.once('exit', r)))));
      for (const i of instances) await i.platform.stop();
    },
  };
}
