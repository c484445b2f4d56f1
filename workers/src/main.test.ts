import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testConfig, type TestDatabase } from '../../graph/src/test/db.js';
import { createLogger } from '../../graph/src/platform/logger.js';
import { OutboxRelay } from '../../graph/src/platform/relay.js';
import { KafkaTransport } from '../../graph/src/platform/events/kafka.js';
import { EventMetrics } from '../../graph/src/platform/events/metrics.js';
import { effectReport, waitFor, writeProbes } from '../../graph/src/platform/events/test-support.js';
import { kafkaAvailable, kafkaSkipNotice, useTestKafka, type TestKafka } from '../../graph/src/platform/events/kafka-test-broker.js';
import { startWorkerPool } from './pool.js';
import { selectConsumers } from './registry.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const log = createLogger('silent');

async function cli(args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', '@swc-node/register/esm-register', 'workers/src/main.ts', ...args], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', KAFKA_BROKERS: '', ...env },
    });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

describe('workers CLI (embedded mode)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('rejects unknown consumers and refuses to run a pool without Kafka', async () => {
    const bad = await cli(['--only', 'nope'], { DATABASE_URL: db.url });
    expect(bad.code).toBe(64);
    expect(bad.out).toMatch(/unknown consumer\(s\) nope; known: probe/);
    const noKafka = await cli([], { DATABASE_URL: db.url });
    expect(noKafka.code).toBe(2);
    expect(noKafka.out).toMatch(/KAFKA_BROKERS is not set/);
  });

  it('status prints the relay backlog and parked events; replay applies parked events', async () => {
    await writeProbes(db.orm, { total: 3, aggregates: 1 });
    const id = randomUUID();
    await db.orm.em.fork().execute(
      `insert into event_dead_letter (consumer, event_id, event_type, envelope, error, attempts) values ('probe', ?, 'platform.probe', ?::jsonb, 'boom', 5)`,
      [id, JSON.stringify({ id, type: 'platform.probe', aggregateType: 'probe', aggregateId: 'dl', occurredAt: new Date().toISOString(), actorId: null, payload: { seq: 0 }, version: 1 })],
    );
    const status = await cli(['status'], { DATABASE_URL: db.url });
    expect(status.code).toBe(0);
    expect(status.out).toMatch(/transport:\s+embedded/);
    expect(status.out).toMatch(/relay backlog:\s+3 unsent/);
    expect(status.out).toMatch(/dead letters:\s+1 in table event_dead_letter/);
    const replay = await cli(['replay', '--only', 'probe'], { DATABASE_URL: db.url });
    expect(replay.out).toMatch(/replayed 1, parked again 0/);
    expect(await effectReport(db.orm)).toMatchObject({ total: 1 });
  });
});

kafkaSkipNotice('workers/src/main.test.ts (Kafka part)');

describe.skipIf(!kafkaAvailable)('worker pool on Kafka: /healthz, /metrics, status', () => {
  let db: TestDatabase;
  let k: TestKafka;
  beforeAll(async () => {
    [db, k] = await Promise.all([createTestDatabase(), useTestKafka()]);
  });
  afterAll(async () => {
    await db?.close();
    await k?.close();
  });

  it('serves health and Prometheus metrics (processed, lag, backlog) and status shows the lag per group', async () => {
    const settings = k.settings(2);
    const env = { KAFKA_BROKERS: k.brokers, KAFKA_TOPIC_PREFIX: settings.topicPrefix, KAFKA_PARTITIONS: '2' };
    const config = testConfig({ ...env, DATABASE_URL: db.url });
    const pool = await startWorkerPool({ config, orm: db.orm, log, consumers: selectConsumers(['probe']), concurrency: 2, port: 0 });
    const transport = new KafkaTransport(settings, log);
    await transport.start();
    const relay = new OutboxRelay(db.url, transport, log, { batchSize: 500, pollMs: 200 }, new EventMetrics());
    try {
      await pool.ready;
      await relay.start();
      await writeProbes(db.orm, { total: 300, aggregates: 10 });
      await waitFor(() => effectReport(db.orm), (r) => r.total >= 300, 30_000);
      const health = await fetch(`${pool.server!.url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ ok: true, consumers: ['probe'] });
      const metrics = await waitFor(
        async () => (await fetch(`${pool.server!.url}/metrics`)).text(),
        (m) => m.includes(`events_consumer_lag{group="${settings.topicPrefix}probe"} 0`),
        10_000,
      );
      expect(metrics).toMatch(/events_processed_total\{consumer="probe"\} 300/);
      expect(metrics).toMatch(/outbox_backlog 0/);
      expect(metrics).toMatch(/events_dead_lettered_total/);
      const status = await cli(['status'], { ...env, DATABASE_URL: db.url });
      expect(status.out).toMatch(new RegExp(`probe\\s+${settings.topicPrefix.replace(/\./g, '\\.')}probe\\s+0`));
    } finally {
      await relay.stop();
      await transport.stop();
      await pool.stop();
    }
  });
});
