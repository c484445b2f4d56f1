/**
 * Test helpers of the event backbone (used by its embedded and Kafka suites, the fault tests and
 * the benchmark): a probe consumer whose effect is a row in event_probe_effect, and writers that
 * record probe events through the real outbox in service-like transactions.
 */
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { EventEnvelope } from '../../../../schema/events/index.js';
import { record } from '../outbox.js';
import { EventConsumer } from './consumer.js';

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
    await tx.execute(
      `insert into event_probe_effect (consumer, event_id, aggregate_id, seq, latency_ms)
       select ?, x.id, x.agg, x.seq, x.lat from unnest(?::uuid[], ?::text[], ?::int[], ?::float8[]) as x(id, agg, seq, lat)`,
      [
        this.name,
        `{${events.map((e) => e.id).join(',')}}`,
        `{${events.map((e) => `"${e.aggregateId}"`).join(',')}}`,
        `{${events.map((e) => (e.payload as { seq: number }).seq).join(',')}}`,
        `{${events.map((e) => {
          const sent = (e.payload as { sentAtMs?: number }).sentAtMs;
          return sent === undefined ? 'NULL' : String(now - sent);
        }).join(',')}}`,
      ],
    );
  }
}

/**
 * Records `total` probe events over `aggregates` aggregates in transactions of `perTx` events,
 * like a service would. With `concurrency` writers, each writer owns its own aggregates (services
 * serialise writes to one aggregate on its row). Returns the committed event ids.
 */
export async function writeProbes(
  orm: MikroORM,
  opts: { total: number; aggregates: number; perTx?: number; prefix?: string; poisonEvery?: number; stamp?: boolean; concurrency?: number },
): Promise<string[]> {
  const perTx = opts.perTx ?? 100;
  const prefix = opts.prefix ?? 'agg';
  const writers = Math.max(1, opts.concurrency ?? 1);
  const ids: string[] = [];
  const writer = async (w: number) => {
    const mine = Math.floor(opts.total / writers) + (w < opts.total % writers ? 1 : 0);
    const aggs = Math.max(1, Math.floor(opts.aggregates / writers));
    const seqs = new Array<number>(aggs).fill(0);
    for (let done = 0; done < mine; ) {
      const n = Math.min(perTx, mine - done);
      const start = done;
      await orm.em.fork().transactional(async (tx) => {
        for (let k = 0; k < n; k++) {
          const i = start + k;
          const a = i % aggs;
          const env = record(tx, {
            type: 'platform.probe',
            aggregateId: `${prefix}-${w}-${a}`,
            actorId: null,
            payload: {
              seq: seqs[a]!++,
              ...(opts.stamp ? { sentAtMs: Date.now() } : {}),
              ...(opts.poisonEvery && (i + 1) % opts.poisonEvery === 0 ? { poison: true } : {}),
            },
          });
          ids.push(env.id);
        }
      });
      done += n;
    }
  };
  await Promise.all(Array.from({ length: writers }, (_, w) => writer(w)));
  return ids;
}

export interface EffectReport {
  total: number;
  distinct: number;
  duplicates: number;
  orderViolations: number;
}

/** Counts effects of one consumer: duplicates and per-aggregate order (seq must rise with effect id). */
export async function effectReport(orm: MikroORM, consumer = 'probe'): Promise<EffectReport> {
  const em = orm.em.fork();
  const [c] = await em.execute(`select count(*)::int as total, count(distinct event_id)::int as distinct from event_probe_effect where consumer = ?`, [consumer]);
  const [o] = await em.execute(
    `select count(*)::int as n from (
       select seq, lag(seq) over (partition by aggregate_id order by id) as prev from event_probe_effect where consumer = ?
     ) x where prev is not null and seq <= prev`,
    [consumer],
  );
  return { total: c.total, distinct: c.distinct, duplicates: c.total - c.distinct, orderViolations: o.n };
}

export async function waitFor<T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 30_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms; last value ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
