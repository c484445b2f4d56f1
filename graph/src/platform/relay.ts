import pg from 'pg';
import type { Logger } from 'pino';
import type { EventEnvelope } from '../../../schema/events/index.js';
import { toEnvelope } from './outbox.js';

/** Where the relay hands committed events: in-process consumers now, Kafka when configured. */
export interface EventTransport {
  publish(batch: EventEnvelope[]): Promise<void>;
}

/** Delivers each batch to in-process listeners (live fan-out, embedded consumers) in order. */
export class InProcessTransport implements EventTransport {
  private readonly listeners: ((batch: EventEnvelope[]) => Promise<void> | void)[] = [];

  onBatch(listener: (batch: EventEnvelope[]) => Promise<void> | void): void {
    this.listeners.push(listener);
  }

  async publish(batch: EventEnvelope[]): Promise<void> {
    for (const l of this.listeners) await l(batch);
  }
}

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

/**
 * The outbox relay: claims unsent rows in commit order with FOR UPDATE SKIP LOCKED (several relays
 * never claim the same row), hands them to the transport, and marks them sent in the same
 * transaction. A crash before the commit leaves the rows unsent, so they go again: at-least-once,
 * with consumers idempotent by event id. Woken by LISTEN/NOTIFY, with a polling fallback.
 */
export class OutboxRelay {
  private listener?: pg.Client;
  private pool: pg.Pool;
  private timer?: NodeJS.Timeout;
  private running = false;
  private wake = false;
  private draining?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly url: string,
    private readonly transport: EventTransport,
    private readonly log: Logger,
    private readonly opts = { batchSize: 500, pollMs: 1000 },
  ) {
    this.pool = new pg.Pool({ connectionString: url, max: 2 });
  }

  async start(): Promise<void> {
    this.listener = new pg.Client({ connectionString: this.url });
    this.listener.on('notification', () => this.kick());
    this.listener.on('error', (err) => this.log.warn({ err }, 'outbox listener lost; polling continues'));
    await this.listener.connect();
    await this.listener.query('listen outbox');
    this.timer = setInterval(() => this.kick(), this.opts.pollMs);
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
      const { rows } = await client.query<OutboxRow>(
        `select id, type, aggregate_type, aggregate_id, occurred_at, actor_id, payload, version
           from outbox_event where sent_at is null order by seq limit $1 for update skip locked`,
        [this.opts.batchSize],
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
      return rows.length;
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.draining;
    await this.listener?.end().catch(() => undefined);
    await this.pool.end();
  }
}
