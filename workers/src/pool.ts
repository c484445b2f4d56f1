import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { type Config, readiness } from '@intranet/graph';
import {
  ConsumerRunner,
  EventMetrics,
  databaseAnswers,
  retryPolicy,
  kafkaSettings,
  serveMetrics,
  type EventConsumer,
  type MetricsServer,
  KafkaConsumerGroup,
  consumerLag,
  KafkaDeadLetters,
  createKafka,
  ensureTopics,
  topicsOf,
  untilReachable,
} from '@intranet/graph/events';

export interface WorkerPool {
  groups: KafkaConsumerGroup[];
  metrics: EventMetrics;
  server?: MetricsServer;
  /** Resolves when every consumer has joined its group once. */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/**
 * The worker pool: each selected consumer in its Kafka consumer group (several pool processes share
 * the partitions), dead letters to the dead-letter topic, /healthz and /metrics on `port`.
 *
 * The metrics port is bound first, before anything joins a group: a taken port fails the start
 * (the listen error, code EADDRINUSE, is thrown as it is) without leaving members behind.
 */
export async function startWorkerPool(opts: {
  config: Config;
  orm: MikroORM;
  log: Logger;
  consumers: EventConsumer[];
  concurrency: number;
  port?: number;
}): Promise<WorkerPool> {
  const { config, orm, log } = opts;
  const settings = kafkaSettings(config);
  if (!settings)
    throw new Error(
      'KAFKA_BROKERS is not set: without Kafka the consumers run inside `npm start` (embedded transport)',
    );
  // No relay runs here: outbox_relayed_total is not registered (outbox_backlog is, from the database).
  const metrics = new EventMetrics({ defaultMetrics: true, relay: false });
  const groups: KafkaConsumerGroup[] = [];
  const kafka = createKafka(settings, log);
  const dead = new KafkaDeadLetters(kafka, settings);
  const admin = kafka.admin();
  const server =
    opts.port === undefined
      ? undefined
      : await serveMetrics(metrics, {
          port: opts.port,
          host: config.METRICS_HOST,
          health: async () => {
            const database = await databaseAnswers(orm);
            // Every consumer's member must have joined its group (and not crashed for good).
            const joined = new Set(groups.filter((g) => g.joinedOnce).map((g) => g.runner.name));
            const joining = opts.consumers.map((c) => c.name).filter((n) => !joined.has(n));
            const crashed = groups.filter((g) => !g.healthy).map((g) => g.runner.name);
            return {
              ok: database && joining.length === 0 && crashed.length === 0,
              database,
              consumers: opts.consumers.map((c) => c.name),
              joining,
              crashed,
            };
          },
          ready: () =>
            readiness({
              database: async () => ((await databaseAnswers(orm)) ? null : 'unreachable'),
              // The pool's admin asks the broker for its cluster: no answer, no broker.
              broker: async () => (await admin.describeCluster(), null),
              consumers: async () => {
                const waiting = opts.consumers
                  .map((c) => c.name)
                  .filter((n) => !groups.some((g) => g.runner.name === n && g.joinedOnce));
                const restarting = groups.filter((g) => g.restarting).map((g) => g.runner.name);
                const crashed = groups.filter((g) => !g.healthy).map((g) => g.runner.name);
                const parts = [
                  waiting.length ? `joining: ${waiting.join(', ')}` : '',
                  restarting.length ? `restarting: ${restarting.join(', ')}` : '',
                  crashed.length ? `crashed: ${crashed.join(', ')}` : '',
                ].filter(Boolean);
                return parts.length ? parts.join('; ') : null;
              },
            }),
        });
  metrics.setBrokerProbe(() => admin.describeCluster());
  metrics.addLagProbe(() =>
    consumerLag(
      admin,
      groups.map((g) => ({ groupId: g.groupId, topics: topicsOf(settings, g.runner) })),
    ),
  );
  metrics.setBacklogProbe(async () => {
    const [row] = await orm.em.fork().execute(`select count(*)::int as n from outbox_event`);
    return row.n;
  });
  try {
    // Each attempt builds its members afresh: a member whose start failed is not started again.
    let attempt: KafkaConsumerGroup[] = [];
    await untilReachable(
      'workers',
      async () => {
        await ensureTopics(kafka, settings);
        await admin.connect();
        attempt = opts.consumers.map(
          (c) =>
            new KafkaConsumerGroup(
              kafka,
              settings,
              new ConsumerRunner(c, orm, dead, retryPolicy(config), metrics, log),
              log,
              { concurrency: opts.concurrency },
            ),
        );
        for (const g of attempt) await g.start();
        groups.push(...attempt);
      },
      { log, cleanup: async () => void (await Promise.all(attempt.map((g) => g.stop()))) },
    );
  } catch (err) {
    await Promise.all(groups.map((g) => g.stop()));
    await dead.close();
    await admin.disconnect().catch(() => undefined);
    await server?.close();
    throw err;
  }
  log.info(
    { consumers: groups.map((g) => g.groupId), concurrency: opts.concurrency, metrics: server?.url },
    'worker pool started',
  );
  return {
    groups,
    metrics,
    server,
    ready: Promise.all(groups.map((g) => g.ready)).then(() => undefined),
    stop: async () => {
      await Promise.all(groups.map((g) => g.stop()));
      await dead.close();
      await admin.disconnect().catch(() => undefined);
      await server?.close();
    },
  };
}
