import pg from 'pg';
import type { Logger } from 'pino';
import type { EventMetrics } from './events/metrics.js';
import type { EventTransport } from './events/transport.js';
import { toEnvelope } from './outbox.js';

export type { EventTransport } from './events/transport.js';

interface OutboxRow {
  id: string;
  type: string;
  aggregate_type: string;
  aggregate_id: string;
  occurred_at: Date;
  actor_id: number | null;
  payload: Record<string, unknown>;
  version: number;
}

/** Lanes of aggregates (fixed: every relay must agree). */
export const LANES = 16;
const LOCK_SPACE = 0x0b0c5;
const LANE_SQL = `(hashtext(aggregate_type || ':' || aggregate_id) & ${LANES - 1})`;

export interface RelayOptions {
  batchSize: number;
  pollMs: number;
}

/**
 * The outbox relay: claims unsent rows in commit order with FOR UPDATE SKIP LOCKED (several relays
 * never claim the same row), hands them to the transport, and marks them sent in the same
 * transaction. A crash before the commit leaves the rows unsent, so they go again: at-least-once,
 * with consumers idempotent by event id. Woken by LISTEN/NOTIFY, with a polling fallback.
 *
 * Order per aggregate with several relays: aggregates hash into LANES lanes, and a relay claims
 * rows only of the lanes whose advisory lock it took for this claim (pg_try_advisory_xact_lock).
 * One lane is relayed by one relay at a time, in seq order, and the next relay to take it starts
 * after the previous one committed its rows as sent. Services that change one aggregate serialise
 * on its row (optimistic version / row lock), so an
 * aggregate's events commit in seq order.
 */
export class OutboxRelay {
  private listener?: pg.Client;
  private pool: pg.Pool;
  private timer?: NodeJS.Timeout;
  private pruner?: NodeJS.Timeout;
  private running = false;
  private wake = false;
  private draining?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly url: string,
    private readonly transport: EventTransport,
    private readonly log: Logger,
    private readonly opts: RelayOptions = { batchSize: 2000, pollMs: 1000 },
    private readonly metrics?: EventMetrics,
  ) {
    this.pool = new pg.Pool({ connectionString: url, max: 2 });
    this.pool.on('error', (err) => this.log.warn({ err }, 'outbox relay connection lost'));
    metrics?.setBacklogProbe(() => this.backlog());
  }

  /** Committed events not yet published. */
  async backlog(): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>(`select count(*) as n from outbox_event where sent_at is null`);
    return Number(rows[0]!.n);
  }

  async start(): Promise<void> {
    this.listener = new pg.Client({ connectionString: this.url });
    this.listener.on('notification', () => this.kick());
    this.listener.on('error', (err) => this.log.warn({ err }, 'outbox listener lost; polling continues'));
    await this.listener.connect();
    await this.listener.query('listen outbox');
    this.timer = setInterval(() => this.kick(), this.opts.pollMs);
    // Sent rows are kept a week (audit, replays from the outbox), then pruned.
    this.pruner = setInterval(() => void this.prune().catch((err) => this.log.warn({ err }, 'outbox prune failed')), 3_600_000);
    this.pruner.unref();
    this.kick();
  }

  /** Runs the drain loop; a kick during a drain makes it go round once more. */
  kick(): void {
    if (this.stopped) return;
    this.wake = true;
    if (this.running) return;
    this.running = true;
    this.draining = (async () => {
      try {
        while (this.wake && !this.stopped) {
          this.wake = false;
          while (!this.stopped && (await this.relayOnce()) > 0) this.wake = false;
        }
      } catch (err) {
        this.log.error({ err }, 'outbox relay failed; will retry');
      } finally {
        this.running = false;
      }
    })();
  }

  /** Claims, publishes and marks one batch. Returns how many were sent. */
  async relayOnce(): Promise<number> {
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      // Take the aggregate lanes no other relay holds right now (transaction-scoped locks: they end
      // with this claim, and with the connection if this process dies).
      const lanes = await client.query<{ lanes: number[] | null }>(
        `select array_agg(l) as lanes from generate_series(0, ${LANES - 1}) l where pg_try_advisory_xact_lock(${LOCK_SPACE}, l)`,
      );
      const held = lanes.rows[0]?.lanes ?? [];
      if (held.length === 0) {
        await client.query('commit');
        return 0;
      }
      const { rows } = await client.query<OutboxRow>(
        `select id, type, aggregate_type, aggregate_id, occurred_at, actor_id, payload, version
           from outbox_event
          where sent_at is null ${held.length === LANES ? '' : `and ${LANE_SQL} = any($2::int[])`}
          order by seq limit $1 for update skip locked`,
        held.length === LANES ? [this.opts.batchSize] : [this.opts.batchSize, held],
      );
      if (rows.length === 0) {
        await client.query('commit');
        return 0;
      }
      const batch = rows.map((r) =>
        toEnvelope({
          id: r.id,
          type: r.type,
          aggregateType: r.aggregate_type,
          aggregateId: r.aggregate_id,
          occurredAt: r.occurred_at,
          actorId: r.actor_id,
          payload: r.payload,
          version: r.version,
        }),
      );
      await this.transport.publish(batch);
      await client.query(`update outbox_event set sent_at = now() where id = any($1::uuid[])`, [rows.map((r) => r.id)]);
      await client.query('commit');
      this.metrics?.relayed.inc(rows.length);
      return rows.length;
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  /** Deletes outbox rows sent more than `days` ago; consumer idempotency rows older than the same. */
  async prune(days = 7): Promise<void> {
    await this.pool.query(`delete from outbox_event where sent_at < now() - make_interval(days => $1)`, [days]);
    await this.pool.query(`delete from event_consumed where consumed_at < now() - make_interval(days => $1)`, [days * 2]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.pruner) clearInterval(this.pruner);
    await this.draining;
    await this.listener?.end().catch(() => undefined);
    await this.pool.end();
  }
}
