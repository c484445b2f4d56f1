import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../../config/config.js';
import { OutboxRelay } from './relay.js';
import { ConsumerRunner, type EventConsumer, type RetryPolicy } from './consumer.js';
import { EmbeddedTransport, TableDeadLetters } from './embedded.js';
import { RetryQueue } from './retry-queue.js';
import { KafkaLiveFeed } from './kafka/live-feed.js';
import { KafkaTransport } from './kafka/transport.js';
import { untilReachable } from './kafka/until-reachable.js';
import type { KafkaSettings } from './kafka/client.js';
import { EventMetrics } from './metrics.js';
import type { ReadyCheck } from '../readiness.js';
import type { DeadLetterSink, EventTransport, LiveListener } from './transport.js';

export { EventConsumer, ConsumerRunner, AbortedError, backoffMs, type RetryPolicy } from './consumer.js';
export { EmbeddedTransport, TableDeadLetters, replayDeadLetterTable } from './embedded.js';
export { RetryQueue } from './retry-queue.js';
export { EventMetrics, serveMetrics, type MetricsServer } from './metrics.js';
import { FeedFreshness } from '../live/freshness.js';
export type { EventTransport, DeadLetterSink, DeadLetter, LiveListener } from './transport.js';

/** A cheap query: does the database answer? (for /healthz) */
/** Readiness: committed events the relay has not published for this long mean it cannot (the broker, most likely). */
const OUTBOX_STUCK_SECONDS = 30;
/** Readiness: a live feed this many events behind is not serving live updates. */
const LIVE_FEED_READY_LAG = 1000;

/** The outbox check of /readyz: events committed over OUTBOX_STUCK_SECONDS ago and still not published. */
const outboxCheck =
  (orm: MikroORM): ReadyCheck =>
  async () => {
    const [{ n }]: { n: number }[] = await orm.em
      .fork()
      .execute(
        `select count(*)::int as n from outbox_event where occurred_at < now() - interval '${OUTBOX_STUCK_SECONDS} seconds'`,
      );
    return n ? `${n} events committed over ${OUTBOX_STUCK_SECONDS} s ago are not published yet` : null;
  };

export async function databaseAnswers(orm: MikroORM): Promise<boolean> {
  try {
    await orm.em.fork().execute('select 1');
    return true;
  } catch {
    return false;
  }
}

/** The event settings of the config (KAFKA_*, EVENT_*, RELAY_*). */
export function kafkaSettings(config: Config): KafkaSettings | null {
  if (!config.KAFKA_BROKERS) return null;
  return {
    brokers: config.KAFKA_BROKERS.split(',')
      .map((b) => b.trim())
      .filter(Boolean),
    clientId: config.KAFKA_CLIENT_ID,
    topicPrefix: config.KAFKA_TOPIC_PREFIX,
    partitions: config.KAFKA_PARTITIONS,
    replicationFactor: config.KAFKA_REPLICATION_FACTOR,
    sessionTimeoutMs: config.KAFKA_SESSION_TIMEOUT_MS,
  };
}

export function retryPolicy(config: Config): RetryPolicy {
  return {
    maxAttempts: config.EVENT_MAX_ATTEMPTS,
    baseMs: config.EVENT_RETRY_BASE_MS,
    maxMs: config.EVENT_RETRY_MAX_MS,
  };
}

