import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { Kafka, Partitioners, logLevel, type Admin, type Consumer, type ICustomPartitioner, type KafkaMessage, type Producer } from 'kafkajs';
import type { Logger } from 'pino';
import type { EventEnvelope } from '../../../../../schema/events/index.js';
import { InvalidEventError, aggregateTypes, contractFor, parseEvent } from '../../../../../schema/events/validate.js';
import { AbortedError, type ConsumerRunner } from '../consumer.js';
import type { DeadLetter, DeadLetterSink, EventTransport, LiveListener, SerializedEvent } from '../transport.js';

export interface KafkaSettings {
  brokers: string[];
  clientId: string;
  topicPrefix: string;
  partitions: number;
  replicationFactor: number;
  sessionTimeoutMs?: number;
}

export const topicFor = (s: KafkaSettings, aggregateType: string) => `${s.topicPrefix}${aggregateType}`;
export const deadLetterTopic = (s: KafkaSettings) => `${s.topicPrefix}dead-letter`;
export const groupFor = (s: KafkaSettings, consumer: string) => `${s.topicPrefix}${consumer}`;
/** The consumer group whose committed offsets on the dead-letter topic are a consumer's replay progress. */
export const replayGroupFor = (s: KafkaSettings, consumer: string) => `${s.topicPrefix}replay.${consumer}`;
export const allTopics = (s: KafkaSettings) => aggregateTypes().map((a) => topicFor(s, a));

function pinoLogCreator(log: Logger) {
  return () =>
    ({ level, log: entry }: { level: number; log: { message: string; [k: string]: unknown } }) => {
      const { message, ...rest } = entry;
      // kafkajs logs every retriable protocol answer ("Response Metadata(…)") as an error; those are debug.
      if (level === logLevel.ERROR && !message.startsWith('Response ')) log.warn({ kafka: rest }, message);
      else log.debug({ kafka: rest }, message);
    };
}

/** Client tuning for short-lived operator commands (`workers status`, `dead-letters`): fail within seconds. */
export const QUICK_CLIENT = {
  connectionTimeout: 1500,
  requestTimeout: 5000,
  retry: { initialRetryTime: 100, maxRetryTime: 500, retries: 1 },
} as const;

export function createKafka(
  s: KafkaSettings,
  log: Logger,
  tuning: { connectionTimeout?: number; requestTimeout?: number; retry?: { initialRetryTime: number; maxRetryTime: number; retries: number } } = {},
): Kafka {
  return new Kafka({
    clientId: s.clientId,
    brokers: s.brokers,
    logLevel: logLevel.WARN,
    logCreator: pinoLogCreator(log),
    connectionTimeout: tuning.connectionTimeout ?? 3000,
    ...(tuning.requestTimeout ? { requestTimeout: tuning.requestTimeout } : {}),
    retry: tuning.retry ?? { initialRetryTime: 200, maxRetryTime: 5000, retries: 8 },
  });
}

