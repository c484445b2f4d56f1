import pg from 'pg';
import type { Logger } from 'pino';
import type { EventMetrics } from './metrics.js';
import type { EventTransport } from './transport.js';
import { toEnvelope } from './outbox.js';
import { isDatabaseUnavailable } from '../errors.js';

/** An outbox row as pg returns it (snake_case columns, jsonb parsed). */
export interface OutboxRow {
  id: string;
  type: string;
  aggregate_type: string;
  aggregate_id: string;
  occurred_at: Date;
  actor_id: number | null;
  payload: Record<string, unknown>;
  version: number;
  /** The recording transaction's id (xid8 as text): the event's position in the stream. */
  xid: string;
}

/** Lanes of aggregates (fixed: every relay must agree). */
export const LANES = 16;
/** The advisory locks a relay takes on the lanes it publishes (two-key form: this, the lane). */
export const RELAY_LOCK_SPACE = 0x0b0c5;
const LANE_SQL = `(hashtext(aggregate_type || ':' || aggregate_id) & ${LANES - 1})`;

export interface RelayOptions {
  batchSize: number;
  pollMs: number;
  /**
   * Claims per transaction (default 8): the relay keeps its lanes for up to this many batches,
   * claiming the next batch while the previous one is being published, then commits them all.
   */
  batchesPerClaim?: number;
}

/** The columns of outbox_event, which outbox_sent repeats before its sent_at. */
const COLUMNS = 'id, seq, type, aggregate_type, aggregate_id, occurred_at, actor_id, payload, version, xid';

/**
 * One claim, one statement: lock the oldest queued events of the held lanes, move them from the
 * queue (`outbox_event`) to the archive (`outbox_sent`, stamped `sent_at`) and return them. The move
 * is uncommitted until the transaction commits: a rollback puts every claimed row back in the queue.
 */
const claimSql = (lanes: boolean, serialized: boolean) => `
  with c as materialized (
    select seq from outbox_event
     ${lanes ? `where ${LANE_SQL} = any($2::int[])` : ''}
     order by seq limit $1 for update skip locked),
  d as (delete from outbox_event o using c where o.seq = c.seq returning o.*)
  insert into outbox_sent as o (${COLUMNS}, sent_at)
  select ${COLUMNS}, now() from d
  returning o.seq, o.aggregate_type, o.aggregate_id, ${serialized ? ENVELOPE_JSON : 'o.id, o.type, o.occurred_at, o.actor_id, o.payload, o.version, o.xid::text as xid'}`;

/**
 * The envelope as JSON text, built by the database (for transports that forward bytes): the same
 * fields, order and formats as toEnvelope() + JSON.stringify (occurredAt in UTC with milliseconds,
 * as Date.toISOString writes it), and as compact: json_build_object writes `"key" : value, ` (about
 * 25 bytes more per event to send, store and fetch), so the text is concatenated, strings escaped
 * by to_json. The payload is jsonb's own text.
 */
const ENVELOPE_JSON = `'{"id":"' || o.id || '","type":' || to_json(o.type)::text
    || ',"aggregateType":' || to_json(o.aggregate_type)::text || ',"aggregateId":' || to_json(o.aggregate_id)::text
    || ',"occurredAt":"' || to_char(o.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    || '","actorId":' || coalesce(o.actor_id::text, 'null') || ',"payload":' || o.payload::text
    || ',"version":' || o.version || ',"position":"' || o.xid || '"}' as json`;

function rowToEnvelope(r: OutboxRow) {
  const e = toEnvelope({
    id: r.id,
    type: r.type,
    aggregateType: r.aggregate_type,
    aggregateId: r.aggregate_id,
    occurredAt: r.occurred_at,
    actorId: r.actor_id,
    payload: r.payload,
    version: r.version,
  });
  e.position = r.xid;
  return e;
}

