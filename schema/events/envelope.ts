import { z } from 'zod';

/** The envelope every domain event travels in (outbox row, Kafka message, in-process delivery). */
export const envelopeSchema = z.object({
  id: z.string().uuid(),
  type: z.string().min(1),
  aggregateType: z.string().min(1),
  aggregateId: z.string().min(1),
  occurredAt: z.string().datetime(),
  actorId: z.number().int().nullable(),
  payload: z.record(z.string(), z.unknown()),
  version: z.number().int().min(1),
  /**
   * The id of the transaction that recorded the event (PostgreSQL xid8, decimal), set by the relay:
   * the event's place in the stream, which a query's snapshot can be compared with (live screens).
   * Absent on the writer's own early copy (before its commit) and on events of older producers.
   */
  position: z.string().regex(/^\d+$/).optional(),
});

export type EventEnvelope<P = Record<string, unknown>> = Omit<z.infer<typeof envelopeSchema>, 'payload'> & {
  payload: P;
};

export interface EventContract<T extends string, P extends z.ZodTypeAny> {
  type: T;
  version: number;
  aggregateType: string;
  payload: P;
}

export function defineEvent<T extends string, P extends z.ZodTypeAny>(
  type: T,
  aggregateType: string,
  version: number,
  payload: P,
): EventContract<T, P> {
  return { type, aggregateType, version, payload };
}
