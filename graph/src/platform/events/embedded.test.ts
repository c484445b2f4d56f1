import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, testConfig, type TestDatabase } from '../../test/db.js';
import { createLogger } from '../logger.js';
import { record } from './outbox.js';
import { OutboxRelay } from './relay.js';
import { ConsumerRunner } from './consumer.js';
import { EmbeddedTransport, TableDeadLetters, replayDeadLetterTable, splitByAggregate } from './embedded.js';
import { createEventBackbone } from './index.js';
import { EventMetrics } from './metrics.js';
import { recordMany } from './record-many.js';
import { RetryQueue } from './retry-queue.js';
import { ProbeConsumer, effectReport, waitFor, writeProbes } from './test-support.js';
import type { EventEnvelope } from '@intranet/schema/events';

const log = createLogger('silent');
const policy = { maxAttempts: 3, baseMs: 5, maxMs: 50 };
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.close();
});
beforeEach(async () => {
  await db.orm.em
    .fork()
    .execute(`truncate outbox_event, outbox_sent, event_consumed, event_dead_letter, event_probe_effect, event_retry`);
});
/** Transports a test started (their retry queues run until stopped). */
const started: EmbeddedTransport[] = [];
afterEach(async () => {
  for (const t of started.splice(0)) await t.stop();
});

/**
 * A transport with one or more consumers, wired as the backbone wires it (with the retry queue,
 * started) unless `inLine`: a failing event is then retried in line, as a Kafka consumer does.
 */
function setup(
  consumer: ProbeConsumer | ProbeConsumer[] = new ProbeConsumer(),
  opts: { concurrency?: number; batchSize?: number; inLine?: boolean; policy?: typeof policy } = {},
) {
  const metrics = new EventMetrics();
  const retries = opts.inLine ? undefined : new RetryQueue(db.orm, log);
  const transport = new EmbeddedTransport(log, { concurrency: opts.concurrency ?? 1, retries });
  const consumers = Array.isArray(consumer) ? consumer : [consumer];
  const runners = consumers.map(
    (c) => new ConsumerRunner(c, db.orm, new TableDeadLetters(db.orm), opts.policy ?? policy, metrics, log),
  );
  for (const r of runners) transport.addConsumer(r);
  if (retries) {
    void transport.start();
    started.push(transport);
  }
  const relay = new OutboxRelay(db.url, transport, log, { batchSize: opts.batchSize ?? 500, pollMs: 200 }, metrics);
  return { metrics, transport, runner: runners[0]!, runners, relay, consumer: consumers[0]! };
}

/** A probe envelope as a producer sends it (a fresh id each time). */
const probeEnvelope = (aggregateId: string, payload: Record<string, unknown>): EventEnvelope => ({
  id: randomUUID(),
  type: 'platform.probe',
  aggregateType: 'probe',
  aggregateId,
  occurredAt: new Date().toISOString(),
  actorId: null,
  payload,
  version: 1,
});

const counter = async (m: EventMetrics, name: string) =>
  (await m.registry.getSingleMetric(name)!.get()).values.reduce((a, v) => a + v.value, 0);

