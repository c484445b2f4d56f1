import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Admin, Consumer, Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import type { EventEnvelope } from '@intranet/schema/events';
import type { LiveListener } from '../transport.js';
import type { KafkaSettings } from './client.js';
import { decode } from './messages.js';
import { allTopics } from './naming.js';
import { ensureTopics, topicOffsets } from './topic-admin.js';

/** How often a running instance looks for the live groups of instances that died. */
const SWEEP_MS = 60 * 60_000;

/**
 * Live fan-out with Kafka: every graph instance reads every event in a consumer group of its own
 * (from the newest offset), so each instance pushes to its own WebSocket clients. The group is
 * deleted on a clean stop; those of instances that died (empty live groups) are deleted by the
 * instances still running, at start and hourly, so no lag exporter watches them grow for ever.
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
    void this.sweepDeadGroups();
    this.sweeper = setInterval(() => void this.sweepDeadGroups(), SWEEP_MS);
    this.sweeper.unref();
  }

  private sweeper?: NodeJS.Timeout;

  /**
   * Deletes the live groups no instance is in (Empty: their instance was killed; a running one's group
   * has its member, a rebalancing one is not Empty). Returns the groups deleted.
   */
  async sweepDeadGroups(): Promise<string[]> {
    const admin = this.admin;
    if (!admin) return [];
    try {
      const prefix = `${this.settings.topicPrefix}live.`;
      const ids = (await admin.listGroups()).groups
        .map((g) => g.groupId)
        .filter((id) => id.startsWith(prefix) && id !== this.groupId);
      if (!ids.length) return [];
      const dead = (await admin.describeGroups(ids)).groups.filter((g) => g.state === 'Empty').map((g) => g.groupId);
      if (dead.length) {
        await admin.deleteGroups(dead);
        this.log.info({ groups: dead }, 'deleted the live groups of instances that are gone');
      }
      return dead;
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'could not sweep the live groups of instances that are gone');
      return [];
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
    const highs = await Promise.all(
      [...this.next.keys()].map(async (topic) => ({ topic, offsets: await admin.fetchTopicOffsets(topic) })),
    );
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
    clearInterval(this.sweeper);
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
