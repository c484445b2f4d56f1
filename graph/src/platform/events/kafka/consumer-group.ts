import type { Admin, Consumer, Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { AbortedError, type ConsumerRunner } from '../consumer.js';
import type { KafkaSettings } from './client.js';
import { decode } from './messages.js';
import { groupFor, topicsOf } from './naming.js';
import { ensureTopics } from './topic-admin.js';

/**
 * One consumer in its consumer group. Each fetched batch (one partition) goes through the runner
 * in one transaction (event by event with retries if that fails); the offset is committed only
 * after the effects are committed or the failing events are parked. Several processes running
 * the same consumer share the partitions.
 */
export class KafkaConsumerGroup {
  readonly groupId: string;
  /** False after a crash kafkajs does not restart from (healthz reports it). */
  healthy = true;
  /** Between a crash kafkajs restarts from and the next group join (readyz reports it). */
  restarting = false;
  /** True once the member has joined its group (healthz: 503 until then). */
  joinedOnce = false;
  private consumer: Consumer;
  private abort = new AbortController();
  private joined!: Promise<void>;

  constructor(
    private readonly kafka: Kafka,
    private readonly settings: KafkaSettings,
    readonly runner: ConsumerRunner,
    private readonly log: Logger,
    private readonly opts: { concurrency: number; maxWaitMs?: number } = { concurrency: 1 },
  ) {
    this.groupId = groupFor(settings, runner.name);
    this.consumer = kafka.consumer({
      groupId: this.groupId,
      allowAutoTopicCreation: false,
      sessionTimeout: settings.sessionTimeoutMs ?? 30_000,
      heartbeatInterval: Math.min(3000, Math.floor((settings.sessionTimeoutMs ?? 30_000) / 5)),
      maxWaitTimeInMs: opts.maxWaitMs ?? 100,
      maxBytesPerPartition: 4 * 1024 * 1024,
      retry: { initialRetryTime: 200, maxRetryTime: 5000, retries: Number.MAX_SAFE_INTEGER },
    });
  }

  /** Resolves after the first group join (partitions assigned). */
  get ready(): Promise<void> {
    return this.joined;
  }

  async start(): Promise<void> {
    this.abort = new AbortController();
    this.joined = new Promise((resolve) => {
      const off = this.consumer.on(this.consumer.events.GROUP_JOIN, () => {
        off();
        this.joinedOnce = true;
        resolve();
      });
    });
    this.consumer.on(this.consumer.events.GROUP_JOIN, () => (this.restarting = false));
    this.consumer.on(this.consumer.events.CRASH, (e) => {
      if (!e.payload.restart) this.healthy = false;
      else this.restarting = true;
      this.log.error(
        { consumer: this.runner.name, err: e.payload.error?.message, restart: e.payload.restart },
        'consumer crashed',
      );
    });
    await ensureTopics(this.kafka, this.settings);
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: topicsOf(this.settings, this.runner), fromBeginning: true });
    const signal = this.abort.signal;
    await this.consumer.run({
      autoCommit: false,
      partitionsConsumedConcurrently: this.opts.concurrency,
      eachBatch: async ({ batch, heartbeat, isRunning, isStale }) => {
        if (!isRunning() || isStale() || batch.messages.length === 0) return;
        try {
          await this.runner.process(batch.messages.map(decode), signal);
        } catch (err) {
          if (err instanceof AbortedError) throw err; // stopping: commit nothing, the batch comes again
          throw err;
        }
        const last = batch.messages[batch.messages.length - 1]!;
        await this.consumer.commitOffsets([
          { topic: batch.topic, partition: batch.partition, offset: (BigInt(last.offset) + 1n).toString() },
        ]);
        await heartbeat();
      },
    });
  }

  /** Graceful: abandons retry waits, lets the batch in its transaction finish, leaves the group. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.consumer.disconnect().catch((err) => this.log.warn({ err }, 'consumer disconnect failed'));
  }
}

/** Lag per consumer group: high watermark minus committed offset, summed over partitions. */
export async function consumerLag(
  admin: Admin,
  groups: { groupId: string; topics: string[] }[],
): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const highs = new Map<string, Map<number, bigint>>();
  const lows = new Map<string, Map<number, bigint>>();
  for (const g of groups) {
    let lag = 0n;
    for (const topic of g.topics) {
      if (!highs.has(topic)) {
        const offs = await admin.fetchTopicOffsets(topic).catch(() => []); // not created yet: nothing to lag behind
        highs.set(topic, new Map(offs.map((o) => [o.partition, BigInt(o.high)])));
        lows.set(topic, new Map(offs.map((o) => [o.partition, BigInt(o.low)])));
      }
    }
    const committed = await admin.fetchOffsets({ groupId: g.groupId, topics: g.topics });
    for (const t of committed) {
      for (const p of t.partitions) {
        const high = highs.get(t.topic)?.get(p.partition) ?? 0n;
        const low = lows.get(t.topic)?.get(p.partition) ?? 0n;
        const pos = BigInt(p.offset) < 0n ? low : BigInt(p.offset);
        if (high > pos) lag += high - pos;
      }
    }
    out[g.groupId] = Number(lag);
  }
  return out;
}
