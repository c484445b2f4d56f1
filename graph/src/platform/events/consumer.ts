import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { EventEnvelope } from '@intranet/schema/events';
import { InvalidEventError, parseEvent } from '@intranet/schema/events/validate';
import type { EventMetrics } from './metrics.js';
import { execBound, pgArray } from '../sql.js';
import type { DeadLetterSink } from './transport.js';
import { aggregateKey, type Deferred, type RetryOutcome, type RetryQueue } from './retry-queue.js';

/**
 * Base of every consumer (workers' google-sync, statistics, import, the probe, tests). A consumer
 * declares the event types it handles and applies its effect inside the transaction it is given;
 * the runner records (consumer, event id) in that same transaction, so a redelivered event is
 * skipped and an effect is never applied twice. The same class runs in-process (embedded) and in
 * a Kafka consumer group.
 */
export abstract class EventConsumer {
  /** Stable name: the idempotency key, the Kafka consumer group suffix, the --only name. */
  abstract readonly name: string;
  /** Event types this consumer handles; others pass by without a transaction. */
  abstract readonly handles: readonly string[];

  /** Applies the effect of one event inside `tx` (throw to fail the attempt). */
  abstract handle(event: EventEnvelope, tx: EntityManager): Promise<void>;

  /** Applies a batch (already deduplicated, in order). Override to batch the SQL. */
  async handleBatch(events: EventEnvelope[], tx: EntityManager): Promise<void> {
    for (const e of events) await this.handle(e, tx);
  }
}

export interface RetryPolicy {
  maxAttempts: number;
  baseMs: number;
  maxMs: number;
}

export class AbortedError extends Error {
  constructor() {
    super('consumer stopping');
    this.name = 'AbortedError';
  }
}

/** Exponential backoff with ±20% jitter: base, 2·base, 4·base, … capped at maxMs. */
export function backoffMs(attempt: number, policy: RetryPolicy): number {
  const raw = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(raw * (0.8 + Math.random() * 0.4));
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortedError());
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new AbortedError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A plain insert into event_consumed met an id already there: the batch goes again with ON CONFLICT. */
class AlreadyConsumed extends Error {
  constructor() {
    super('event already consumed');
    this.name = 'AlreadyConsumed';
  }
}

/** After a duplicate, how many batches take the ON CONFLICT path before a plain insert is tried again. */
const CONFLICT_PATH_BATCHES = 16;

/** An event that waits behind an earlier one of its aggregate: no attempt yet, due as soon as it is first. */
const queuedBehind = (event: EventEnvelope): Deferred => ({ event, attempts: 0, error: null, dueInMs: 0 });

function describe(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}

/**
 * Runs one consumer over batches of events: validation, idempotency, retries with backoff,
 * dead-lettering. `process` resolves when every event of the batch has either had its effect
 * committed (now or before) or been parked; only then may the caller commit the batch (Kafka
 * offsets, the outbox claim). It rejects with AbortedError when stopped mid-retry: nothing is
 * committed for the unfinished events, so they are delivered again.
 */
export class ConsumerRunner {
  private readonly types: Set<string>;

  constructor(
    readonly consumer: EventConsumer,
    private readonly orm: MikroORM,
    private readonly deadLetters: DeadLetterSink,
    private readonly policy: RetryPolicy,
    private readonly metrics: EventMetrics,
    private readonly log: Logger,
  ) {
    this.types = new Set(consumer.handles);
    metrics.registerConsumer(consumer.name);
  }

  get name(): string {
    return this.consumer.name;
  }

  wants(type: string): boolean {
    return this.types.has(type);
  }

