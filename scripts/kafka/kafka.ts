/**
 * A real single-node KRaft Apache Kafka for tests and benchmarks, from the official jars on Maven
 * Central (no Docker). Jars are fetched once with `mvn dependency:copy-dependencies` over
 * scripts/kafka/pom.xml into .kafka/libs (Maven's own cache is ~/.m2), then reused.
 *
 *   node --conditions=source --import @swc-node/register/esm-register scripts/kafka/kafka.ts start   # prints KAFKA_BROKERS=…
 *   node --conditions=source --import @swc-node/register/esm-register scripts/kafka/kafka.ts stop
 *   node --conditions=source --import @swc-node/register/esm-register scripts/kafka/kafka.ts status
 *   … fetch   (only download the jars)
 *
 * Options (env): KAFKA_PORT (default 19092), KAFKA_DIR (default .kafka/run), KAFKA_HEAP (default 512m).
 * Tests import startKafka() to run a broker of their own (fault tests stop and restart it).
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kafka, logLevel } from 'kafkajs';
import { freePort, freePorts } from '@intranet/graph';
import { alive, portOpen, sleep, terminate as end } from '../lib/process.js';
export { freePort };

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '../..');
const kafkaHome = path.join(repoRoot, '.kafka');
const libsDir = path.join(kafkaHome, 'libs');
const libsMarker = path.join(libsDir, '.complete');

/** True when a Java runtime is on PATH (the Kafka suites skip without one). */
export function hasJava(): boolean {
  try {
    execFileSync('java', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Downloads the broker jars once (cached in .kafka/libs and ~/.m2). */
export function fetchJars(): string {
  const pom = path.join(here, 'pom.xml');
  const stamp = fs.readFileSync(pom, 'utf8');
  if (fs.existsSync(libsMarker) && fs.readFileSync(libsMarker, 'utf8') === stamp) return libsDir;
  fs.rmSync(libsDir, { recursive: true, force: true });
  fs.mkdirSync(libsDir, { recursive: true });
  execFileSync(
    'mvn',
    ['-q', '-B', '-f', pom, 'dependency:copy-dependencies', '-DincludeScope=runtime', `-DoutputDirectory=${libsDir}`],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  fs.writeFileSync(libsMarker, stamp);
  return libsDir;
}

export interface KafkaOptions {
  /** Directory for config, data, logs and the pid file. */
  dir?: string;
  port?: number;
  heap?: string;
  /** Partitions of __consumer_offsets (small = fast start). */
  offsetsPartitions?: number;
}

export interface KafkaBroker {
  brokers: string;
  port: number;
  dir: string;
  pid(): number | undefined;
  /** Graceful stop (SIGTERM, then SIGKILL after 20 s). */
  stop(): Promise<void>;
  /** SIGKILL, as a crash. */
  kill(): Promise<void>;
  /** Starts again on the same port and data (after stop or kill). */
  restart(): Promise<void>;
}

function writeConfig(dir: string, port: number, controllerPort: number, offsetsPartitions: number) {
  const props = `
process.roles=broker,controller
node.id=1
controller.quorum.bootstrap.servers=127.0.0.1:${controllerPort}
listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}
advertised.listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=${path.join(dir, 'data')}
num.partitions=1
auto.create.topics.enable=false
offsets.topic.replication.factor=1
offsets.topic.num.partitions=${offsetsPartitions}
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=4
group.initial.rebalance.delay.ms=0
num.network.threads=2
num.io.threads=4
log.retention.hours=24
`.trimStart();
  fs.writeFileSync(path.join(dir, 'server.properties'), props);
  fs.writeFileSync(
    path.join(dir, 'log4j.properties'),
    `log4j.rootLogger=WARN, file
log4j.appender.file=org.apache.log4j.FileAppender
log4j.appender.file.File=${path.join(dir, 'server.log')}
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka=INFO
log4j.logger.org.apache.kafka=WARN
`,
  );
}

function javaArgs(dir: string, heap: string, main: string, args: string[]): string[] {
  return [
    `-Xms${heap}`,
    `-Xmx${heap}`,
    '-XX:+UseG1GC',
    '-XX:MaxGCPauseMillis=20',
    '-Djava.awt.headless=true',
    `-Dlog4j.configuration=file:${path.join(dir, 'log4j.properties')}`,
    `-Dkafka.logs.dir=${dir}`,
    '-cp',
    `${libsDir}/*`,
    main,
    ...args,
  ];
}

/** Waits until the broker answers a metadata request (not just an open port). */
export async function waitForMetadata(brokers: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const [host, p] = brokers.split(',')[0]!.split(':');
  while (!(await portOpen(Number(p)))) {
    if (Date.now() > deadline) throw new Error(`Kafka at ${host}:${p} did not open its port in ${timeoutMs} ms`);
    await sleep(100);
  }
  const kafka = new Kafka({
    brokers: brokers.split(','),
    logLevel: logLevel.NOTHING,
    retry: { retries: 0 },
    connectionTimeout: 2000,
  });
  for (;;) {
    const admin = kafka.admin();
    try {
      await admin.connect();
      const cluster = await admin.describeCluster();
      await admin.fetchTopicMetadata({ topics: [] });
      if (cluster.brokers.length > 0 && cluster.controller !== null && cluster.controller !== undefined) return;
    } catch {
      /* not ready yet */
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
    if (Date.now() > deadline)
      throw new Error(`Kafka at ${brokers} did not answer metadata requests in ${timeoutMs} ms`);
    await sleep(200);
  }
}

/** Formats (first time) and starts a broker; resolves when it answers metadata requests. */
export async function startKafka(opts: KafkaOptions = {}): Promise<KafkaBroker> {
  fetchJars();
  const dir = path.resolve(opts.dir ?? path.join(kafkaHome, 'run'));
  const heap = opts.heap ?? '512m';
  fs.mkdirSync(dir, { recursive: true });
  const pidFile = path.join(dir, 'kafka.pid');
  if (fs.existsSync(pidFile)) {
    const old = Number(fs.readFileSync(pidFile, 'utf8'));
    if (old && alive(old)) throw new Error(`Kafka already running in ${dir} (pid ${old}); stop it first`);
  }
  // Two different ports (the broker's listeners may not share one), neither the one asked for.
  const [free, other] = await freePorts(2);
  const port = opts.port ?? free!;
  const controllerPort = other !== port ? other! : free!;
  // A fresh data dir every start of this helper: tests want a clean broker. restart() keeps it.
  fs.rmSync(path.join(dir, 'data'), { recursive: true, force: true });
  writeConfig(dir, port, controllerPort, opts.offsetsPartitions ?? 4);
  // A cluster id as Kafka's Uuid.randomUuid() makes one: base64url of 16 random bytes, never starting
  // with '-' (the storage tool would read it as an option; 1 start in 64 failed that way).
  let clusterId = randomBytes(16).toString('base64url');
  while (clusterId.startsWith('-')) clusterId = randomBytes(16).toString('base64url');
  execFileSync(
    'java',
    javaArgs(dir, '128m', 'kafka.tools.StorageTool', [
      'format',
      '--standalone',
      '-t',
      clusterId,
      '-c',
      path.join(dir, 'server.properties'),
      '--ignore-formatted',
    ]),
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  let pid: number | undefined;
  const brokers = `127.0.0.1:${port}`;

  const launch = async () => {
    const out = fs.openSync(path.join(dir, 'stdout.log'), 'a');
    const child = spawn('java', javaArgs(dir, heap, 'kafka.Kafka', [path.join(dir, 'server.properties')]), {
      detached: true,
      stdio: ['ignore', out, out],
    });
    fs.closeSync(out);
    child.unref();
    pid = child.pid;
    fs.writeFileSync(pidFile, String(pid));
    let exited: number | null = null;
    let settled = false;
    child.once('exit', (code) => (exited = code ?? -1));
    const ready = waitForMetadata(brokers, 90_000);
    const died = (async () => {
      while (exited === null && !settled) await sleep(100);
      if (exited !== null)
        throw new Error(
          `Kafka exited with code ${exited} during start; see ${path.join(dir, 'server.log')} and stdout.log`,
        );
    })();
    try {
      await Promise.race([ready, died]);
    } finally {
      settled = true;
    }
  };

  const terminate = async (signal: NodeJS.Signals, graceMs: number) => {
    if (!pid || !alive(pid)) return;
    await end(pid, signal, graceMs);
    // The port must be free before a restart binds it again.
    while (await portOpen(port)) await sleep(50);
    fs.rmSync(pidFile, { force: true });
  };

  await launch();
  return {
    brokers,
    port,
    dir,
    pid: () => pid,
    stop: () => terminate('SIGTERM', 20_000),
    kill: () => terminate('SIGKILL', 0),
    restart: launch,
  };
}

/** Stops the broker whose pid file is in `dir` (used by the CLI and by CI). */
export async function stopKafka(dir = path.join(kafkaHome, 'run')): Promise<boolean> {
  const pidFile = path.join(dir, 'kafka.pid');
  if (!fs.existsSync(pidFile)) return false;
  const pid = Number(fs.readFileSync(pidFile, 'utf8'));
  await end(pid, 'SIGTERM', 20_000);
  fs.rmSync(pidFile, { force: true });
  return true;
}

async function cli(argv: string[]) {
  const cmd = argv[0] ?? 'start';
  const dir = path.resolve(process.env.KAFKA_DIR ?? path.join(kafkaHome, 'run'));
  if (cmd === 'fetch') {
    console.log(fetchJars());
  } else if (cmd === 'start') {
    if (!hasJava()) {
      console.error('kafka: no Java runtime on PATH; cannot start a broker');
      process.exit(2);
    }
    const t0 = Date.now();
    // 19092 unless taken (another checkout's broker): then any free port. KAFKA_PORT forces one.
    const port = process.env.KAFKA_PORT
      ? Number(process.env.KAFKA_PORT)
      : (await portOpen(19092))
        ? await freePort()
        : 19092;
    const broker = await startKafka({ dir, port, heap: process.env.KAFKA_HEAP ?? '512m' });
    console.error(
      `kafka: single-node KRaft broker pid ${broker.pid()} ready at ${broker.brokers} in ${Date.now() - t0} ms (dir ${dir})`,
    );
    console.log(`KAFKA_BROKERS=${broker.brokers}`);
  } else if (cmd === 'stop') {
    const had = await stopKafka(dir);
    console.error(had ? 'kafka: stopped' : 'kafka: not running');
  } else if (cmd === 'status') {
    const pidFile = path.join(dir, 'kafka.pid');
    const pid = fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8')) : 0;
    console.log(pid && alive(pid) ? `running (pid ${pid})` : 'not running');
    process.exit(pid && alive(pid) ? 0 : 1);
  } else {
    console.error(`usage: kafka.ts start|stop|status|fetch`);
    process.exit(64);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  cli(process.argv.slice(2)).catch((err) => {
    console.error(`kafka: ${(err as Error).message}`);
    process.exit(1);
  });
}
