/** Entry point: the event backbone (outbox, relay, consumers, Kafka, probe events) for the workers, scripts and benchmarks. */

export * from './platform/events/consumer.js';
export * from './platform/events/embedded.js';
export * from './platform/events/index.js';
export * from './platform/events/kafka/client.js';
export * from './platform/events/kafka/consumer-group.js';
export * from './platform/events/kafka/dead-letters.js';
export * from './platform/events/kafka/kafkajs-patch.js';
export * from './platform/events/kafka/live-feed.js';
export * from './platform/events/kafka/naming.js';
export * from './platform/events/kafka/replay.js';
export * from './platform/events/kafka/topic-admin.js';
export * from './platform/events/kafka/transport.js';
export * from './platform/events/kafka/until-reachable.js';
export * from './platform/events/metrics.js';
export * from './platform/events/outbox.js';
export * from './platform/events/probe.js';
export * from './platform/events/record-many.js';
export * from './platform/events/relay.js';
export * from './platform/events/retry-queue.js';
export * from './platform/events/test-support.js';
