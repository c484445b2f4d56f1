import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { EventEnvelope } from '@intranet/schema/events';
import { execBound } from '../sql.js';
import type { ConsumerRunner } from './consumer.js';

/** The unit of order: a consumer sees one aggregate's events in the order they were recorded. */
export const aggregateKey = (e: { aggregateType: string; aggregateId: string }): string =>
  `${e.aggregateType}:${e.aggregateId}`;

/** An event handed to the retry queue: how many attempts it has had, why the last failed, when to try again. */
export interface Deferred {
  event: EventEnvelope;
  attempts: number;
  error: string | null;
  /** From now; 0 for an event queued only behind an earlier one of its aggregate. */
  dueInMs: number;
}

/** What one more try of a waiting event came to (ConsumerRunner.retryOnce). */
export type RetryOutcome = { outcome: 'done' | 'parked' } | { outcome: 'again'; error: string; waitMs: number };

/** How long the queue sleeps at most between looks at the table (rows left by a crash or another process). */
const POLL_MS = 5_000;
/** Never look again sooner than this after a pass that found nothing to do (a head locked by another process). */
const MIN_SLEEP_MS = 50;
/** Rows one pass takes (each is one effect transaction). */
const PASS_ROWS = 100;

/** The first waiting event of every (consumer, aggregate) of `consumers` (`?` = their names as a JSON array). */
const HEADS = `select distinct on (consumer, aggregate) id from event_retry
  where consumer in (select jsonb_array_elements_text(?::jsonb)) order by consumer, aggregate, id`;

/**
 * The embedded transport's retry queue (table `event_retry`). A consumer that fails on an event
 * does not retry it in line while the relay holds its claim, which made one failing event delay
 * every other consumer and the live updates of every later event by its whole backoff. The event
 * is written here instead, committed before the relay commits the claim (a crash in between
 * delivers it again; the unique key and the consumer's idempotency keep it once), and publish()
 * goes on. Order per aggregate holds as with Kafka: while an aggregate has an event waiting here,
 * that consumer's later events of the aggregate are queued behind it, and a pass only ever tries
 * the first waiting event of an aggregate. A pass retries the due ones with the consumer's backoff
 * and, after the last attempt, parks the event in event_dead_letter; the next event of its
 * aggregate then goes on, as the rest of a Kafka partition does after a dead-letter.
 */
export class RetryQueue {
  private readonly runners = new Map<string, ConsumerRunner>();
  private stopped = true;
  private loop?: Promise<void>;
  private sleeper?: { timer: NodeJS.Timeout; at: number; resolve: () => void };

  constructor(
    private readonly orm: MikroORM,
    private readonly log: Logger,
    private readonly pollMs = POLL_MS,
  ) {}

  add(runner: ConsumerRunner): void {
    this.runners.set(runner.name, runner);
  }

  private names(): string {
    return JSON.stringify([...this.runners.keys()]);
  }

  /** The aggregates among `keys` with an event of `consumer` waiting here: its later events of them queue behind. */
  async waiting(consumer: string, keys: string[]): Promise<Set<string>> {
    const rows = await execBound<{ aggregate: string }>(
      this.orm.em.fork(),
      `select distinct aggregate from event_retry where consumer = ? and aggregate in (select jsonb_array_elements_text(?::jsonb))`,
      [consumer, JSON.stringify([...new Set(keys)])],
    );
    return new Set(rows.map((r) => r.aggregate));
  }

  /** Queues events of `consumer`, in the order given (an event already waiting stays as it is). */
  async defer(consumer: string, items: Deferred[]): Promise<void> {
    if (items.length === 0) return;
    await execBound(
      this.orm.em.fork(),
      `insert into event_retry (consumer, event_id, aggregate, envelope, attempts, last_error, due_at)
       select ?, (j->>'id')::uuid, j->>'aggregate', j->'envelope', (j->>'attempts')::int, j->>'error',
              now() + make_interval(secs => (j->>'dueInMs')::float8 / 1000)
         from jsonb_array_elements(?::jsonb) with ordinality as t(j, ord)
        order by ord
       on conflict (consumer, event_id) do nothing`,
      [
        consumer,
        JSON.stringify(
          items.map((d) => ({
            id: d.event.id,
            aggregate: aggregateKey(d.event),
            envelope: d.event,
            attempts: d.attempts,
            error: d.error,
            dueInMs: d.dueInMs,
          })),
        ),
      ],
    );
    this.wake(Math.min(...items.map((d) => d.dueInMs)));
  }

