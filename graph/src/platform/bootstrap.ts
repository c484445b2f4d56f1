import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { GraphQLSchema } from 'graphql';
import type { Config } from '../config/config.js';
import { startEmbeddedPostgres, type EmbeddedDb } from '../db/embedded.js';
import { migrate, openOrm } from '../db/orm.js';
import { isDatabaseEmpty, seedDemoCompany } from '../db/seeders/demo-company.js';
import type { FileStorage } from '../lib/files/index.js';
import { fileStorageFor } from './file-storage.js';
import { startServer, type AppServer } from '../server.js';
import { fanOut } from './live/fan-out.js';
import { LiveSockets } from './live/sockets.js';
import type { Logger } from './logger.js';
import { createLivePubSub } from './live/pubsub.js';
import { createEventBackbone, type EventBackbone, type EventConsumer, type EventMetrics } from './events/index.js';
import type { OutboxRelay } from './events/relay.js';
import { onLocalCommit } from './events/local-commits.js';
import { buildAppSchema } from './schema.js';
import { sessionSecret } from './secret.js';
import { createServices, type Services } from './services.js';
import { sweepIdempotencyKeys } from './idempotency.js';

export interface Database {
  url: string;
  embedded: EmbeddedDb | null;
}

/**
 * DATABASE_URL, or a real embedded PostgreSQL with its data in DATA_DIR/pg. `attach`: join the
 * embedded PostgreSQL another process (npm start) already runs on DATA_DIR, for operator commands.
 */
export async function openDatabase(config: Config, log: Logger, opts: { attach?: boolean } = {}): Promise<Database> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, embedded: null };
  const embedded = await startEmbeddedPostgres(
    path.join(config.dataDir, 'pg'),
    'intranet',
    (m) => log.debug({ pg: m.trim() }),
    { attach: opts.attach },
  );
  return { url: embedded.url, embedded };
}

/** Migrates, and seeds the demo company into an empty development database (its blog's pictures and PDF into `files`). */
export async function prepareDatabase(
  config: Config,
  orm: MikroORM,
  log: Logger,
  files: FileStorage = fileStorageFor(config),
): Promise<boolean> {
  // The seed decides under the migration lock too: two instances of a first start seed once.
  const { applied, result: seeded } = await migrate(orm, async () => {
    const em = orm.em.fork();
    if (config.isProduction || config.SEED_DEMO === 'never' || !(await isDatabaseEmpty(em))) return false;
    await files.open();
    const summary = await em.transactional((tx) => seedDemoCompany(tx, { files }));
    log.info(summary, 'demo company seeded');
    return true;
  });
  if (applied.length) log.info({ applied }, 'migrations applied');
  return seeded ?? false;
}

export interface Graph {
  orm: MikroORM;
  services: Services;
  schema: GraphQLSchema;
  /** Outbox relay, transport (embedded or Kafka), in-process consumers, live feed, metrics. */
  events: EventBackbone;
  relay: OutboxRelay;
  server: AppServer;
  stop(): Promise<void>;
}

/** The graph process: ORM, services, schema, the outbox relay feeding live subscriptions, HTTP/WS. */
export async function startGraph(
  config: Config,
  log: Logger,
  databaseUrl: string,
  opts: { port?: number; consumers?: EventConsumer[]; metrics?: EventMetrics } = {},
): Promise<Graph> {
  const orm = await openOrm(databaseUrl, config.DB_POOL_MAX, log);
  const pubsub = createLivePubSub();
  const services = createServices(config, sessionSecret(config), pubsub);
  await services.files.open(); // a missing bucket or an unreachable store stops the start, saying which
  log.info({ files: services.files.description }, 'file store');
  await prepareDatabase(config, orm, log, services.files);
  // This process's own writes drop the grid answers they change before their request answers.
  onLocalCommit(orm, (events) => services.scheduleGridCache.invalidate(events), log);
  const schema = await buildAppSchema(pubsub);
  const sockets = new LiveSockets({
    socketsPerUser: config.WS_MAX_SOCKETS_PER_USER,
    operationsPerSocket: config.WS_MAX_OPERATIONS_PER_SOCKET,
    operationsPerUser: config.WS_MAX_OPERATIONS_PER_USER,
  });
  const publish = fanOut(pubsub);
  // Session ends close sockets before the same batch reaches subscriptions.
  const live = (batch: Parameters<typeof publish>[0]) => {
    services.scheduleGridCache.invalidate(batch);
    sockets.apply(batch);
    publish(batch);
  };
  const events = createEventBackbone({
    config,
    orm,
    databaseUrl,
    log,
    live,
    consumers: opts.consumers,
    metrics: opts.metrics,
  });
  // The grid cache serves only what the live feed can vouch for (while another instance's writes wait, it misses).
  services.scheduleGridCache.trustWhile(() => events.freshness.current);
  await events.start();
  const server = await startServer({
    config,
    orm,
    schema,
    services,
    sockets,
    log,
    port: opts.port,
    readyChecks: { ...events.readyChecks, files: () => services.files.check() },
  });
  // At start and hourly: expired sessions, Idempotency-Keys past their day, and what uploads a killed
  // process left unfinished (a local store's temporary files), an hour old, so no upload in
  // progress loses its file.
  const sweep = () => {
    services.sessions.purgeExpired(orm.em.fork()).catch((err) => log.warn({ err }, 'session purge failed'));
    sweepIdempotencyKeys(orm.em.fork()).catch((err) => log.warn({ err }, 'idempotency key sweep failed'));
    services.files
      .sweepUnfinished()
      .then((n) => n && log.info({ removed: n }, 'removed the temporary files of unfinished uploads'))
      .catch((err) => log.warn({ err }, 'temporary file sweep failed'));
  };
  sweep();
  const sweeper = setInterval(sweep, 3_600_000);
  sweeper.unref();
  return {
    orm,
    services,
    schema,
    events,
    relay: events.relay,
    server,
    stop: async () => {
      clearInterval(sweeper);
      await server.close();
      await events.stop();
      await orm.close();
    },
  };
}