export class OutboxRelay {
  private listener?: pg.Client;
  private pool: pg.Pool;
  private timer?: NodeJS.Timeout;
  private pruner?: NodeJS.Timeout;
  private running = false;
  private wake = false;
  private draining?: Promise<void>;
  private stopped = false;
  private started = false;
  private relisten?: NodeJS.Timeout;

  constructor(
    private readonly url: string,
    private readonly transport: EventTransport,
    private readonly log: Logger,
    private readonly opts: RelayOptions = { batchSize: 2000, pollMs: 1000 },
    private readonly metrics?: EventMetrics,
  ) {
    this.pool = new pg.Pool({ connectionString: url, max: 2 });
    this.pool.on('error', (err) => this.log.warn({ err }, 'outbox relay connection lost'));
    // pg-pool listens for errors only on idle clients, and hands a new one over in the same turn as
    // its startup's last message: an error in that message's packet (a backend terminated as it
    // connected) would reach a client with no listener and end the process. Every client keeps one.
    this.pool.on('connect', (client) => client.on('error', () => undefined));
    metrics?.setBacklogProbe(() => this.backlog());
  }

  /** Committed events not yet published (the queue). */
  async backlog(): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>(`select count(*) as n from outbox_event`);
    return Number(rows[0]!.n);
  }

  async start(): Promise<void> {
    await this.listen();
    this.timer = setInterval(() => this.kick(), this.opts.pollMs);
    // Sent rows are kept a week in outbox_sent (audit, replays from the outbox), then pruned.
    this.pruner = setInterval(
      () => void this.prune().catch((err) => this.log.warn({ err }, 'outbox prune failed')),
      3_600_000,
    );
    this.pruner.unref();
    this.kick();
  }

  /**
   * LISTEN on a connection of its own. When PostgreSQL drops it (a restart, a failover, an
   * operator's pg_terminate_backend), polling carries on and the listener comes back after a pause.
   */
  private async listen(): Promise<void> {
    const listener = new pg.Client({ connectionString: this.url });
    this.listener = listener;
    let lost = false;
    const reconnect = (err?: Error) => {
      if (lost || this.stopped) return;
      lost = true;
      if (err) this.log.warn({ err: err.message }, 'outbox listener lost; polling continues until it is back');
      void listener.end().catch(() => undefined);
      this.relisten = setTimeout(() => void this.listen(), 1000);
      this.relisten.unref();
    };
    listener.on('notification', () => this.kick());
    listener.on('error', reconnect);
    listener.on('end', () => reconnect());
    try {
      await listener.connect();
      await listener.query('listen outbox');
    } catch (err) {
      if (!this.started) {
        lost = true; // a first start fails as it is
        await listener.end().catch(() => undefined);
        throw err;
      }
      reconnect(err as Error);
      return;
    }
    // Events committed while nobody listened are found by the next claim.
    if (this.started) this.kick();
    this.started = true;
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
        // A stop aborts a publish in flight (the events stay unsent and go out after the restart): no error.
        if (this.stopped)
          this.log.info(
            { err: (err as Error).message },
            'outbox relay: publish cut short by the stop; unsent events stay queued',
          );
        else if (isDatabaseUnavailable(err))
          this.log.warn({ err: (err as Error).message }, 'outbox relay: database connection lost; will retry');
        else this.log.error({ err }, 'outbox relay failed; will retry');
      } finally {
        this.running = false;
      }
    })();
  }

  /**
   * One transaction: takes the free lanes, then claims (moves to outbox_sent) and publishes up to
   * `batchesPerClaim` batches (the next claim overlapping the previous publish). Returns how many events were sent.
   */
  async relayOnce(): Promise<number> {
    const client = await this.pool.connect();
    // pg-pool listens for errors only on idle clients: a connection dropped while this one is held
    // (during a publish) would be an unhandled 'error' event, which ends the process.
    let failed: Error | undefined;
    const onError = (err: Error) => (failed = err);
    client.on('error', onError);
    let publishing: Promise<void> | undefined;
    try {
      // One round trip: BEGIN, the transaction's settings, and the aggregate lanes no other relay
      // holds right now (transaction-scoped locks: they end with this claim, and with the connection
      // if this process dies).
      // - synchronous_commit off: this transaction only moves rows from the queue to the archive.
      //   Losing that move in a database crash means the rows go again (consumers are idempotent),
      //   never that one is lost; WAL order keeps the lost moves a suffix, so an aggregate's events
      //   are never reordered.
      // - no sequential or bitmap scans: right after a bulk insert the statistics say "few queued
      //   rows" and the planner would read and sort the whole backlog for every claim (with a lane
      //   filter) and hash-join the delete against all of it, instead of reading the seq key in
      //   order up to the limit and deleting by key.
      const res = (await client.query(
        `begin; set local synchronous_commit to off; set local enable_seqscan to off; set local enable_bitmapscan to off;
         select array_agg(l) as lanes from generate_series(0, ${LANES - 1}) l where pg_try_advisory_xact_lock(${RELAY_LOCK_SPACE}, l)`,
      )) as unknown as pg.QueryResult<{ lanes: number[] | null }>[];
      const held = res[res.length - 1]!.rows[0]?.lanes ?? [];
      if (held.length === 0) {
        await client.query('commit');
        return 0;
      }
      const all = held.length === LANES;
      const serialized = typeof this.transport.publishSerialized === 'function';
      const sql = claimSql(!all, serialized);
      const params = all ? [this.opts.batchSize] : [this.opts.batchSize, held];
      const claim = async () => {
        const { rows } = await client.query<OutboxRow & { seq: string; json?: string }>(sql, params);
        // RETURNING has no order: restore the outbox (commit) order.
        if (rows.length > 1)
          rows.sort((a, b) => a.seq.length - b.seq.length || (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
        return rows;
      };
      const maxBatches = Math.max(1, this.opts.batchesPerClaim ?? 8);
      let sent = 0;
      let rows = await claim();
      for (let k = 0; rows.length > 0; k++) {
        publishing = serialized
          ? this.transport.publishSerialized!(
              rows.map((r) => ({ aggregateType: r.aggregate_type, aggregateId: r.aggregate_id, json: r.json! })),
            )
          : this.transport.publish(rows.map(rowToEnvelope));
        sent += rows.length;
        // A short claim means the backlog is drained: publish it and commit (live latency).
        const more = rows.length === this.opts.batchSize && k + 1 < maxBatches && !this.stopped;
        const next = more ? claim() : undefined;
        // Never leave a claim query running while the publish fails (the connection is shared).
        const [published, claimed] = await Promise.allSettled([publishing, next]);
        publishing = undefined;
        if (published.status === 'rejected') throw published.reason;
        if (claimed.status === 'rejected') throw claimed.reason;
        rows = claimed.value ?? [];
      }
      await client.query('commit');
      if (sent) this.metrics?.relayed.inc(sent);
      return sent;
    } catch (err) {
      failed ??= err as Error;
      await publishing?.catch(() => undefined);
      await client.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      client.removeListener('error', onError);
      // After a failure the connection may be broken: the pool closes it rather than lending it again.
      client.release(failed);
    }
  }

  /** Deletes archived outbox rows sent more than `days` ago; consumer idempotency rows older than twice that. */
  async prune(days = 7): Promise<void> {
    await this.pool.query(`delete from outbox_sent where sent_at < now() - make_interval(days => $1)`, [days]);
    await this.pool.query(`delete from event_consumed where consumed_at < now() - make_interval(days => $1)`, [
      days * 2,
    ]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.pruner) clearInterval(this.pruner);
    if (this.relisten) clearTimeout(this.relisten);
    await this.draining;
    await this.listener?.end().catch(() => undefined);
    await this.pool.end();
  }
}
