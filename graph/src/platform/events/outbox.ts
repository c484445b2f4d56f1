import type { EntityManager } from '@mikro-orm/postgresql';
import { contractOf, type EventEnvelope, type EventType, type PayloadOf } from '@intranet/schema/events';
import { newEventId } from './event-id.js';
import { OutboxEvent } from './outbox.entity.js';

export interface RecordInput<T extends EventType> {
  type: T;
  aggregateId: string | number;
  actorId: number | null;
  payload: PayloadOf<T>;
  /**
   * An id from newEventId() taken beforehand, for rows written before the event that must name it
   * (an import chunk's history rows). Default: a new one.
   */
  id?: string;
}

/**
 * Records a domain event in the outbox. Call it with the transactional EntityManager of the
 * change it describes: the event commits with the change or not at all. The payload is validated
 * against its contract here, so an invalid event is never published.
 */
export function record<T extends EventType>(em: EntityManager, input: RecordInput<T>): EventEnvelope<PayloadOf<T>> {
  const contract = contractOf(input.type);
  if (!contract) throw new Error(`Unknown event type ${input.type}`);
  const payload = contract.payload.parse(input.payload) as PayloadOf<T>;
  const row = em.create(OutboxEvent, {
    id: input.id ?? newEventId(),
    type: input.type,
    aggregateType: contract.aggregateType,
    aggregateId: String(input.aggregateId),
    occurredAt: new Date(),
    actorId: input.actorId,
    payload: payload as Record<string, unknown>,
    version: contract.version,
  } as OutboxEvent);
  em.persist(row);
  return toEnvelope(row) as EventEnvelope<PayloadOf<T>>;
}

export function toEnvelope(
  row: Pick<
    OutboxEvent,
    'id' | 'type' | 'aggregateType' | 'aggregateId' | 'occurredAt' | 'actorId' | 'payload' | 'version'
  >,
): EventEnvelope {
  return {
    id: row.id,
    type: row.type,
    aggregateType: row.aggregateType,
    aggregateId: row.aggregateId,
    occurredAt: new Date(row.occurredAt).toISOString(),
    actorId: row.actorId ?? null,
    payload: row.payload,
    version: row.version,
  };
}