  /**
   * Processes a batch in order (raw envelopes from the wire or the outbox). Without `retries`
   * (Kafka, where only this consumer's partition waits) a failing event is retried in line; with
   * them (embedded) it is handed to the retry queue after its first failure, with every later
   * event of its aggregate, and the call returns once that is committed.
   */
  async process(
    raw: (EventEnvelope | Record<string, unknown>)[],
    signal?: AbortSignal,
    retries?: RetryQueue,
  ): Promise<void> {
    const events: EventEnvelope[] = [];
    for (const r of raw) {
      const type = String((r as { type?: unknown }).type ?? '');
      if (!this.wants(type)) continue;
      try {
        events.push(parseEvent(r));
      } catch (err) {
        // A contract violation never gets better with retries: park it at once.
        if (!(err instanceof InvalidEventError)) throw err;
        await this.park(r, err.message, 1);
      }
    }
    if (events.length === 0) return;
    if (signal?.aborted) throw new AbortedError();
    const end = this.metrics.handleSeconds.startTimer({ consumer: this.name });
    // Aggregates with an event already waiting in the retry queue: their events queue behind it.
    const waiting = retries ? await retries.waiting(this.name, events.map(aggregateKey)) : new Set<string>();
    const ready = waiting.size ? events.filter((e) => !waiting.has(aggregateKey(e))) : events;
    if (ready.length > 1) {
      try {
        await this.attempt(ready);
        if (ready.length < events.length)
          await retries!.defer(this.name, events.filter((e) => waiting.has(aggregateKey(e))).map(queuedBehind));
        end();
        return;
      } catch (err) {
        this.log.warn(
          { consumer: this.name, err: describe(err), size: ready.length },
          'batch failed; retrying event by event',
        );
      }
    }
    if (!retries) {
      for (const e of events) await this.processOne(e, signal);
      end();
      return;
    }
    const deferred: Deferred[] = [];
    for (const e of events) {
      const key = aggregateKey(e);
      if (waiting.has(key)) {
        deferred.push(queuedBehind(e));
        continue;
      }
      try {
        await this.attempt([e]);
      } catch (err) {
        this.metrics.failures.inc({ consumer: this.name });
        if (this.policy.maxAttempts <= 1) {
          await this.giveUp(e, err, 1);
          continue;
        }
        this.metrics.retries.inc({ consumer: this.name });
        deferred.push({ event: e, attempts: 1, error: describe(err), dueInMs: backoffMs(1, this.policy) });
        waiting.add(key);
      }
    }
    await retries.defer(this.name, deferred);
    end();
  }

  /**
   * One more try of an event waiting in the retry queue (its `attempt`-th): 'done' when its effect
   * is committed (now or before), 'parked' after the last attempt, else the error and the backoff
   * before the next try.
   */
  async retryOnce(raw: EventEnvelope | Record<string, unknown>, attempt: number): Promise<RetryOutcome> {
    let event: EventEnvelope;
    try {
      event = parseEvent(raw);
    } catch (err) {
      // Its contract changed while it waited (an upgrade): it will not get better.
      if (!(err instanceof InvalidEventError)) throw err;
      await this.park(raw, err.message, attempt);
      return { outcome: 'parked' };
    }
    try {
      await this.attempt([event]);
      return { outcome: 'done' };
    } catch (err) {
      this.metrics.failures.inc({ consumer: this.name });
      if (attempt >= this.policy.maxAttempts) {
        await this.giveUp(event, err, attempt);
        return { outcome: 'parked' };
      }
      this.metrics.retries.inc({ consumer: this.name });
      return { outcome: 'again', error: describe(err), waitMs: backoffMs(attempt, this.policy) };
    }
  }

