import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import {
  createTestDatabase,
  testConfig,
  type TestDatabase,
  kafkaAvailable,
  kafkaSkipNotice,
  useTestKafka,
  type TestKafka,
} from '@intranet/graph/testing';
import { openOrm } from '@intranet/graph';
import {
  OutboxRelay,
  ConsumerRunner,
  KafkaDeadLetters,
  readDeadLetterTopic,
  KafkaTransport,
  createKafka,
  type KafkaSettings,
  replayDeadLetterTopic,
  EventMetrics,
  ProbeConsumer,
  effectReport,
  waitFor,
  writeProbes,
} from '@intranet/graph/events';
import { startWorkerPool } from './pool.js';
import { selectConsumers } from './registry.js';
import { cli, log, spawnCli } from './main.test-support.js';

kafkaSkipNotice('workers/src/main.kafka.test.ts');

describe.skipIf(!kafkaAvailable)('worker pool on Kafka: /healthz, /metrics, status', () => {
  let db: TestDatabase;
  let k: TestKafka;
  let settings: KafkaSettings;
  let env: Record<string, string>;
  beforeAll(async () => {
    [db, k] = await Promise.all([createTestDatabase(), useTestKafka()]);
  });
  afterAll(async () => {
    await db?.close();
    await k?.close();
  });
  beforeEach(async () => {
    // A prefix per test: topics and groups of one test never meet another's.
    settings = {
      ...k.settings(2),
      topicPrefix: `${k.settings().topicPrefix}${Math.random().toString(36).slice(2, 7)}.`,
    };
    env = { KAFKA_BROKERS: k.brokers, KAFKA_TOPIC_PREFIX: settings.topicPrefix, KAFKA_PARTITIONS: '2' };
    await db.orm.em
      .fork()
      .execute(`truncate outbox_event, outbox_sent, event_consumed, event_dead_letter, event_probe_effect`);
  });

  async function members(groupId: string): Promise<number> {
    const admin = createKafka(settings, log).admin();
    await admin.connect();
    try {
      const { groups } = await admin.describeGroups([groupId]);
      return groups[0]?.members.length ?? 0;
    } finally {
      await admin.disconnect();
    }
  }

  it('serves health and Prometheus metrics (processed, lag, backlog; no relay counter) and status shows the lag per group', async () => {
    const config = testConfig({ ...env, DATABASE_URL: db.url });
    const pool = await startWorkerPool({
      config,
      orm: db.orm,
      log,
      consumers: selectConsumers(['probe']),
      concurrency: 2,
      port: 0,
    });
    const transport = new KafkaTransport(settings, log);
    await transport.start();
    const relay = new OutboxRelay(db.url, transport, log, { batchSize: 500, pollMs: 200 }, new EventMetrics());
    try {
      // Series from the start: every consumer counter at 0 before its first event.
      const before = await (await fetch(`${pool.server!.url}/metrics`)).text();
      expect(before).toMatch(/events_processed_total\{consumer="probe"\} 0/);
      expect(before).toMatch(/events_dead_lettered_total\{consumer="probe"\} 0/);
      // Workers do not relay.
      expect(before).not.toMatch(/outbox_relayed_total/);
      await pool.ready;
      await relay.start();
      await writeProbes(db.orm, { total: 300, aggregates: 10 });
      await waitFor(
        () => effectReport(db.orm),
        (r) => r.total >= 300,
        30_000,
      );
      const health = await fetch(`${pool.server!.url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({
        ok: true,
        database: true,
        consumers: ['probe'],
        joining: [],
        crashed: [],
      });
      const metrics = await waitFor(
        async () => (await fetch(`${pool.server!.url}/metrics`)).text(),
        (m) => m.includes(`events_consumer_lag{group="${settings.topicPrefix}probe"} 0`),
        10_000,
      );
      expect(metrics).toMatch(/events_processed_total\{consumer="probe"\} 300/);
      expect(metrics).toMatch(/outbox_backlog 0/);
      expect(metrics).toMatch(/events_dead_lettered_total/);
      const status = await cli(['status', '--only', 'probe'], { ...env, DATABASE_URL: db.url });
      expect(status.out).toMatch(new RegExp(`probe\\s+${settings.topicPrefix.replace(/\./g, '\\.')}probe\\s+0\\s+0`));
    } finally {
      await relay.stop();
      await transport.stop();
      await pool.stop();
    }
  }, 60_000);

  it('/healthz answers 503 while a consumer has not joined its group, and when the database does not answer; /readyz names a restarting consumer', async () => {
    const orm = await openOrm(db.url, 2);
    const pool = await startWorkerPool({
      config: testConfig({ ...env, DATABASE_URL: db.url }),
      orm,
      log,
      consumers: selectConsumers(['probe']),
      concurrency: 1,
      port: 0,
    });
    try {
      await pool.ready;
      expect((await fetch(`${pool.server!.url}/healthz`)).status).toBe(200);
      const ready = await fetch(`${pool.server!.url}/readyz`);
      expect(await ready.json()).toEqual({
        status: 'ready',
        reasons: [],
        checks: { database: 'ok', broker: 'ok', consumers: 'ok' },
      });
      // A consumer that kafkajs restarts after a crash is not ready until it has joined again; the reason names it.
      // The flags are pinned: a rebalance's GROUP_JOIN arriving meanwhile would otherwise reset them.
      const unpinRestarting = pin(pool.groups[0]!, 'restarting', true);
      const restarting = await fetch(`${pool.server!.url}/readyz`);
      unpinRestarting();
      expect(restarting.status).toBe(503);
      expect(await restarting.json()).toMatchObject({ status: 'degraded', reasons: ['consumers: restarting: probe'] });
      // A member that has not joined its group yet is not healthy either.
      const unpinJoined = pin(pool.groups[0]!, 'joinedOnce', false);
      const joining = await fetch(`${pool.server!.url}/healthz`);
      unpinJoined();
      expect(joining.status).toBe(503);
      expect(await joining.json()).toMatchObject({ ok: false, database: true, joining: ['probe'] });
      await orm.close();
      const down = await fetch(`${pool.server!.url}/healthz`);
      expect(down.status).toBe(503);
      expect(await down.json()).toMatchObject({ ok: false, database: false });
    } finally {
      await pool.stop();
    }
  });

  it('a taken metrics port fails the start at once, in one line (exit 2), before joining any group', async () => {
    const holder = net.createServer();
    await new Promise<void>((r) => holder.listen(0, '0.0.0.0', r));
    const port = (holder.address() as net.AddressInfo).port;
    try {
      const r = await cli(['--only', 'probe', '--port', String(port)], { ...env, DATABASE_URL: db.url });
      expect(r.out.trim()).toBe(
        `workers: metrics port ${port} is already in use (EADDRINUSE); choose another with --port or METRICS_PORT`,
      );
      expect(r.code).toBe(2);
      expect(await members(`${settings.topicPrefix}probe`)).toBe(0);
    } finally {
      await new Promise((r) => holder.close(r));
    }
  });

  it.skipIf(!!process.env.DATABASE_URL_TEST)(
    'SIGTERM is graceful when the pool joins the embedded PostgreSQL (no DATABASE_URL): it leaves its group and exits 0',
    async () => {
      // DATA_DIR/pg as `npm start` leaves it while running: a postmaster.pid naming a live process
      // and the port, here the test run's PostgreSQL, where the `intranet` database is made for it.
      const template = new URL(inject('pgTemplateUrl'));
      const admin = new pg.Client({
        connectionString: inject('pgTemplateUrl').replace(/\/[^/?]*(\?.*)?$/, '/postgres'),
      });
      await admin.connect();
      await admin.query(`drop database if exists intranet with (force)`);
      await admin.query(`create database intranet template intranet_template`);
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'workers-attach-'));
      fs.mkdirSync(path.join(dataDir, 'pg'));
      fs.writeFileSync(
        path.join(dataDir, 'pg', 'postmaster.pid'),
        `${process.pid}\n${path.join(dataDir, 'pg')}\n${Math.floor(Date.now() / 1000)}\n${template.port}\n`,
      );
      const pool = spawnCli(['--only', 'probe', '--port', '0'], { ...env, DATA_DIR: dataDir, DATABASE_URL: '' });
      try {
        const url = await waitFor(
          async () => /\/healthz and \/metrics at (http:\S+)/.exec(pool.output())?.[1],
          (u) => !!u || pool.child.exitCode !== null,
          60_000,
          100,
        );
        expect(url, pool.output()).toBeTruthy();
        await waitFor(
          async () => (await fetch(`${url}/healthz`)).status,
          (s) => s === 200,
          30_000,
          100,
        );
        expect(await members(`${settings.topicPrefix}probe`)).toBe(1);
        pool.child.kill('SIGTERM');
        const exit = await pool.exited;
        expect(exit, pool.output()).toEqual({ code: 0, signal: null });
        expect(pool.output()).toMatch(/workers: stopped in \d+ ms/);
        // It left the group (no member waiting for its session to time out).
        expect(await members(`${settings.topicPrefix}probe`)).toBe(0);
      } finally {
        if (pool.child.exitCode === null) pool.child.kill('SIGKILL');
        await admin.query(`drop database if exists intranet with (force)`);
        await admin.end();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
    90_000,
  );

  it('the relay command publishes the outbox and stops on SIGTERM saying so, exit 0, nothing left claimed', async () => {
    const relay = spawnCli(['relay'], { ...env, DATABASE_URL: db.url });
    try {
      await waitFor(
        async () => relay.output(),
        (o) => /relay: publishing the outbox to Kafka/.test(o) || relay.child.exitCode !== null,
        60_000,
        100,
      );
      expect(relay.output()).toMatch(/relay: publishing the outbox to Kafka/);
      await writeProbes(db.orm, { total: 50, aggregates: 5 });
      const left = async () =>
        (await db.orm.em.fork().execute(`select count(*)::int as n from outbox_event`))[0].n as number;
      expect(await waitFor(left, (n) => n === 0, 30_000, 100)).toBe(0);
      relay.child.kill('SIGTERM');
      expect(await relay.exited, relay.output()).toEqual({ code: 0, signal: null });
      expect(relay.output()).toMatch(/relay: stopped in \d+ ms/);
      expect((await db.orm.em.fork().execute(`select count(*)::int as n from outbox_sent`))[0].n).toBe(50);
    } finally {
      if (relay.child.exitCode === null) relay.child.kill('SIGKILL');
    }
  }, 90_000);

  it('status counts what is still parked (once after a replay parks it again, 0 after a good replay); dead-letters lists it', async () => {
    const fast = { EVENT_MAX_ATTEMPTS: '2', EVENT_RETRY_BASE_MS: '5', EVENT_RETRY_MAX_MS: '20' };
    const config = testConfig({ ...env, ...fast, DATABASE_URL: db.url });
    const pool = await startWorkerPool({
      config,
      orm: db.orm,
      log,
      consumers: selectConsumers(['probe']),
      concurrency: 1,
    });
    const transport = new KafkaTransport(settings, log);
    await transport.start();
    const relay = new OutboxRelay(db.url, transport, log, { batchSize: 500, pollMs: 200 }, new EventMetrics());
    try {
      await pool.ready;
      await relay.start();
      await writeProbes(db.orm, { total: 20, aggregates: 4, poisonEvery: 10 });
      await waitFor(
        () => readDeadLetterTopic(transport.kafka, settings),
        (l) => l.length >= 2,
        30_000,
        200,
      );
    } finally {
      await relay.stop();
      await pool.stop();
    }
    const cliEnv = { ...env, ...fast, DATABASE_URL: db.url };
    const status = async () => (await cli(['status'], cliEnv)).out;
    expect(await status()).toMatch(/dead letters:\s+2 in topic \S+dead-letter/);

    // The CLI's probe still fails on poison: both are parked again (the topic now holds 4 messages),
    // and they count once.
    expect((await cli(['replay', '--only', 'probe'], cliEnv)).out).toMatch(/probe: replayed 0, parked again 2/);
    const again = await status();
    expect(again).toMatch(
      /dead letters:\s+2 in topic \S+dead-letter, not yet replayed \(read from each consumer's replay offset\)/,
    );
    expect(again).toMatch(/^probe\s+\S+\s+\d+\s+2$/m);

    const list = await cli(['dead-letters', '--json', '--only', 'probe'], cliEnv);
    expect(list.code).toBe(0);
    const events = (JSON.parse(list.out) as { events: Record<string, unknown>[] }).events;
    expect(events).toHaveLength(2);
    for (const e of events) {
      expect(e).toMatchObject({
        id: expect.stringMatching(/^\d+:\d+$/),
        consumer: 'probe',
        type: 'platform.probe',
        attempts: 2,
        error: expect.stringMatching(/poison event/),
      });
      expect(Date.parse(String(e.parkedAt))).toBeGreaterThan(0);
    }
    // Listing did not move the replay: a fixed consumer replays both.
    const fixed = new ProbeConsumer();
    fixed.poisonFails = false;
    const dead = new KafkaDeadLetters(transport.kafka, settings);
    const runner = new ConsumerRunner(
      fixed,
      db.orm,
      dead,
      { maxAttempts: 2, baseMs: 5, maxMs: 20 },
      new EventMetrics(),
      log,
    );
    expect(await replayDeadLetterTopic(transport.kafka, settings, runner)).toEqual({ replayed: 2, parkedAgain: 0 });
    await dead.close();
    await transport.stop();
    expect(await status()).toMatch(/dead letters:\s+0 in topic/);
    expect((await cli(['dead-letters'], cliEnv)).out).toMatch(/^0 parked event\(s\)/);
    expect((await cli(['replay', '--ids', '1'], cliEnv)).code).toBe(64);
  }, 90_000);
});

/** Holds `key` of `target` at `value` whatever assigns it meanwhile; the returned function restores a plain field. */
function pin<T extends object, K extends keyof T>(target: T, key: K, value: T[K]): () => void {
  const before = target[key];
  Object.defineProperty(target, key, { get: () => value, set: () => undefined, configurable: true });
  return () => {
    delete target[key];
    target[key] = before;
  };
}
