import type { Admin, Kafka } from 'kafkajs';
import type { EventEnvelope } from '@intranet/schema/events';
import { InvalidEventError, parseEvent } from '@intranet/schema/events/validate';
import type { ConsumerRunner } from '../consumer.js';
import type { KafkaSettings } from './client.js';
import { decode } from './messages.js';
import { deadLetterTopic, replayGroupFor } from './naming.js';
import { topicOffsets } from './topic-admin.js';

/**
 * Where a consumer's replay stands on each partition of the dead-letter topic: the committed offset
 * of its replay group, or the partition's low watermark before its first replay. Messages from
 * there on (up to the high watermark) parked by that consumer are still parked; those before were
 * replayed (a replay that fails parks the event again, as a new message past the position).
 */
export async function replayPositions(
  admin: Admin,
  s: KafkaSettings,
  consumer: string,
  offsets: { partition: number; low: string }[],
): Promise<Map<number, bigint>> {
  const committed =
    (await admin.fetchOffsets({ groupId: replayGroupFor(s, consumer), topics: [deadLetterTopic(s)] }))[0]?.partitions ??
    [];
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
