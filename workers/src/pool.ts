import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../../graph/src/config/config.js';
import { ConsumerRunner, EventMetrics, retryPolicy, kafkaSettings, serveMetrics, type EventConsumer, type MetricsServer } from '../../graph/src/platform/events/index.js';
import { KafkaConsumerGroup, KafkaDeadLetters, consumerLag, createKafka, ensureTopics, topicsOf } from '../../graph/src/platform/events/kafka.js';

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
  if (!settings) throw new Error('KAFKA_BROKERS is not set: without Kafka the consumers run inside `npm start` (embedded transport)');
  const kafka = createKafka(settings, log);
  await ensureTopics(kafka, settings);
  const metrics = new EventMetrics({ defaultMetrics: true });
  const dead = new KafkaDeadLetters(kafka, settings);
  const groups = opts.consumers.map(
    (c) => new KafkaConsumerGroup(kafka, settings, new ConsumerRunner(c, orm, dead, retryPolicy(config), metrics, log), log, { concurrency: opts.concurrency }),
  );
  const admin = kafka.admin();
  await admin.connect();
  metrics.addLagProbe(() => consumerLag(admin, groups.map((g) => ({ groupId: g.groupId, topics: topicsOf(settings, g.runner) }))));
  metrics.setBacklogProbe(async () => {
    const [row] = await orm.em.fork().execute(`select count(*)::int as n from outbox_event`);
    return row.n;
  });
  for (const g of groups) await g.start();
  let server: MetricsServer | undefined;
  if (opts.port !== undefined) {
    server = await serveMetrics(metrics, {
      port: opts.port,
      health: async () => {
        let db = true;
        try {
          await orm.em.fork().execute('select 1');
        } catch {
          db = false;
        }
        const crashed = groups.filter((g) => !g.healthy).map((g) => g.runner.name);
        return { ok: db && crashed.length === 0, database: db, consumers: groups.map((g) => g.runner.name), crashed };
      },
    });
  }
  log.info({ consumers: groups.map((g) => g.groupId), concurrency: opts.concurrency, metrics: server?.url }, 'worker pool started');
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
