/**
 * Test helpers of the event backbone (used by its embedded and Kafka suites, the fault tests and
 * the benchmark): a probe consumer whose effect is a row in event_probe_effect, and writers that
 * record probe events through the real outbox in service-like transactions.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import { record } from './outbox.js';
import { recordMany } from './record-many.js';

export { ProbeConsumer } from './probe.js';

class RollbackProbe extends Error {}

/**
 * Records `total` probe events over `aggregates` aggregates in transactions of `perTx` events,
 * like a service would. With `concurrency` writers, each writer owns its own aggregates (services
 * serialise writes to one aggregate on its row). Returns the committed event ids.
 */
export async function writeProbes(
  orm: MikroORM,
  opts: {
    total: number;
    aggregates: number;
    perTx?: number;
    prefix?: string;
    poisonEvery?: number;
    stamp?: boolean;
    concurrency?: number;
    /** Every n-th transaction records its events and then rolls back; their ids go to `rolledBack`. */
    rollbackEvery?: number;
    rolledBack?: string[];
    /** One INSERT per transaction (recordMany) instead of record() per event. */
    bulk?: boolean;
    /** Called after each committed transaction with the number committed so far. */
    onCommit?: (committed: number) => void | Promise<void>;
  },
): Promise<string[]> {
  const perTx = opts.perTx ?? 100;
  const prefix = opts.prefix ?? 'agg';
  const writers = Math.max(1, opts.concurrency ?? 1);
  const ids: string[] = [];
  const writer = async (w: number) => {
    const mine = Math.floor(opts.total / writers) + (w < opts.total % writers ? 1 : 0);
    const aggs = Math.max(1, Math.floor(opts.aggregates / writers));
    const seqs = new Array<number>(aggs).fill(0);
    for (let done = 0, txNo = 0; done < mine; txNo++) {
      const n = Math.min(perTx, mine - done);
      const start = done;
      const rollback = opts.rollbackEvery !== undefined && txNo % opts.rollbackEvery === opts.rollbackEvery - 1;
      const pending: string[] = [];
      const work = orm.em.fork().transactional(async (tx) => {
        const inputs = [];
        for (let k = 0; k < n; k++) {
          const i = start + k;
          const a = i % aggs;
          inputs.push({
            type: 'platform.probe' as const,
            aggregateId: `${prefix}-${w}-${a}`,
            actorId: null,
            payload: {
              seq: seqs[a]!++,
              ...(opts.stamp ? { sentAtMs: Date.now() } : {}),
              ...(opts.poisonEvery && (i + 1) % opts.poisonEvery === 0 ? { poison: true } : {}),
            },
          });
        }
        if (opts.bulk) for (const env of await recordMany(tx, inputs)) pending.push(env.id);
        else for (const input of inputs) pending.push(record(tx, input).id);
        if (rollback) {
          await tx.flush();
          throw new RollbackProbe();
        }
      });
      try {
        await work;
        ids.push(...pending);
        done += n;
        await opts.onCommit?.(ids.length);
      } catch (err) {
        if (!(err instanceof RollbackProbe)) throw err;
        opts.rolledBack?.push(...pending);
      }
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
  const [c] = await em.execute(
    `select count(*)::int as total, count(distinct event_id)::int as distinct from event_probe_effect where consumer = ?`,
    [consumer],
  );
  const [o] = await em.execute(
    `select count(*)::int as n from (
       select seq, lag(seq) over (partition by aggregate_id order by id) as prev from event_probe_effect where consumer = ?
     ) x where prev is not null and seq <= prev`,
    [consumer],
  );
  return { total: c.total, distinct: c.distinct, duplicates: c.total - c.distinct, orderViolations: o.n };
}

export async function waitFor<T>(
  fn: () => Promise<T>,
  ok: (v: T) => boolean,
  timeoutMs = 30_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms; last value ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
