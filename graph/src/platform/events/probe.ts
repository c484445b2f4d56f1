import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventEnvelope } from '@intranet/schema/events';
import { EventConsumer } from './consumer.js';
import { execBound } from '../sql.js';

/**
 * The platform's probe consumer: its effect is one row per `platform.probe` event in
 * event_probe_effect (with the end-to-end latency when the probe carries its send time).
 * Benchmarks, fault tests and operators use it to check the whole outbox → transport → consumer
 * path. Tests can make it fail (`failures`, poison probes) to exercise retries and dead letters.
 */
export class ProbeConsumer extends EventConsumer {
  readonly handles = ['platform.probe'] as const;
  /** Event ids that fail this many more times (then succeed); Infinity = always. */
  readonly failures = new Map<string, number>();
  /** When true, probes with `poison: true` always fail. */
  poisonFails = true;

  constructor(readonly name = 'probe') {
    super();
  }

  async handle(event: EventEnvelope, tx: EntityManager): Promise<void> {
    return this.handleBatch([event], tx);
  }

  override async handleBatch(events: EventEnvelope[], tx: EntityManager): Promise<void> {
    for (const e of events) {
      if (this.poisonFails && (e.payload as { poison?: boolean }).poison) throw new Error(`poison event ${e.id}`);
      const left = this.failures.get(e.id);
      if (left !== undefined && left > 0) {
        this.failures.set(e.id, left - 1);
        throw new Error(`induced failure of ${e.id}`);
      }
    }
    const now = Date.now();
    await execBound(
      tx,
      `insert into event_probe_effect (consumer, event_id, aggregate_id, seq, latency_ms)
       select ?, x.id, x.agg, x.seq, x.lat from unnest(?::uuid[], ?::text[], ?::int[], ?::float8[]) as x(id, agg, seq, lat)`,
      [
        this.name,
        `{${events.map((e) => e.id).join(',')}}`,
        `{${events.map((e) => `"${e.aggregateId}"`).join(',')}}`,
        `{${events.map((e) => (e.payload as { seq: number }).seq).join(',')}}`,
        `{${events
          .map((e) => {
            const sent = (e.payload as { sentAtMs?: number }).sentAtMs;
            return sent === undefined ? 'NULL' : String(now - sent);
          })
          .join(',')}}`,
      ],
    );
  }
}
