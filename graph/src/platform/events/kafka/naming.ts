import { aggregateTypes, contractFor } from '@intranet/schema/events/validate';
import type { ConsumerRunner } from '../consumer.js';
import type { KafkaSettings } from './client.js';

// Every topic and consumer group name the platform uses, from KAFKA_TOPIC_PREFIX.

export const topicFor = (s: KafkaSettings, aggregateType: string) => `${s.topicPrefix}${aggregateType}`;
export const deadLetterTopic = (s: KafkaSettings) => `${s.topicPrefix}dead-letter`;
export const groupFor = (s: KafkaSettings, consumer: string) => `${s.topicPrefix}${consumer}`;
/** The consumer group whose committed offsets on the dead-letter topic are a consumer's replay progress. */
export const replayGroupFor = (s: KafkaSettings, consumer: string) => `${s.topicPrefix}replay.${consumer}`;
export const allTopics = (s: KafkaSettings) => aggregateTypes().map((a) => topicFor(s, a));

/** Topics a consumer needs: those of the aggregate types of the event types it handles. */
export function topicsOf(s: KafkaSettings, runner: ConsumerRunner): string[] {
  const aggs = new Set(
    runner.consumer.handles.map((t) => contractFor(t)?.aggregateType).filter((a): a is string => !!a),
  );
  return [...aggs].map((a) => topicFor(s, a));
}