  /** One event with retries; parks it after the last failed attempt. */
  async processOne(event: EventEnvelope, signal?: AbortSignal): Promise<'done' | 'parked'> {
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw new AbortedError();
      try {
        await this.attempt([event]);
        return 'done';
      } catch (err) {
        this.metrics.failures.inc({ consumer: this.name });
        if (attempt >= this.policy.maxAttempts) {
          await this.giveUp(event, err, attempt);
          return 'parked';
        }
        this.metrics.retries.inc({ consumer: this.name });
        await sleep(backoffMs(attempt, this.policy), signal);
      }
    }
  }

  /**
   * Batches left to mark consumed with ON CONFLICT DO NOTHING after a plain insert met an id
   * already consumed (a redelivery tends to come in runs: a rebalance, a relay round retried).
   */
  private conflictPathLeft = 0;

  /** One transaction: mark the new events consumed, apply their effect, commit; then count them. */
  private async attempt(events: EventEnvelope[]): Promise<void> {
    let applied: number | undefined;
    if (this.conflictPathLeft > 0) {
      this.conflictPathLeft--;
    } else {
      try {
        applied = await this.attemptFresh(events);
      } catch (err) {
        if (!(err instanceof AlreadyConsumed)) throw err;
        this.conflictPathLeft = CONFLICT_PATH_BATCHES;
      }
    }
    applied ??= await this.attemptSkippingConsumed(events);
    this.metrics.processed.inc({ consumer: this.name }, applied);
    if (events.length > applied) this.metrics.duplicates.inc({ consumer: this.name }, events.length - applied);
  }

  /**
   * The common case, every event new: a plain INSERT of the batch's distinct ids. PostgreSQL's
   * speculative insertion (ON CONFLICT) costs a pre-check of the key and a confirmation per row;
   * the primary key alone rejects an id already consumed (or committed meanwhile by a racing
   * transaction, after waiting for it, as ON CONFLICT would), and then the whole transaction is
   * rolled back before any effect and the batch goes again through attemptSkippingConsumed.
   */
  private async attemptFresh(events: EventEnvelope[]): Promise<number> {
    // Each id once: a batch may carry the same event twice (a producer retry or a relay round
    // that failed after publishing lands a second copy next to the first).
    const seen = new Set<string>();
    const todo: EventEnvelope[] = [];
    for (const e of events) {
      if (seen.has(e.id)) continue;
      seen.add(e.id);
      todo.push(e);
    }
    await this.orm.em.fork().transactional(async (tx) => {
      try {
        await execBound(tx, `insert into event_consumed (consumer, event_id) select ?, unnest(?::uuid[])`, [
          this.name,
          pgArray([...seen]),
        ]);
      } catch (err) {
        const e = err as { code?: string; table?: string };
        if (e.code === '23505' && e.table === 'event_consumed') throw new AlreadyConsumed();
        throw err;
      }
      await this.consumer.handleBatch(todo, tx);
    });
    return todo.length;
  }

  /** Some events may have been consumed already: insert with ON CONFLICT DO NOTHING, apply the fresh ones. Returns how many. */
  private async attemptSkippingConsumed(events: EventEnvelope[]): Promise<number> {
    let applied = 0;
    await this.orm.em.fork().transactional(async (tx) => {
      const rows = await execBound<{ event_id: string }>(
        tx,
        `insert into event_consumed (consumer, event_id) select ?, unnest(?::uuid[]) on conflict do nothing returning event_id`,
        [this.name, pgArray(events.map((e) => e.id))],
      );
      // Fresh ids, each once (a batch may carry the same event twice).
      const fresh = new Set(rows.map((r) => r.event_id));
      const todo = events.filter((e) => fresh.delete(e.id));
      applied = todo.length;
      if (todo.length) await this.consumer.handleBatch(todo, tx);
    });
    return applied;
  }

  /** After the last attempt: logged and parked with its error. */
  private async giveUp(event: EventEnvelope, err: unknown, attempts: number): Promise<void> {
    this.log.error(
      { consumer: this.name, eventId: event.id, type: event.type, attempts, err: describe(err) },
      'event dead-lettered',
    );
    await this.park(event, describe(err), attempts);
  }

  private async park(
    envelope: EventEnvelope | Record<string, unknown>,
    error: string,
    attempts: number,
  ): Promise<void> {
    const e = envelope as Record<string, unknown>;
    await this.deadLetters.park({
      consumer: this.name,
      envelope,
      eventId: String(e.id ?? ''),
      eventType: String(e.type ?? ''),
      error,
      attempts,
    });
    this.metrics.deadLettered.inc({ consumer: this.name });
  }
}
