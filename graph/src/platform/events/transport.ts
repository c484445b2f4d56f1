import type { EventEnvelope } from '@intranet/schema/events';

/**
 * Where the outbox relay hands committed events. Two implementations: EmbeddedTransport (default:
 * in-process delivery to the same consumer classes) and KafkaTransport (KAFKA_BROKERS set).
 * `publish` resolves only once the batch is durably handed over (Kafka: acknowledged by the
 * broker; embedded: every consumer has committed its effect or parked the event), so the relay
 * marks rows sent only after that. Order per aggregate is the order of the batch.
 */
export interface EventTransport {
  readonly kind: 'embedded' | 'kafka';
  publish(batch: EventEnvelope[]): Promise<void>;
  /**
   * Optional, same contract as publish(): envelopes the database already serialised (the relay then
   * skips parsing rows into objects and serialising them again). A transport that only forwards
   * bytes (Kafka) implements it; the relay falls back to publish() otherwise.
   */
  publishSerialized?(batch: SerializedEvent[]): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** A committed event as JSON text (the envelope, exactly as publish() would serialise it) with its routing fields. */
export interface SerializedEvent {
  aggregateType: string;
  aggregateId: string;
  json: string;
}

/** Receives every committed event (live fan-out to GraphQL subscriptions). Best effort, never blocks delivery. */
export type LiveListener = (batch: EventEnvelope[]) => void;

/** Where a consumer parks an event it gave up on: a table (embedded) or a topic (Kafka). */
export interface DeadLetterSink {
  park(entry: DeadLetter): Promise<void>;
}

export interface DeadLetter {
  consumer: string;
  /** The envelope as received (may be invalid: that can be the reason it is parked). */
  envelope: EventEnvelope | Record<string, unknown>;
  eventId: string;
  eventType: string;
  error: string;
  attempts: number;
}