  /**
   * One pass: takes the due first events of each aggregate (rows locked, so two processes never
   * try the same one), tries each once through its consumer, and in the same transaction deletes
   * the done and the parked ones and reschedules the others. Returns how many rows it took.
   */
  async pass(): Promise<number> {
    if (this.runners.size === 0) return 0;
    let taken = 0;
    await this.orm.em.fork().transactional(async (tx) => {
      const rows = await execBound<{
        id: string;
        consumer: string;
        envelope: Record<string, unknown>;
        attempts: number;
      }>(
        tx,
        `select id, consumer, envelope, attempts from event_retry
          where id in (${HEADS}) and due_at <= now()
          order by due_at, id limit ${PASS_ROWS}
          for update skip locked`,
        [this.names()],
      );
      taken = rows.length;
      const done: string[] = [];
      const again: { id: string; error: string; waitMs: number }[] = [];
      for (const row of rows) {
        // Stopping: what was not tried yet stays as it is (a slow consumer, say Google in an outage,
        // must not hold a shutdown for a whole pass).
        if (this.stopped) break;
        const r = await this.runners.get(row.consumer)!.retryOnce(row.envelope, row.attempts + 1);
        if (r.outcome === 'again') again.push({ id: row.id, error: r.error, waitMs: r.waitMs });
        else done.push(row.id);
      }
      if (done.length)
        await execBound(
          tx,
          `delete from event_retry where id in (select jsonb_array_elements_text(?::jsonb)::bigint)`,
          [JSON.stringify(done)],
        );
      if (again.length) {
        await execBound(
          tx,
          `update event_retry r set attempts = r.attempts + 1, last_error = j->>'error',
                  due_at = now() + make_interval(secs => (j->>'waitMs')::float8 / 1000)
             from jsonb_array_elements(?::jsonb) j where r.id = (j->>'id')::bigint`,
          [JSON.stringify(again)],
        );
      }
    });
    return taken;
  }

  /** Milliseconds until the first waiting event is due (0: now), or null when none waits. */
  async nextDueInMs(): Promise<number | null> {
    // Not greatest(0, …) in SQL: it skips nulls, so an empty queue would read as due now.
    const [row] = await execBound<{ ms: number | null }>(
      this.orm.em.fork(),
      `select (extract(epoch from min(due_at) - now()) * 1000)::float8 as ms from event_retry where id in (${HEADS})`,
      [this.names()],
    );
    return row?.ms == null ? null : Math.max(0, row.ms);
  }

  /** Events waiting per consumer (metrics, `workers status`). */
  async counts(): Promise<Record<string, number>> {
    const rows = await execBound<{ consumer: string; n: number }>(
      this.orm.em.fork(),
      `select consumer, count(*)::int as n from event_retry group by consumer`,
      [],
    );
    return Object.fromEntries(rows.map((r) => [r.consumer, r.n]));
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.loop = this.run();
  }

  /** Lets the try in flight finish (one committed or rolled-back transaction), records the pass so far, then stops. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake(0);
    await this.loop;
    this.loop = undefined;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      let taken = 0;
      try {
        taken = await this.pass();
      } catch (err) {
        this.log.warn({ err }, 'event retry pass failed; trying again');
      }
      if (taken > 0 || this.stopped) continue;
      const next = await this.nextDueInMs().catch(() => null);
      await this.sleep(Math.max(MIN_SLEEP_MS, Math.min(next ?? this.pollMs, this.pollMs)));
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.stopped) return resolve();
      const timer = setTimeout(() => {
        this.sleeper = undefined;
        resolve();
      }, ms);
      this.sleeper = { timer, at: Date.now() + ms, resolve };
    });
  }

  /** Brings the next look forward to `inMs` from now when the queue sleeps longer than that. */
  private wake(inMs: number): void {
    const s = this.sleeper;
    if (!s || s.at <= Date.now() + inMs) return;
    clearTimeout(s.timer);
    this.sleeper = undefined;
    if (inMs <= 0) s.resolve();
    else void this.sleep(inMs).then(s.resolve);
  }
}