export interface EventBackbone {
  kind: 'embedded' | 'kafka';
  transport: EventTransport;
  relay: OutboxRelay;
  metrics: EventMetrics;
  /** In-process consumers (embedded mode only; with Kafka they run in `npm run workers`). */
  runners: ConsumerRunner[];
  deadLetters: DeadLetterSink;
  /** With Kafka: this instance's live consumer group. */
  liveFeed?: KafkaLiveFeed;
  /** Whether the live feed is known to be current (caches it feeds serve only then). */
  freshness: FeedFreshness;
  /**
   * For the metrics port's /healthz: the database answers a cheap query and, with Kafka, this
   * instance's live consumer group has joined (ok false → 503).
   */
  health(): Promise<{ ok: boolean; [k: string]: unknown }>;
  /** The events' part of /readyz (readiness.ts): the outbox, and with Kafka the broker and the live feed. */
  readyChecks: Record<string, ReadyCheck>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The graph process's side of the events: the outbox relay publishing through the configured
 * transport, and the live fan-out. Embedded (no KAFKA_BROKERS): the relay delivers to `live` and
 * to `consumers` in-process. Kafka: the relay produces to Kafka, and `live` is fed by a consumer
 * group of this instance's own, so every graph instance sees every event.
 */
export function createEventBackbone(opts: {
  config: Config;
  orm: MikroORM;
  databaseUrl: string;
  log: Logger;
  live?: LiveListener;
  consumers?: EventConsumer[];
  metrics?: EventMetrics;
}): EventBackbone {
  const { config, orm, log } = opts;
  const metrics = opts.metrics ?? new EventMetrics();
  const relayOpts = { batchSize: config.RELAY_BATCH_SIZE, pollMs: config.RELAY_POLL_MS };
  const kafka = kafkaSettings(config);
  if (kafka) {
    const transport = new KafkaTransport(kafka, log);
    const relay = new OutboxRelay(opts.databaseUrl, transport, log, relayOpts, metrics);
    const liveFeed = opts.live ? new KafkaLiveFeed(transport.kafka, kafka, opts.live, log) : undefined;
    if (liveFeed) {
      metrics.setBrokerProbe(() => liveFeed.lag());
      metrics.setLiveLagProbe(async () => {
        const lag = await liveFeed.lag();
        return lag === null ? {} : { [liveFeed.groupId]: lag };
      });
    }
    // Current: nothing committed over a second ago is unpublished, and this instance's feed has read all the broker holds.
    const freshness = new FeedFreshness(async () => {
      // The queue's oldest event (its one index, by seq): one probe however long the backlog.
      const [oldest]: { waiting: boolean }[] = await orm.em
        .fork()
        .execute(`select occurred_at < now() - interval '1 second' as waiting from outbox_event order by seq limit 1`);
      const waiting = oldest?.waiting === true;
      if (waiting) return false;
      if (!liveFeed) return true;
      return liveFeed.joinedOnce && (await liveFeed.lag()) === 0;
    });
    return {
      kind: 'kafka',
      transport,
      relay,
      metrics,
      runners: [],
      deadLetters: new TableDeadLetters(orm),
      liveFeed,
      freshness,
      readyChecks: {
        outbox: outboxCheck(orm),
        ...(liveFeed
          ? {
              // The live feed's admin asks the broker: an answer is the broker up; the lag, how far behind live updates are.
              liveFeed: async () => {
                if (!liveFeed.joinedOnce) return 'not joined to its consumer group yet';
                const lag = await liveFeed.lag();
                return lag !== null && lag > LIVE_FEED_READY_LAG ? `behind by ${lag} events` : null;
              },
            }
          : {}),
      },
      health: async () => {
        const database = await databaseAnswers(orm);
        const joined = liveFeed ? liveFeed.joinedOnce : undefined;
        return {
          ok: database && joined !== false,
          transport: 'kafka',
          database,
          ...(liveFeed ? { liveFeedJoined: joined } : {}),
        };
      },
      start: async () => {
        await untilReachable('graph', () => transport.start(), { log });
        await liveFeed?.start();
        await relay.start();
        freshness.start();
      },
      stop: async () => {
        freshness.stop();
        await relay.stop();
        await liveFeed?.stop();
        await transport.stop();
      },
    };
  }
  const retries = new RetryQueue(orm, log);
  const transport = new EmbeddedTransport(log, { concurrency: 1, retries });
  if (opts.live) transport.onLive(opts.live);
  const deadLetters = new TableDeadLetters(orm);
  const runners = (opts.consumers ?? []).map(
    (c) => new ConsumerRunner(c, orm, deadLetters, retryPolicy(config), metrics, log),
  );
  for (const r of runners) transport.addConsumer(r);
  // Lag, embedded: the consumers are fed by the relay in-process, so what a consumer has not
  // handled yet is the queued outbox events of the types it handles plus its events waiting in
  // the retry queue (one grouped count of each per scrape).
  if (runners.length) {
    metrics.addLagProbe(async () => {
      const rows: { type: string; n: number }[] = await orm.em
        .fork()
        .execute(`select type, count(*)::int as n from outbox_event group by type`);
      const waiting = await retries.counts();
      return Object.fromEntries(
        runners.map((r) => [
          r.name,
          rows.reduce((sum, row) => sum + (r.wants(row.type) ? row.n : 0), waiting[r.name] ?? 0),
        ]),
      );
    });
  }
  const relay = new OutboxRelay(opts.databaseUrl, transport, log, relayOpts, metrics);
  return {
    kind: 'embedded',
    transport,
    relay,
    metrics,
    runners,
    deadLetters,
    // One instance, its feed in process: a write drops what it changed before it answers.
    freshness: FeedFreshness.always(),
    readyChecks: { outbox: outboxCheck(orm) },
    health: async () => {
      const database = await databaseAnswers(orm);
      return { ok: database, transport: 'embedded', database, consumers: runners.map((r) => r.name) };
    },
    start: async () => {
      await transport.start();
      await relay.start();
    },
    stop: async () => {
      // Abandon retry waits first so the relay's drain ends; unsent rows are delivered next start.
      await transport.stop();
      await relay.stop();
    },
  };
}