/** Creates the platform's topics (one per aggregate type, and the dead-letter topic) if missing. Never auto-created. */
export async function ensureTopics(kafka: Kafka, s: KafkaSettings): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const wanted = [...allTopics(s), deadLetterTopic(s)].filter((t) => !existing.has(t));
    if (wanted.length) {
      await admin.createTopics({
        waitForLeaders: false,
        topics: wanted.map((topic) => ({ topic, numPartitions: s.partitions, replicationFactor: s.replicationFactor })),
      });
    }
    // Wait until every partition has a leader (KRaft propagates new topics asynchronously; kafkajs's
    // own waitForLeaders gives up on UNKNOWN_TOPIC_OR_PARTITION).
    const all = [...allTopics(s), deadLetterTopic(s)];
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        const meta = await admin.fetchTopicMetadata({ topics: all });
        if (meta.topics.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0))) break;
      } catch (err) {
        if (Date.now() > deadline) throw err;
      }
      if (Date.now() > deadline) throw new Error(`topics ${all.join(', ')} have no leaders after 30 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await admin.disconnect();
  }
}

/**
 * Kafka's murmur2 hash of a key (the Java client's default partitioner and kafkajs's
 * DefaultPartitioner), in 32-bit integer arithmetic: kafkajs computes it with its 64-bit Long class,
 * a dozen object allocations per key, which was a tenth of the relay's CPU.
 */
export function murmur2(data: Uint8Array): number {
  const m = 0x5bd1e995;
  const length = data.length;
  let h = 0x9747b28c ^ length;
  const whole = length & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k = data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
    k = Math.imul(k, m);
    k ^= k >>> 24;
    k = Math.imul(k, m);
    h = Math.imul(h, m) ^ k;
  }
  switch (length & 3) {
    case 3:
      h ^= data[whole + 2]! << 16;
    // falls through
    case 2:
      h ^= data[whole + 1]! << 8;
    // falls through
    case 1:
      h ^= data[whole]!;
      h = Math.imul(h, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
}

/**
 * kafkajs's DefaultPartitioner (same partition for every key, so relays of either kind agree and
 * Java clients too), cheaper per message: the 32-bit murmur2 above, the hash of recent keys
 * remembered (a relay batch repeats its aggregates' ids), and no list of available partitions
 * built per message. Messages with an explicit partition or no key go to kafkajs's own.
 */
export const KeyHashPartitioner: ICustomPartitioner = () => {
  const fallback = Partitioners.DefaultPartitioner();
  const hashes = new Map<string, number>();
  return (args) => {
    const { message, partitionMetadata } = args;
    const key = message.key;
    if ((message.partition !== null && message.partition !== undefined) || key === null || key === undefined) return fallback(args);
    let h: number | undefined;
    if (typeof key === 'string') {
      h = hashes.get(key);
      if (h === undefined) {
        h = murmur2(Buffer.from(key)) & 0x7fffffff;
        if (hashes.size >= 10_000) hashes.clear();
        hashes.set(key, h);
      }
    } else {
      h = murmur2(key) & 0x7fffffff;
    }
    return h % partitionMetadata.length;
  };
};

/**
 * Key = aggregate id (per-aggregate order); the envelope (with its id and type) is the value. No
 * headers: kafkajs encodes each header as its own buffers, and two of them cost a third more
 * producer CPU per event (measured: 31 → 21 µs per message) for data the value already carries.
 */
function toMessage(e: EventEnvelope) {
  return { key: e.aggregateId, value: JSON.stringify(e) };
}

/**
 * The relay's Kafka side: one idempotence-free producer with one request in flight (order per
 * partition survives retries; a duplicate after a failed batch is absorbed by consumer idempotency).
 * publish() resolves when every message is acknowledged by all in-sync replicas (acks = -1).
 */
export class KafkaTransport implements EventTransport {
  readonly kind = 'kafka' as const;
  readonly kafka: Kafka;
  private producer: Producer;

  constructor(
    readonly settings: KafkaSettings,
    log: Logger,
  ) {
    this.kafka = createKafka(settings, log);
    this.producer = this.kafka.producer({
      allowAutoTopicCreation: false,
      maxInFlightRequests: 1,
      createPartitioner: KeyHashPartitioner,
      retry: { initialRetryTime: 100, maxRetryTime: 2000, retries: 5 },
    });
  }

  async start(): Promise<void> {
    await ensureTopics(this.kafka, this.settings);
    await this.producer.connect();
  }

  async publish(batch: EventEnvelope[]): Promise<void> {
    await this.send(batch, toMessage);
  }

  /** The relay's path: the envelope JSON comes from the database as text, sent as it is. */
  async publishSerialized(batch: SerializedEvent[]): Promise<void> {
    await this.send(batch, (e) => ({ key: e.aggregateId, value: e.json }));
  }

  private async send<E extends { aggregateType: string }>(batch: E[], message: (e: E) => { key: string; value: string }): Promise<void> {
    // By aggregate type (a batch has a few), named as topics once per batch, not once per event.
    const byType = new Map<string, { key: string; value: string }[]>();
    for (const e of batch) {
      let list = byType.get(e.aggregateType);
      if (!list) byType.set(e.aggregateType, (list = []));
      list.push(message(e));
    }
    const topicMessages = [...byType].map(([type, messages]) => ({ topic: topicFor(this.settings, type), messages }));
    await this.producer.sendBatch({ acks: -1, topicMessages });
  }

  async stop(): Promise<void> {
    await this.producer.disconnect().catch(() => undefined);
  }
}

/** Parks events in the dead-letter topic, with the consumer, error and attempts in headers. */
export class KafkaDeadLetters implements DeadLetterSink {
  private producer: Producer;
  private connected?: Promise<void>;

  constructor(
    kafka: Kafka,
    private readonly settings: KafkaSettings,
  ) {
    this.producer = kafka.producer({ allowAutoTopicCreation: false, createPartitioner: KeyHashPartitioner });
  }

  async park(d: DeadLetter): Promise<void> {
    this.connected ??= this.producer.connect();
    await this.connected;
    await this.producer.send({
      topic: deadLetterTopic(this.settings),
      acks: -1,
      messages: [
        {
          key: d.eventId,
          value: JSON.stringify(d.envelope),
          headers: {
            consumer: d.consumer,
            error: d.error.slice(0, 4000),
            attempts: String(d.attempts),
            'event-type': d.eventType,
            'event-id': d.eventId,
            'parked-at': new Date().toISOString(),
          },
        },
      ],
    });
  }

  async close(): Promise<void> {
    if (this.connected) await this.producer.disconnect().catch(() => undefined);
  }
}

function decode(m: KafkaMessage): EventEnvelope | Record<string, unknown> {
  const raw = m.value?.toString('utf8') ?? '';
  try {
    return JSON.parse(raw) as EventEnvelope;
  } catch {
    // Not JSON: hand the runner what the headers say (if a foreign producer set them), so it parks the message with the reason.
    return { id: m.headers?.['event-id']?.toString(), type: m.headers?.['event-type']?.toString(), unparseable: raw.slice(0, 2000) };
  }
}

/** Topics a consumer needs: those of the aggregate types of the event types it handles. */
export function topicsOf(s: KafkaSettings, runner: ConsumerRunner): string[] {
  const aggs = new Set(runner.consumer.handles.map((t) => contractFor(t)?.aggregateType).filter((a): a is string => !!a));
  return [...aggs].map((a) => topicFor(s, a));
}

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
    this.consumer.on(this.consumer.events.CRASH, (e) => {
      if (!e.payload.restart) this.healthy = false;
      this.log.error({ consumer: this.runner.name, err: e.payload.error?.message, restart: e.payload.restart }, 'consumer crashed');
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
        await this.consumer.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: (BigInt(last.offset) + 1n).toString() }]);
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

/** fetchTopicOffsets, retried while a just-created topic's leadership settles (KRaft answers NOT_LEADER briefly). */
export async function topicOffsets(admin: Admin, topic: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await admin.fetchTopicOffsets(topic);
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** Lag per consumer group: high watermark minus committed offset, summed over partitions. */
export async function consumerLag(admin: Admin, groups: { groupId: string; topics: string[] }[]): Promise<Record<string, number>> {
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

/**
 * Live fan-out with Kafka: every graph instance reads every event in a consumer group of its own
 * (from the newest offset), so each instance pushes to its own WebSocket clients. The group is
 * deleted on a clean stop.
 */
export class KafkaLiveFeed {
  readonly groupId: string;
  /** True once this instance's live group has been joined (the graph's metrics /healthz). */
  joinedOnce = false;
  private consumer: Consumer;
  private joined!: Promise<void>;
  /** Per topic and partition, the next offset to hand to the listener (the seek at start, then each batch). */
  private readonly next = new Map<string, Map<number, bigint>>();
  /** Connected from start to stop: the end offsets at start, the high watermarks for lag(), the group's deletion. */
  private admin?: Admin;

  constructor(
    private readonly kafka: Kafka,
    private readonly settings: KafkaSettings,
    private readonly listener: LiveListener,
    private readonly log: Logger,
  ) {
    this.groupId = `${settings.topicPrefix}live.${os.hostname()}.${process.pid}.${randomUUID().slice(0, 8)}`;
    this.consumer = kafka.consumer({
      groupId: this.groupId,
      allowAutoTopicCreation: false,
      maxWaitTimeInMs: 50,
      sessionTimeout: 15_000,
      heartbeatInterval: 1500,
      retry: { initialRetryTime: 200, maxRetryTime: 5000, retries: Number.MAX_SAFE_INTEGER },
    });
  }

  get ready(): Promise<void> {
    return this.joined;
  }

  async start(): Promise<void> {
    this.joined = new Promise((resolve) => {
      const off = this.consumer.on(this.consumer.events.GROUP_JOIN, () => {
        off();
        this.joinedOnce = true;
        resolve();
      });
    });
    await ensureTopics(this.kafka, this.settings);
    // Start exactly at the end of each partition as of now (not at the first fetch's "latest",
    // which would skip events produced between the join and that fetch).
    const topics = allTopics(this.settings);
    const admin = this.kafka.admin();
    await admin.connect();
    this.admin = admin;
    const ends = await Promise.all(topics.map(async (topic) => ({ topic, offsets: await topicOffsets(admin, topic) })));
    await this.consumer.connect();
    await this.consumer.subscribe({ topics, fromBeginning: false });
    await this.consumer.run({
      autoCommit: true,
      autoCommitInterval: 5000,
      partitionsConsumedConcurrently: 4,
      eachBatch: async ({ batch }) => {
        const events: EventEnvelope[] = [];
        for (const m of batch.messages) {
          const e = decode(m);
          if (typeof (e as EventEnvelope).aggregateType === 'string') events.push(e as EventEnvelope);
        }
        try {
          if (events.length) this.listener(events);
        } catch (err) {
          this.log.warn({ err }, 'live listener failed');
        }
        if (batch.messages.length) this.next.get(batch.topic)?.set(batch.partition, BigInt(batch.lastOffset()) + 1n);
      },
    });
    for (const { topic, offsets } of ends) {
      this.next.set(topic, new Map(offsets.map((o) => [o.partition, BigInt(o.high)])));
      for (const o of offsets) this.consumer.seek({ topic, partition: o.partition, offset: o.high });
    }
  }

  /**
   * Events produced but not yet handed to the listener, over all partitions: the high watermark
   * (asked of the broker now) minus the next offset this feed hands over. Grows while the feed is
   * stuck or slow. Null when the feed is not running.
   */
  async lag(): Promise<number | null> {
    const admin = this.admin;
    if (!admin) return null;
    const highs = await Promise.all([...this.next.keys()].map(async (topic) => ({ topic, offsets: await admin.fetchTopicOffsets(topic) })));
    let lag = 0n;
    for (const { topic, offsets } of highs) {
      const next = this.next.get(topic)!;
      for (const o of offsets) {
        const pos = next.get(o.partition);
        const high = BigInt(o.high);
        if (pos !== undefined && high > pos) lag += high - pos;
      }
    }
    return Number(lag);
  }

  async stop(): Promise<void> {
    await this.consumer.disconnect().catch(() => undefined);
    const admin = this.admin;
    this.admin = undefined;
    if (!admin) return;
    try {
      await admin.deleteGroups([this.groupId]);
    } catch {
      /* broker gone: the empty group expires on its own */
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }
}

/**
 * Where a consumer's replay stands on each partition of the dead-letter topic: the committed offset
 * of its replay group, or the partition's low watermark before its first replay. Messages from
 * there on (up to the high watermark) parked by that consumer are still parked; those before were
 * replayed (a replay that fails parks the event again, as a new message past the position).
 */
async function replayPositions(admin: Admin, s: KafkaSettings, consumer: string, offsets: { partition: number; low: string }[]): Promise<Map<number, bigint>> {
  const committed = (await admin.fetchOffsets({ groupId: replayGroupFor(s, consumer), topics: [deadLetterTopic(s)] }))[0]?.partitions ?? [];
  const out = new Map<number, bigint>();
  for (const o of offsets) {
    const c = committed.find((p) => p.partition === o.partition);
    const low = BigInt(o.low);
    out.set(o.partition, c && BigInt(c.offset) >= 0n && BigInt(c.offset) > low ? BigInt(c.offset) : low);
  }
  return out;
}

/**
 * Replays the dead-letter topic for one consumer: every message parked by it up to the end of the
 * topic as of the start goes through the consumer again (with its retries; a new failure parks it
 * again). Progress is the offset of the consumer group `<prefix>replay.<consumer>`, so a message
 * is replayed once. An event parked more than once (the topic is at-least-once like any other: a
 * producer retry, or its batch delivered again after a rebalance, parks a second copy) is run
 * once per replay; its other copies are passed over.
 */
export async function replayDeadLetterTopic(
  kafka: Kafka,
  s: KafkaSettings,
  runner: ConsumerRunner,
  opts: { timeoutMs?: number } = {},
): Promise<{ replayed: number; parkedAgain: number }> {
  const topic = deadLetterTopic(s);
  const groupId = replayGroupFor(s, runner.name);
  const admin = kafka.admin();
  await admin.connect();
  const targets = new Map<number, bigint>();
  try {
    const highs = await topicOffsets(admin, topic);
    const positions = await replayPositions(admin, s, runner.name, highs);
    for (const h of highs) if (BigInt(h.high) > positions.get(h.partition)!) targets.set(h.partition, BigInt(h.high));
  } finally {
    await admin.disconnect();
  }
  const result = { replayed: 0, parkedAgain: 0 };
  if (targets.size === 0) return result;
  const handled = new Set<string>();
  const consumer = kafka.consumer({ groupId, allowAutoTopicCreation: false, maxWaitTimeInMs: 100 });
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  await consumer.run({
    autoCommit: false,
    eachBatch: async ({ batch }) => {
      const target = targets.get(batch.partition);
      if (target === undefined) return;
      let lastOffset: bigint | undefined;
      for (const m of batch.messages) {
        const off = BigInt(m.offset);
        if (off >= target) break;
        lastOffset = off;
        if (m.headers?.consumer?.toString() !== runner.name) continue;
        const id = m.headers?.['event-id']?.toString();
        if (id) {
          if (handled.has(id)) continue;
          handled.add(id);
        }
        const raw = decode(m);
        let event: EventEnvelope;
        try {
          event = parseEvent(raw);
        } catch (err) {
          if (!(err instanceof InvalidEventError)) throw err;
          await runner.process([raw]); // parks it again with the validation error
          result.parkedAgain++;
          continue;
        }
        if ((await runner.processOne(event)) === 'done') result.replayed++;
        else result.parkedAgain++;
      }
      if (lastOffset !== undefined) {
        await consumer.commitOffsets([{ topic, partition: batch.partition, offset: (lastOffset + 1n).toString() }]);
        if (lastOffset + 1n >= target) targets.delete(batch.partition);
      }
      if (targets.size === 0) finish();
    },
  });
  const timeout = new Promise<void>((r) => setTimeout(r, opts.timeoutMs ?? 60_000).unref());
  await Promise.race([done, timeout]);
  await consumer.disconnect();
  return result;
}

/** An event parked in the dead-letter topic and not replayed yet. */
export interface ParkedMessage {
  partition: number;
  offset: string;
  consumer: string;
  eventId: string;
  eventType: string;
  error: string;
  attempts: number;
  parkedAt: string;
}

/**
 * The events still parked in the dead-letter topic: for each consumer (those in `consumers`, or
 * every consumer named in the headers), the messages it parked past its replay position (see
 * replayPositions), each event once (its latest copy: an event may have been parked twice, see
 * replayDeadLetterTopic), as the embedded transport's table holds them. Reads with a throwaway
 * consumer group that commits nothing and is deleted afterwards, so neither the replay's progress
 * nor the topic changes.
 */
export async function readDeadLetterTopic(
  kafka: Kafka,
  s: KafkaSettings,
  opts: { consumers?: string[]; timeoutMs?: number } = {},
): Promise<ParkedMessage[]> {
  const topic = deadLetterTopic(s);
  const admin = kafka.admin();
  await admin.connect();
  try {
    if (!(await admin.listTopics()).includes(topic)) return [];
    const offsets = await topicOffsets(admin, topic);
    const positions = new Map<string, Map<number, bigint>>();
    const positionOf = async (consumer: string) => {
      let p = positions.get(consumer);
      if (!p) positions.set(consumer, (p = await replayPositions(admin, s, consumer, offsets)));
      return p;
    };
    // Where to start reading: the earliest replay position of the consumers asked for, or the low watermark.
    const start = new Map(offsets.map((o) => [o.partition, BigInt(o.low)]));
    if (opts.consumers?.length) {
      for (const o of offsets) {
        const mins = await Promise.all(opts.consumers.map(async (c) => (await positionOf(c)).get(o.partition)!));
        start.set(o.partition, mins.reduce((a, b) => (b < a ? b : a)));
      }
    }
    const targets = new Map<number, bigint>();
    for (const o of offsets) if (BigInt(o.high) > start.get(o.partition)!) targets.set(o.partition, BigInt(o.high));
    if (targets.size === 0) return [];

    const wanted = opts.consumers?.length ? new Set(opts.consumers) : undefined;
    const read: ParkedMessage[] = [];
    const groupId = `${s.topicPrefix}dead-letters.${os.hostname()}.${process.pid}.${randomUUID().slice(0, 8)}`;
    // The broker answered the admin: a join's retriable errors (a new group's coordinator) get a
    // few retries of their own, within the overall timeout.
    const consumer = kafka.consumer({ groupId, allowAutoTopicCreation: false, maxWaitTimeInMs: 100, retry: { initialRetryTime: 100, maxRetryTime: 1000, retries: 10 } });
    let finish!: () => void;
    const done = new Promise<void>((r) => (finish = r));
    try {
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      await consumer.run({
        autoCommit: false,
        eachBatch: async ({ batch }) => {
          const target = targets.get(batch.partition);
          if (target === undefined) return;
          const from = start.get(batch.partition)!;
          for (const m of batch.messages) {
            const off = BigInt(m.offset);
            if (off >= target) break;
            if (off < from) continue;
            const h = (k: string) => m.headers?.[k]?.toString() ?? '';
            if (wanted && !wanted.has(h('consumer'))) continue;
            read.push({
              partition: batch.partition,
              offset: m.offset,
              consumer: h('consumer'),
              eventId: h('event-id'),
              eventType: h('event-type'),
              error: h('error'),
              attempts: Number(h('attempts')) || 0,
              parkedAt: h('parked-at') || new Date(Number(m.timestamp)).toISOString(),
            });
          }
          if (BigInt(batch.lastOffset()) + 1n >= target) targets.delete(batch.partition);
          if (targets.size === 0) finish();
        },
      });
      for (const [partition] of targets) consumer.seek({ topic, partition, offset: start.get(partition)!.toString() });
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`reading ${topic} took over ${opts.timeoutMs ?? 30_000} ms`)), opts.timeoutMs ?? 30_000);
      });
      try {
        await Promise.race([done, timeout]);
      } finally {
        clearTimeout(timer);
      }
    } finally {
      await consumer.disconnect().catch(() => undefined);
      await admin.deleteGroups([groupId]).catch(() => undefined);
    }
    // Copies of one event share its key (the event id), so its partition: the last one read is its latest.
    const latest = new Map<string, ParkedMessage>();
    for (const m of read) {
      if (BigInt(m.offset) < (await positionOf(m.consumer)).get(m.partition)!) continue;
      latest.set(m.eventId ? `${m.consumer}\u0000${m.eventId}` : `${m.partition}:${m.offset}`, m);
    }
    const still = [...latest.values()];
    return still.sort((a, b) => a.parkedAt.localeCompare(b.parkedAt) || a.partition - b.partition || Number(BigInt(a.offset) - BigInt(b.offset)));
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}