describe('embedded transport', () => {
  it('delivers committed events through the outbox exactly once, in order per aggregate', async () => {
    const { relay, metrics } = setup();
    await relay.start();
    try {
      const ids = await writeProbes(db.orm, { total: 3000, aggregates: 30, perTx: 50 });
      const report = await waitFor(
        () => effectReport(db.orm),
        (r) => r.total >= ids.length,
      );
      expect(report).toEqual({ total: 3000, distinct: 3000, duplicates: 0, orderViolations: 0 });
      expect(await relay.backlog()).toBe(0);
      expect(await counter(metrics, 'events_processed_total')).toBe(3000);
    } finally {
      await relay.stop();
    }
  });

  it('never publishes an event whose transaction rolled back', async () => {
    const { relay } = setup();
    await relay.start();
    try {
      await expect(
        db.orm.em.fork().transactional(async (tx) => {
          record(tx, { type: 'platform.probe', aggregateId: 'rolled-back', actorId: null, payload: { seq: 0 } });
          await tx.flush();
          throw new Error('service failed after recording');
        }),
      ).rejects.toThrow('service failed');
      await writeProbes(db.orm, { total: 10, aggregates: 1, prefix: 'ok' });
      await waitFor(
        () => effectReport(db.orm),
        (r) => r.total >= 10,
      );
      const [row] = await db.orm.em
        .fork()
        .execute(`select count(*)::int as n from event_probe_effect where aggregate_id = 'rolled-back'`);
      expect(row.n).toBe(0);
    } finally {
      await relay.stop();
    }
  });

  it('recordMany writes every envelope field, in the order of the array (outbox seq order)', async () => {
    const inputs = Array.from({ length: 300 }, (_, i) => ({
      type: 'platform.probe' as const,
      aggregateId: `many-${(i * 7) % 13}`,
      actorId: i % 3 === 0 ? null : i,
      payload: { seq: i, ...(i % 5 === 0 ? { note: `n "${i}" \\ é` } : {}) },
    }));
    const envs = await db.orm.em.fork().transactional((tx) => recordMany(tx, inputs));
    const rows = await db.orm.em.fork().execute(
      `select id, type, aggregate_type, aggregate_id, to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as occurred_at, actor_id, payload, version
         from outbox_event order by seq`,
    );
    expect(rows.map((r) => r.id)).toEqual(envs.map((e) => e.id));
    expect(
      rows.map((r) => ({
        type: r.type,
        aggregateType: r.aggregate_type,
        aggregateId: r.aggregate_id,
        occurredAt: r.occurred_at,
        actorId: r.actor_id,
        payload: r.payload,
        version: r.version,
      })),
    ).toEqual(
      envs.map((e) => ({
        type: e.type,
        aggregateType: 'probe',
        aggregateId: e.aggregateId,
        occurredAt: e.occurredAt,
        actorId: e.actorId,
        payload: e.payload,
        version: 1,
      })),
    );
    expect(rows[5]!.payload).toEqual({ seq: 5, note: 'n "5" \\ é' });
  });

  it('record() and recordMany() give events time-ordered UUIDv7 ids, increasing in outbox order', async () => {
    const input = (i: number) => ({
      type: 'platform.probe' as const,
      aggregateId: `v7-${i % 3}`,
      actorId: null,
      payload: { seq: i },
    });
    await db.orm.em.fork().transactional(async (tx) => {
      for (let i = 0; i < 5; i++) record(tx, input(i));
    });
    await db.orm.em.fork().transactional((tx) =>
      recordMany(
        tx,
        Array.from({ length: 200 }, (_, i) => input(i)),
      ),
    );
    const rows = await db.orm.em.fork().execute(
      `select id::text as id, uuid_extract_version(id) as v, (extract(epoch from uuid_extract_timestamp(id)) * 1000)::bigint as ms, (extract(epoch from occurred_at) * 1000)::bigint as at
         from outbox_event order by seq`,
    );
    expect(rows).toHaveLength(205);
    for (const r of rows) {
      expect(r.v).toBe(7);
      expect(Math.abs(Number(r.ms) - Number(r.at))).toBeLessThan(1000);
    }
    const ids = rows.map((r) => r.id as string);
    expect([...ids].sort()).toEqual(ids);
  });

  it("the relay's database-built envelope JSON (publishSerialized) is the envelope recorded, compact, escapes included", async () => {
    const inputs = Array.from({ length: 50 }, (_, i) => ({
      type: 'platform.probe' as const,
      aggregateId: i % 2 ? `json-${i}` : `j"s\\o\n${i} é 漢 \u0001`,
      actorId: i % 3 === 0 ? null : 1000 + i,
      payload: { seq: i, ...(i % 4 === 0 ? { note: `"q" \\ ${i}\t` } : {}) },
    }));
    const envs = await db.orm.em.fork().transactional((tx) => recordMany(tx, inputs));
    const sent: { aggregateType: string; aggregateId: string; json: string }[] = [];
    const transport = {
      kind: 'kafka' as const,
      publish: async () => {
        throw new Error('publishSerialized expected');
      },
      publishSerialized: async (b: { aggregateType: string; aggregateId: string; json: string }[]) =>
        void sent.push(...b),
      start: async () => undefined,
      stop: async () => undefined,
    };
    const relay = new OutboxRelay(db.url, transport, log, { batchSize: 20, pollMs: 100_000 });
    try {
      while ((await relay.relayOnce()) > 0);
    } finally {
      await relay.stop();
    }
    // Plus the recording transaction's id (the event's live position), one for the whole batch.
    const parsed = sent.map((s) => JSON.parse(s.json) as { position: string });
    expect(parsed).toEqual(envs.map((e) => ({ ...e, position: expect.stringMatching(/^\d+$/) })));
    expect(new Set(parsed.map((e) => e.position)).size).toBe(1);
    expect(sent.map((s) => [s.aggregateType, s.aggregateId])).toEqual(
      envs.map((e) => [e.aggregateType, e.aggregateId]),
    );
    for (const s of sent)
      expect(s.json.length).toBe(
        JSON.stringify(JSON.parse(s.json)).length +
          (s.json.match(/": /g)?.length ?? 0) +
          (s.json.match(/, "/g)?.length ?? 0),
      );
  });

  it('rejects an event that fails its contract at record time (never reaches the outbox)', async () => {
    const em = db.orm.em.fork();
    expect(() =>
      record(em, { type: 'platform.probe', aggregateId: 'x', actorId: null, payload: { seq: -1 } as never }),
    ).toThrow();
    const [row] = await db.orm.em.fork().execute(`select count(*)::int as n from outbox_event`);
    expect(row.n).toBe(0);
  });

  it('is idempotent: a redelivered batch has its effect once', async () => {
    const { transport } = setup();
    const batch = Array.from({ length: 20 }, (_, i) => probeEnvelope('dup', { seq: i }));
    await transport.publish(batch);
    await transport.publish(batch);
    await transport.publish(batch.slice(5, 10));
    // The same event twice within one batch (a producer retry lands a second copy next to the first).
    const again = { ...batch[0]!, id: randomUUID() };
    await transport.publish([again, again, ...batch.slice(0, 3), again]);
    expect(await effectReport(db.orm)).toMatchObject({ total: 21, duplicates: 0 });
    await db.orm.em.fork().execute(`delete from event_probe_effect where event_id = ?`, [again.id]);
    expect(await effectReport(db.orm)).toMatchObject({ total: 20, duplicates: 0, orderViolations: 0 });
  });

  it('marks a batch of new events with a plain insert; one already consumed sends the batch through ON CONFLICT, effects once', async () => {
    const { runner, metrics } = setup();
    const probe = (i: number) => probeEnvelope('mixed', { seq: i });
    const batch = Array.from({ length: 10 }, (_, i) => probe(i));
    const spy = vi.spyOn(
      runner as unknown as { attemptSkippingConsumed: (e: EventEnvelope[]) => Promise<void> },
      'attemptSkippingConsumed',
    );
    await runner.process(batch.slice(0, 4));
    await runner.process([batch[4]!, batch[4]!]); // the same event twice in one batch: no conflict, one effect
    expect(spy).not.toHaveBeenCalled();
    // 0..3 consumed already: the plain insert fails on them, the batch goes again and applies 5..9 only.
    await runner.process(batch);
    expect(spy).toHaveBeenCalledTimes(1);
    expect(await effectReport(db.orm)).toEqual({ total: 10, distinct: 10, duplicates: 0, orderViolations: 0 });
    expect(await counter(metrics, 'events_processed_total')).toBe(10);
    expect(await counter(metrics, 'events_duplicate_total')).toBe(1 + 5);
    // Redeliveries come in runs: the next batches skip the plain attempt, then it is tried again.
    await runner.process(batch);
    expect(spy).toHaveBeenCalledTimes(2);
    for (let i = 0; i < 16; i++) await runner.process([probe(10 + i)]);
    expect(spy).toHaveBeenCalledTimes(2 + 15);
    expect(await effectReport(db.orm)).toMatchObject({ total: 26, duplicates: 0 });
    // A consumer's own failure is not taken for a duplicate: retried, then parked as before.
    spy.mockClear();
    const poison = probeEnvelope('mixed', { seq: 100, poison: true });
    await runner.process([poison, probe(101)]);
    expect(spy).not.toHaveBeenCalled();
    const [parked] = await db.orm.em
      .fork()
      .execute(`select count(*)::int as n from event_dead_letter where event_id = ?`, [poison.id]);
    expect(parked.n).toBe(1);
  });

  it('two runners of one consumer racing on the same batch: the plain insert waits for the other, fails, and skips; effects once', async () => {
    const a = setup().runner;
    const b = setup().runner;
    const batch = Array.from({ length: 200 }, (_, i) => probeEnvelope('race', { seq: i }));
    for (let round = 0; round < 5; round++) {
      const part = batch.slice(round * 40, round * 40 + 40);
      await Promise.all([a.process(part), b.process(part)]);
    }
    expect(await effectReport(db.orm)).toEqual({ total: 200, distinct: 200, duplicates: 0, orderViolations: 0 });
  });

  it('without a retry queue (as a Kafka consumer runs), retries in line with backoff, then succeeds', async () => {
    const { transport, consumer, metrics } = setup(new ProbeConsumer(), { inLine: true });
    const id = randomUUID();
    consumer.failures.set(id, 2);
    await transport.publish([
      {
        id,
        type: 'platform.probe',
        aggregateType: 'probe',
        aggregateId: 'r',
        occurredAt: new Date().toISOString(),
        actorId: null,
        payload: { seq: 0 },
        version: 1,
      },
    ]);
    expect(await effectReport(db.orm)).toMatchObject({ total: 1 });
    expect(await counter(metrics, 'events_retried_total')).toBe(2);
    expect(await counter(metrics, 'events_failed_total')).toBe(2);
    expect(await counter(metrics, 'events_dead_lettered_total')).toBe(0);
  });

  it('parks a poison event with its error after the configured attempts; the rest flows; replay applies it once fixed', async () => {
    const { relay, consumer, metrics, runner } = setup();
    await relay.start();
    try {
      await writeProbes(db.orm, { total: 200, aggregates: 5, perTx: 20, poisonEvery: 50 });
      await waitFor(
        () => effectReport(db.orm),
        (r) => r.total >= 196,
      );
      await waitFor(
        () => relay.backlog(),
        (n) => n === 0,
      );
      // The poisons are retried and parked by the retry queue, behind the claim.
      await waitFor(
        () => db.orm.em.fork().execute(`select count(*)::int as n from event_retry`),
        (r) => r[0].n === 0,
      );
      const parked: { consumer: string; error: string; attempts: number; event_type: string }[] = await db.orm.em
        .fork()
        .execute(`select consumer, error, attempts, event_type from event_dead_letter order by id`);
      expect(parked).toHaveLength(4);
      expect(parked[0]).toMatchObject({ consumer: 'probe', attempts: 3, event_type: 'platform.probe' });
      expect(parked[0]!.error).toMatch(/poison event/);
      expect(await counter(metrics, 'events_dead_lettered_total')).toBe(4);

      // Replay while still broken: stays parked, attempts grow.
      expect(await replayDeadLetterTable(db.orm, [runner])).toEqual({ replayed: 0, parkedAgain: 4, skipped: 0 });
      consumer.poisonFails = false;
      expect(await replayDeadLetterTable(db.orm, [runner])).toEqual({ replayed: 4, parkedAgain: 0, skipped: 0 });
      expect(await effectReport(db.orm)).toMatchObject({ total: 200, duplicates: 0 });
      expect(await replayDeadLetterTable(db.orm, [runner])).toEqual({ replayed: 0, parkedAgain: 0, skipped: 0 });
    } finally {
      await relay.stop();
    }
  });

  it('parks an envelope that fails its contract on delivery without retrying it', async () => {
    const { transport, metrics } = setup();
    await transport.publish([probeEnvelope('bad', { seq: 'x' })]);
    const [row] = await db.orm.em.fork().execute(`select error, attempts from event_dead_letter`);
    expect(row.error).toMatch(/invalid platform.probe v1 payload/);
    expect(row.attempts).toBe(1);
    expect(await counter(metrics, 'events_retried_total')).toBe(0);
  });

  it('several relays at once: no double publishing, order per aggregate held', async () => {
    const a = setup(new ProbeConsumer(), { batchSize: 100 });
    const b = setup(new ProbeConsumer(), { batchSize: 100 });
    const c = setup(new ProbeConsumer(), { batchSize: 100 });
    const published = new Map<string, number>();
    for (const s of [a, b, c]) {
      const orig = s.transport.publish.bind(s.transport);
      s.transport.publish = async (batch) => {
        for (const e of batch) published.set(e.id, (published.get(e.id) ?? 0) + 1);
        await orig(batch);
      };
    }
    await Promise.all([a.relay.start(), b.relay.start(), c.relay.start()]);
    try {
      await writeProbes(db.orm, { total: 3000, aggregates: 12, perTx: 25, concurrency: 3 });
      await waitFor(
        () => effectReport(db.orm),
        (r) => r.total >= 3000,
        60_000,
      );
      expect(await effectReport(db.orm)).toEqual({ total: 3000, distinct: 3000, duplicates: 0, orderViolations: 0 });
      expect([...published.values()].every((n) => n === 1)).toBe(true);
      expect(published.size).toBe(3000);
    } finally {
      await Promise.all([a.relay.stop(), b.relay.stop(), c.relay.stop()]);
    }
  });

  it('relays split the aggregate lanes: a lane held by another relay waits, the others flow', async () => {
    const s = setup(new ProbeConsumer(), { batchSize: 5000 });
    await writeProbes(db.orm, { total: 400, aggregates: 40 });
    const other = new pg.Client({ connectionString: db.url });
    await other.connect();
    try {
      await other.query('begin');
      await other.query(`select pg_try_advisory_xact_lock(${0x0b0c5}, l) from generate_series(0, 7) l`);
      const first = await s.relay.relayOnce();
      expect(first).toBeGreaterThan(0);
      expect(first).toBeLessThan(400);
      const [{ lanes }] = await db.orm.em
        .fork()
        .execute(
          `select array_agg(distinct hashtext(aggregate_type || ':' || aggregate_id) & 15) as lanes from outbox_sent`,
        );
      expect((lanes as number[]).every((l) => l >= 8)).toBe(true);
      expect(await s.relay.relayOnce()).toBe(0);
      await other.query('commit');
      expect(await s.relay.relayOnce()).toBe(400 - first);
      expect(await effectReport(db.orm)).toEqual({ total: 400, distinct: 400, duplicates: 0, orderViolations: 0 });
    } finally {
      await other.end();
      await s.relay.stop();
    }
  });

  it('a relay that fails mid-publish leaves its claim unsent; the next round delivers everything once', async () => {
    const s = setup(new ProbeConsumer(), { batchSize: 300 });
    let failures = 2;
    const orig = s.transport.publish.bind(s.transport);
    s.transport.publish = async (batch) => {
      await orig(batch.slice(0, Math.floor(batch.length / 2)));
      if (failures-- > 0) throw new Error('relay crashed mid-batch');
      await orig(batch.slice(Math.floor(batch.length / 2)));
    };
    await writeProbes(db.orm, { total: 1000, aggregates: 10 });
    await s.relay.start();
    try {
      await waitFor(
        () => s.relay.backlog(),
        (n) => n === 0,
        30_000,
      );
      expect(await effectReport(db.orm)).toEqual({ total: 1000, distinct: 1000, duplicates: 0, orderViolations: 0 });
    } finally {
      await s.relay.stop();
    }
  });

  it('a claim moves the events from the queue to outbox_sent, stamped; a failed publish leaves them queued', async () => {
    const s = setup(new ProbeConsumer(), { batchSize: 100 });
    const ids = await writeProbes(db.orm, { total: 30, aggregates: 3 });
    const em = db.orm.em.fork();
    const counts = async () =>
      (
        await em.execute(
          `select (select count(*) from outbox_event)::int as queued, (select count(*) from outbox_sent)::int as sent`,
        )
      )[0];
    const orig = s.transport.publish.bind(s.transport);
    s.transport.publish = async () => {
      throw new Error('broker down');
    };
    await expect(s.relay.relayOnce()).rejects.toThrow('broker down');
    expect(await counts()).toEqual({ queued: 30, sent: 0 });
    s.transport.publish = orig;
    expect(await s.relay.relayOnce()).toBe(30);
    expect(await counts()).toEqual({ queued: 0, sent: 30 });
    const sent: { id: string; stamped: boolean }[] = await em.execute(
      `select id, sent_at between now() - interval '1 minute' and now() as stamped from outbox_sent order by seq`,
    );
    expect(sent).toEqual(ids.map((id) => ({ id, stamped: true })));
    const [all] = await em.execute(`select count(*)::int as n, count(sent_at)::int as sent from outbox_all`);
    expect(all).toEqual({ n: 30, sent: 30 });
    expect(await s.relay.backlog()).toBe(0);
    await s.relay.stop();
  });

  it('prunes sent outbox rows and old idempotency rows after their retention', async () => {
    const s = setup();
    await writeProbes(db.orm, { total: 10, aggregates: 2 });
    await s.relay.relayOnce();
    await writeProbes(db.orm, { total: 2, aggregates: 1, prefix: 'queued' });
    const em = db.orm.em.fork();
    await em.execute(
      `update outbox_sent set sent_at = now() - interval '8 days' where seq in (select seq from outbox_sent order by seq limit 4)`,
    );
    await em.execute(
      `update event_consumed set consumed_at = now() - interval '15 days' where event_id in (select event_id from event_consumed limit 3)`,
    );
    await s.relay.prune(7);
    const [o] = await em.execute(
      `select (select count(*) from outbox_sent)::int as sent, (select count(*) from outbox_event)::int as queued`,
    );
    const [c] = await em.execute(`select count(*)::int as n from event_consumed`);
    expect([o, c.n]).toEqual([{ sent: 6, queued: 2 }, 7]);
    await s.relay.stop();
  });

  it('splits a batch into lanes by aggregate keeping each aggregate in order', () => {
    const batch = Array.from({ length: 100 }, (_, i) => ({ aggregateType: 'probe', aggregateId: `a${i % 7}`, i }));
    const lanes = splitByAggregate(batch, 4);
    expect(lanes.flat()).toHaveLength(100);
    for (const l of lanes) {
      const byAgg = new Map<string, number>();
      for (const e of l) {
        expect(e.i).toBeGreaterThan(byAgg.get(e.aggregateId) ?? -1);
        byAgg.set(e.aggregateId, e.i);
      }
    }
    const aggsPerLane = lanes.map((l) => new Set(l.map((e) => e.aggregateId)));
    for (let x = 0; x < aggsPerLane.length; x++)
      for (let y = x + 1; y < aggsPerLane.length; y++)
        for (const a of aggsPerLane[x]!) expect(aggsPerLane[y]!.has(a)).toBe(false);
  });

  it('the backbone wires live listeners and in-process consumers behind the relay', async () => {
    const live: EventEnvelope[] = [];
    const backbone = createEventBackbone({
      config: testConfig({ EVENT_RETRY_BASE_MS: '5' }),
      orm: db.orm,
      databaseUrl: db.url,
      log,
      live: (batch) => live.push(...batch),
      consumers: [new ProbeConsumer()],
    });
    expect(backbone.kind).toBe('embedded');
    await backbone.start();
    try {
      const t0 = Date.now();
      await writeProbes(db.orm, { total: 5, aggregates: 1 });
      await waitFor(
        async () => live.length,
        (n) => n >= 5,
        5000,
        2,
      );
      expect(Date.now() - t0).toBeLessThan(2000);
      await waitFor(
        () => effectReport(db.orm),
        (r) => r.total >= 5,
      );
      const metrics = await backbone.metrics.registry.metrics();
      expect(metrics).toMatch(/outbox_backlog 0/);
      expect(metrics).toMatch(/events_processed_total\{consumer="probe"\} 5/);
    } finally {
      await backbone.stop();
    }
  });

  it("metrics, embedded: each consumer's series start at 0, its lag is the queued events it handles, /healthz checks the database", async () => {
    const backbone = createEventBackbone({
      config: testConfig({ EVENT_RETRY_BASE_MS: '5' }),
      orm: db.orm,
      databaseUrl: db.url,
      log,
      consumers: [new ProbeConsumer()],
    });
    // Before any event: the consumer's counters and its lag exist, the lag counts the queue.
    await writeProbes(db.orm, { total: 4, aggregates: 2 });
    // A queued event of a type the probe does not handle is not part of its lag.
    await db.orm.em
      .fork()
      .execute(
        `insert into outbox_event (id, type, aggregate_type, aggregate_id, occurred_at, payload, version) values (gen_random_uuid(), 'other.thing', 'other', '1', now(), '{}'::jsonb, 1)`,
      );
    const before = await backbone.metrics.registry.metrics();
    expect(before).toMatch(/events_processed_total\{consumer="probe"\} 0/);
    expect(before).toMatch(/events_failed_total\{consumer="probe"\} 0/);
    expect(before).toMatch(/events_dead_lettered_total\{consumer="probe"\} 0/);
    expect(before).toMatch(/events_consumer_lag\{group="probe"\} 4/);
    expect(await backbone.health()).toMatchObject({
      ok: true,
      database: true,
      transport: 'embedded',
      consumers: ['probe'],
    });
    await db.orm.em.fork().execute(`delete from outbox_event where type <> 'platform.probe'`);
    await backbone.start();
    try {
      await waitFor(
        () => effectReport(db.orm),
        (r) => r.total >= 4,
      );
      const after = await waitFor(
        () => backbone.metrics.registry.metrics(),
        (m) => /events_consumer_lag\{group="probe"\} 0/.test(m),
      );
      expect(after).toMatch(/events_processed_total\{consumer="probe"\} 4/);
    } finally {
      await backbone.stop();
    }
    // A process registers only what it runs.
    const pool = await new EventMetrics({ relay: false }).registry.metrics();
    expect(pool).not.toMatch(/outbox_relayed_total/);
    expect(pool).toMatch(/events_processed_total/);
    const relayOnly = await new EventMetrics({ consumers: false }).registry.metrics();
    expect(relayOnly).toMatch(/outbox_relayed_total/);
    expect(relayOnly).not.toMatch(/events_processed_total|events_consumer_lag|events_batch_seconds/);
  });
});

describe('embedded retry queue', () => {
  const waitingRows = () =>
    db.orm.em
      .fork()
      .execute<{ event_id: string; attempts: number; last_error: string | null }[]>(
        `select event_id, attempts, last_error from event_retry order by id`,
      );
  const effectsOf = (consumer: string) =>
    db.orm.em
      .fork()
      .execute<{ event_id: string }[]>(`select event_id from event_probe_effect where consumer = ? order by id`, [
        consumer,
      ])
      .then((r) => r.map((x) => x.event_id));

  it('an empty queue has nothing due (it sleeps a whole poll); a waiting event is due when its time comes', async () => {
    // greatest(0, null) is 0 in PostgreSQL: an empty table once read as "due now", and every idle
    // process looked at it 20 times a second.
    const queue = new RetryQueue(db.orm, log);
    queue.add(
      new ConsumerRunner(new ProbeConsumer(), db.orm, new TableDeadLetters(db.orm), policy, new EventMetrics(), log),
    );
    expect(await queue.nextDueInMs()).toBeNull();
    await queue.defer('probe', [{ event: probeEnvelope('a', { n: 1 }), attempts: 1, error: 'x', dueInMs: 60_000 }]);
    const later = await queue.nextDueInMs();
    expect(later).toBeGreaterThan(50_000);
    expect(later).toBeLessThanOrEqual(60_000);
    await queue.defer('probe', [{ event: probeEnvelope('b', { n: 1 }), attempts: 1, error: 'x', dueInMs: 0 }]);
    expect(await queue.nextDueInMs()).toBe(0);
  });

  it("a failing event holds up neither the claim, nor other consumers, nor its own consumer's other aggregates; its aggregate's later events wait behind it, in order", async () => {
    const failing = new ProbeConsumer('probe');
    const other = new ProbeConsumer('other');
    const { transport, metrics } = setup([failing, other], { policy: { maxAttempts: 50, baseMs: 5, maxMs: 20 } });
    const live: EventEnvelope[] = [];
    transport.onLive((b) => live.push(...b));
    const x1 = probeEnvelope('x', { seq: 0 });
    const y1 = probeEnvelope('y', { seq: 0 });
    const x2 = probeEnvelope('x', { seq: 1 });
    const y2 = probeEnvelope('y', { seq: 1 });
    failing.failures.set(x1.id, Infinity);
    // publish() returns while x1 still fails: with in-line retries it could not.
    await transport.publish([x1, y1, x2, y2]);
    expect(live.map((e) => e.id)).toEqual([x1.id, y1.id, x2.id, y2.id]);
    expect(await effectsOf('other')).toEqual([x1.id, y1.id, x2.id, y2.id]);
    expect(await effectsOf('probe')).toEqual([y1.id, y2.id]);
    const waiting = await waitingRows();
    expect(waiting.map((r) => r.event_id)).toEqual([x1.id, x2.id]);
    expect(waiting[0]).toMatchObject({
      attempts: expect.any(Number),
      last_error: expect.stringContaining('induced failure'),
    });
    expect(waiting[1]).toMatchObject({ attempts: 0, last_error: null });
    // A later event of the waiting aggregate queues behind it too; another aggregate's goes through.
    const x3 = probeEnvelope('x', { seq: 2 });
    const z1 = probeEnvelope('z', { seq: 0 });
    await transport.publish([x3, z1]);
    expect(await effectsOf('probe')).toEqual([y1.id, y2.id, z1.id]);
    expect((await waitingRows()).map((r) => r.event_id)).toEqual([x1.id, x2.id, x3.id]);
    // The queue keeps trying x1 (attempts rise) and nothing behind it goes first.
    await waitFor(waitingRows, (rows) => rows[0]!.attempts >= 3);
    expect(await effectsOf('probe')).toEqual([y1.id, y2.id, z1.id]);
    // Once it succeeds, its aggregate drains in order, each event once.
    failing.failures.delete(x1.id);
    await waitFor(waitingRows, (rows) => rows.length === 0);
    expect(await effectsOf('probe')).toEqual([y1.id, y2.id, z1.id, x1.id, x2.id, x3.id]);
    expect(await effectReport(db.orm, 'probe')).toMatchObject({ total: 6, duplicates: 0, orderViolations: 0 });
    expect(await counter(metrics, 'events_retried_total')).toBeGreaterThanOrEqual(3);
    expect(await counter(metrics, 'events_dead_lettered_total')).toBe(0);
  });

  it('through the relay: the outbox drains while an event keeps failing', async () => {
    const consumer = new ProbeConsumer();
    const { relay } = setup(consumer, { policy: { maxAttempts: 50, baseMs: 5, maxMs: 20 } });
    consumer.poisonFails = true;
    await relay.start();
    try {
      await writeProbes(db.orm, { total: 100, aggregates: 10, perTx: 10, poisonEvery: 100 });
      // The poison is the 100th event, aggregate agg-0-9; everything else has its effect.
      await waitFor(
        () => effectReport(db.orm),
        (r) => r.total >= 99,
      );
      expect(await relay.backlog()).toBe(0);
      expect(await waitingRows()).toHaveLength(1);
      consumer.poisonFails = false;
      await waitFor(waitingRows, (rows) => rows.length === 0);
      expect(await effectReport(db.orm)).toEqual({ total: 100, distinct: 100, duplicates: 0, orderViolations: 0 });
    } finally {
      await relay.stop();
    }
  });

  it('parks an event after the configured attempts (counting the first), then its aggregate goes on', async () => {
    const consumer = new ProbeConsumer();
    const { transport, metrics } = setup(consumer, { policy: { maxAttempts: 3, baseMs: 5, maxMs: 20 } });
    const x1 = probeEnvelope('x', { seq: 0, poison: true });
    const x2 = probeEnvelope('x', { seq: 1 });
    await transport.publish([x1, x2]);
    await waitFor(waitingRows, (rows) => rows.length === 0);
    expect(await effectsOf('probe')).toEqual([x2.id]);
    const parked = await db.orm.em.fork().execute(`select event_id, attempts, error from event_dead_letter`);
    expect(parked).toEqual([{ event_id: x1.id, attempts: 3, error: expect.stringMatching(/poison event/) }]);
    expect(await counter(metrics, 'events_failed_total')).toBe(3);
    expect(await counter(metrics, 'events_retried_total')).toBe(2);
    expect(await counter(metrics, 'events_dead_lettered_total')).toBe(1);
  });

  it('what waits survives a restart, a redelivery adds nothing, and each event has its effect once', async () => {
    const first = new ProbeConsumer();
    const a = setup(first, { policy: { maxAttempts: 50, baseMs: 5, maxMs: 20 } });
    const x1 = probeEnvelope('x', { seq: 0 });
    const x2 = probeEnvelope('x', { seq: 1 });
    first.failures.set(x1.id, Infinity);
    await a.transport.publish([x1, x2]);
    // The same batch again (the relay crashed before committing its claim): nothing more waits.
    await a.transport.publish([x1, x2]);
    expect((await waitingRows()).map((r) => r.event_id)).toEqual([x1.id, x2.id]);
    await a.transport.stop();
    // A new process: the queue picks the rows up where they were.
    const b = setup(new ProbeConsumer(), { policy: { maxAttempts: 50, baseMs: 5, maxMs: 20 } });
    await waitFor(waitingRows, (rows) => rows.length === 0);
    await b.transport.publish([x1, x2]);
    expect(await effectsOf('probe')).toEqual([x1.id, x2.id]);
    expect(await waitingRows()).toEqual([]);
  });

  it('stopping mid-pass finishes the try in flight, records it, and leaves the rest for the next start', async () => {
    const consumer = new ProbeConsumer();
    // Retries due about a second after the first attempts: time to gate the next try.
    const { transport } = setup(consumer, { policy: { maxAttempts: 50, baseMs: 1000, maxMs: 1000 } });
    const events = ['a', 'b', 'c'].map((agg) => probeEnvelope(agg, { seq: 0 }));
    // Two failures each: the batch attempt (a's first) and each event's own first attempt.
    for (const e of events) consumer.failures.set(e.id, 2);
    await transport.publish(events);
    expect(await waitingRows()).toHaveLength(3);
    consumer.failures.clear();
    // All three due at once: one pass takes them, in id order.
    await db.orm.em.fork().execute(`update event_retry set due_at = now()`);
    // The next try of the first due event hangs until released; stop() is asked meanwhile.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inFlight = new Promise<void>((r) => (entered = r));
    const handle = consumer.handleBatch.bind(consumer);
    consumer.handleBatch = async (batch, tx) => {
      entered();
      await gate;
      return handle(batch, tx);
    };
    await inFlight;
    const stopping = transport.stop();
    release();
    await stopping;
    started.splice(started.indexOf(transport), 1);
    // One try was made and recorded (its effect and its row gone); the other two still wait.
    expect(await effectReport(db.orm)).toMatchObject({ total: 1 });
    expect(await waitingRows()).toHaveLength(2);
  });

  it("the backbone counts what waits as its consumer's lag", async () => {
    const consumer = new ProbeConsumer();
    const backbone = createEventBackbone({
      config: testConfig({ EVENT_RETRY_BASE_MS: '5', EVENT_MAX_ATTEMPTS: '50' }),
      orm: db.orm,
      databaseUrl: db.url,
      log,
      consumers: [consumer],
    });
    consumer.poisonFails = true;
    await backbone.start();
    try {
      await writeProbes(db.orm, { total: 4, aggregates: 1, poisonEvery: 2 });
      // The 2nd event fails; it and the 3rd and 4th (same aggregate) wait.
      await waitFor(
        () => backbone.metrics.registry.metrics(),
        (m) => /events_consumer_lag\{group="probe"\} 3/.test(m),
      );
      expect(await effectReport(db.orm)).toMatchObject({ total: 1 });
      consumer.poisonFails = false;
      await waitFor(
        () => backbone.metrics.registry.metrics(),
        (m) => /events_consumer_lag\{group="probe"\} 0/.test(m),
      );
      expect(await effectReport(db.orm)).toMatchObject({ total: 4, orderViolations: 0 });
    } finally {
      await backbone.stop();
    }
  });
});
