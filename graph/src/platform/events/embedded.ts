import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { EventEnvelope } from '@intranet/schema/events';
import { parseEvent } from '@intranet/schema/events/validate';
import { AbortedError, type ConsumerRunner } from './consumer.js';
import type { DeadLetter, DeadLetterSink, EventTransport, LiveListener } from './transport.js';
import type { RetryQueue } from './retry-queue.js';

const NIL_UUID = '00000000-0000-0000-0000-000000000000';
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Dead letters of the embedded transport: the event_dead_letter table. */
export class TableDeadLetters implements DeadLetterSink {
  constructor(private readonly orm: MikroORM) {}

  async park(d: DeadLetter): Promise<void> {
    await this.orm.em.fork().execute(
      `insert into event_dead_letter (consumer, event_id, event_type, envelope, error, attempts)
       values (?, ?, ?, ?::jsonb, ?, ?)
       on conflict (consumer, event_id) do update
         set error = excluded.error, attempts = event_dead_letter.attempts + excluded.attempts,
             envelope = excluded.envelope, parked_at = now(), replayed_at = null`,
      [
        d.consumer,
        UUID_RE.test(d.eventId) ? d.eventId : NIL_UUID,
        d.eventType.slice(0, 100),
        JSON.stringify(d.envelope),
        d.error,
        d.attempts,
      ],
    );
  }
}

function lane(aggregateId: string, lanes: number): number {
  let h = 0;
  for (let i = 0; i < aggregateId.length; i++) h = (h * 31 + aggregateId.charCodeAt(i)) | 0;
  return Math.abs(h) % lanes;
}

/** Splits a batch into `lanes` sub-batches by aggregate, keeping each aggregate's order. */
export function splitByAggregate<T extends { aggregateType: string; aggregateId: string }>(
  batch: T[],
  lanes: number,
): T[][] {
  if (lanes <= 1) return [batch];
  const out: T[][] = Array.from({ length: lanes }, () => []);
  for (const e of batch) out[lane(`${e.aggregateType}:${e.aggregateId}`, lanes)]!.push(e);
  return out.filter((l) => l.length > 0);
}

/**
 * The default transport: the relay's batch is delivered in-process to the live listeners and to
 * every registered consumer, with the same runner (idempotency, retries, dead-letter table) that
 * the Kafka consumers use. publish() resolves after every consumer has committed, parked or (with
 * a retry queue) queued for a later try each event, so the relay marks rows sent only then: a
 * crash in between redelivers, never drops. With the retry queue (as the backbone wires it), an
 * event that fails waits there and holds up nothing but the later events of its own aggregate for
 * that consumer; without one, it is retried in line and the whole claim waits for it.
 */
export class EmbeddedTransport implements EventTransport {
  readonly kind = 'embedded' as const;
  private readonly runners: ConsumerRunner[] = [];
  private readonly live: LiveListener[] = [];
  private abort = new AbortController();

  constructor(
    private readonly log: Logger,
    private readonly opts: { concurrency: number; retries?: RetryQueue } = { concurrency: 1 },
  ) {}

  onLive(listener: LiveListener): void {
    this.live.push(listener);
  }

  addConsumer(runner: ConsumerRunner): void {
    this.runners.push(runner);
    this.opts.retries?.add(runner);
  }

  consumers(): readonly ConsumerRunner[] {
    return this.runners;
  }

  async start(): Promise<void> {
    this.abort = new AbortController();
    this.opts.retries?.start();
  }

  async publish(batch: EventEnvelope[]): Promise<void> {
    for (const l of this.live) {
      try {
        l(batch);
      } catch (err) {
        this.log.warn({ err }, 'live listener failed');
      }
    }
    const signal = this.abort.signal;
    await Promise.all(
      this.runners.map(async (r) => {
        const mine = batch.filter((e) => r.wants(e.type));
        if (mine.length === 0) return;
        await Promise.all(
          splitByAggregate(mine, this.opts.concurrency).map((part) => r.process(part, signal, this.opts.retries)),
        );
      }),
    );
  }

  /**
   * Abandons in-line retries in flight (their events stay unsent in the outbox and are delivered
   * again) and lets the retry queue finish its pass (what waits there stays for the next start).
   */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.opts.retries?.stop();
  }
}

export interface ReplaySummary {
  replayed: number;
  parkedAgain: number;
  skipped: number;
}

/** Replays parked events of the embedded dead-letter table through their consumers. */
export async function replayDeadLetterTable(
  orm: MikroORM,
  runners: readonly ConsumerRunner[],
  filter: { consumers?: string[]; ids?: number[] } = {},
): Promise<ReplaySummary> {
  const byName = new Map(runners.map((r) => [r.name, r]));
  const where: string[] = ['replayed_at is null'];
  const params: unknown[] = [];
  if (filter.consumers?.length) {
    where.push(`consumer = any(?::text[])`);
    params.push(`{${filter.consumers.join(',')}}`);
  }
  if (filter.ids?.length) {
    where.push(`id = any(?::bigint[])`);
    params.push(`{${filter.ids.join(',')}}`);
  }
  const rows: { id: string; consumer: string; envelope: Record<string, unknown> }[] = await orm.em
    .fork()
    .execute(`select id, consumer, envelope from event_dead_letter where ${where.join(' and ')} order by id`, params);
  const summary: ReplaySummary = { replayed: 0, parkedAgain: 0, skipped: 0 };
  for (const row of rows) {
    const runner = byName.get(row.consumer);
    if (!runner) {
      summary.skipped++;
      continue;
    }
    let outcome: 'done' | 'parked';
    try {
      outcome = await runner.processOne(parseEvent(row.envelope));
    } catch (err) {
      if (err instanceof AbortedError) throw err;
      // Still invalid against its contract: leave it parked with the new error.
      await orm.em
        .fork()
        .execute(`update event_dead_letter set error = ?, attempts = attempts + 1 where id = ?`, [
          String((err as Error).message),
          row.id,
        ]);
      summary.parkedAgain++;
      continue;
    }
    if (outcome === 'done') {
      await orm.em.fork().execute(`update event_dead_letter set replayed_at = now() where id = ?`, [row.id]);
      summary.replayed++;
    } else summary.parkedAgain++;
  }
  return summary;
}
