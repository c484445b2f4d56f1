import type { Admin, Kafka } from 'kafkajs';
import type { KafkaSettings } from './client.js';
import { allTopics, deadLetterTopic } from './naming.js';

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
