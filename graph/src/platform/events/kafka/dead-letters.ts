import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Kafka, Producer } from 'kafkajs';
import type { DeadLetter, DeadLetterSink } from '../transport.js';
import type { KafkaSettings } from './client.js';
import { deadLetterTopic } from './naming.js';
import { KeyHashPartitioner } from './partitioner.js';
import { replayPositions } from './replay.js';
import { topicOffsets } from './topic-admin.js';

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
        start.set(
          o.partition,
          mins.reduce((a, b) => (b < a ? b : a)),
        );
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
    const consumer = kafka.consumer({
      groupId,
      allowAutoTopicCreation: false,
      maxWaitTimeInMs: 100,
      retry: { initialRetryTime: 100, maxRetryTime: 1000, retries: 10 },
    });
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
        timer = setTimeout(
          () => reject(new Error(`reading ${topic} took over ${opts.timeoutMs ?? 30_000} ms`)),
          opts.timeoutMs ?? 30_000,
        );
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
    return still.sort(
      (a, b) =>
        a.parkedAt.localeCompare(b.parkedAt) ||
        a.partition - b.partition ||
        Number(BigInt(a.offset) - BigInt(b.offset)),
    );
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}
