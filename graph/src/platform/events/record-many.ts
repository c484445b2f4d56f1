import type { EntityManager } from '@mikro-orm/postgresql';
import { contractOf, type EventEnvelope, type PayloadOf, type EventType } from '@intranet/schema/events';
import type { RecordInput } from './outbox.js';
import { execBound } from '../sql.js';
import { newEventId } from './event-id.js';

/**
 * Records many domain events in the outbox with one INSERT, in the caller's transaction (bulk
 * services: imports, syncs, the benchmark). Same contract validation as record(): one invalid
 * event fails the whole call before anything is written. Order of the array = outbox order.
 */
export async function recordMany<T extends EventType>(
  em: EntityManager,
  inputs: RecordInput<T>[],
): Promise<EventEnvelope<PayloadOf<T>>[]> {
  const now = new Date().toISOString();
  const envs = inputs.map((input) => {
    const contract = contractOf(input.type);
    if (!contract) throw new Error(`Unknown event type ${input.type}`);
    const payload = contract.payload.parse(input.payload) as PayloadOf<T>;
    return {
      id: input.id ?? newEventId(),
      type: input.type,
      aggregateType: contract.aggregateType,
      aggregateId: String(input.aggregateId),
      occurredAt: now,
      actorId: input.actorId,
      payload,
      version: contract.version,
    } as EventEnvelope<PayloadOf<T>>;
  });
  if (envs.length === 0) return envs;
  // One JSON array of row arrays (id, type, aggregateType, aggregateId, actorId, payload, version),
  // read as jsonb (parsed once, each field taken by position, each payload as it is), WITH
  // ORDINALITY keeping the array order (= outbox order); the events' shared occurredAt is sent once.
  // PostgreSQL CPU of this insert, 1,000 events per statement, interleaved (2026-11-26): 3.8-3.9 µs
  // per event, against 5.5-5.8 with the envelopes as objects through jsonb_to_recordset (which
  // copies and looks up every key of every record) and 7.3-7.6 with json arrays (each `->` re-reads
  // the row's text); the writer's JSON is as fast (0.5-0.7 µs). Typed arrays (unnest of uuid[],
  // text[], …) cost the writer ~2 µs more in pg's array escaping.
  await execBound(
    em,
    `insert into outbox_event (id, type, aggregate_type, aggregate_id, occurred_at, actor_id, payload, version)
     select (r->>0)::uuid, r->>1, r->>2, r->>3, ?::timestamptz, (r->>4)::int, r->5, (r->>6)::int
       from jsonb_array_elements(?::jsonb) with ordinality as x(r, ord)
      order by x.ord`,
    [
      now,
      JSON.stringify(envs.map((e) => [e.id, e.type, e.aggregateType, e.aggregateId, e.actorId, e.payload, e.version])),
    ],
  );
  return envs;
}
