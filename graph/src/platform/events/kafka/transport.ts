import type { Kafka, Producer } from 'kafkajs';
import type { Logger } from 'pino';
import type { EventEnvelope } from '@intranet/schema/events';
import type { EventTransport, SerializedEvent } from '../transport.js';
import { createKafka, type KafkaSettings } from './client.js';
import { toMessage } from './messages.js';
import { topicFor } from './naming.js';
import { KeyHashPartitioner } from './partitioner.js';
import { ensureTopics } from './topic-admin.js';

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

  private async send<E extends { aggregateType: string }>(
    batch: E[],
    message: (e: E) => { key: string; value: string },
  ): Promise<void> {
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
