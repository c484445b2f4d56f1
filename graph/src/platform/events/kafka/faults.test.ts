/**
 * Fault tests on a real Kafka broker and a real PostgreSQL: 10,000 events each, published while
 * (a) the broker is stopped and restarted, (b) a worker process is killed with SIGKILL mid-batch,
 * (c) a relay process is killed with SIGKILL mid-claim; (d) a graph instance and a relay start while
 * the broker is down. Afterwards every committed event has had
 * its effect exactly once, in order per aggregate, and nothing from a rolled-back transaction
 * was published.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../../../../../scripts/kafka/kafka.js';
import { createTestDatabase, type TestDatabase } from '../../../test/db.js';
import { createLogger } from '../../logger.js';
import { OutboxRelay } from '../relay.js';
import { ConsumerRunner } from '../consumer.js';
import { KafkaConsumerGroup } from './consumer-group.js';
import { KafkaDeadLetters } from './dead-letters.js';
import { KafkaTransport } from './transport.js';
import type { KafkaSettings } from './client.js';
import { kafkaAvailable, kafkaSkipNotice, useTestKafka, type TestKafka } from './test-broker.js';
import { EventMetrics } from '../metrics.js';
import { ProbeConsumer, effectReport, waitFor, writeProbes } from '../test-support.js';
import { workersCli } from '../../../test/compiled.js';
import { startLauncher } from '../../../test/launcher.js';

const log = createLogger('silent');
const TOTAL = 10_000;
kafkaSkipNotice('graph/src/platform/events/kafka/faults.test.ts');

interface Proc {
  child: ChildProcess;
  output: () => string;
}

function spawnWorkers(args: string[], env: Record<string, string>): Proc {
  let out = '';
  const child = spawn(process.execPath, [workersCli, ...args], {
    cwd: repoRoot,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return { child, output: () => out };
}

async function kill(p: Proc, signal: NodeJS.Signals): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  const exited = new Promise((r) => p.child.once('exit', r));
  p.child.kill(signal);
  await exited;
}

describe.skipIf(!kafkaAvailable)('fault tolerance, real Kafka + PostgreSQL, 10,000 events each', () => {
  let db: TestDatabase;
  let settings: KafkaSettings;
  const cleanup: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.close();
  });
  beforeEach(async () => {
    await db.orm.em
      .fork()
      .execute(`truncate outbox_event, outbox_sent, event_consumed, event_dead_letter, event_probe_effect`);
    return async () => {
      for (const c of cleanup.splice(0).reverse()) await c().catch(() => undefined);
    };
  });

  const childEnv = (k: TestKafka) => ({
    DATABASE_URL: db.url,
    KAFKA_BROKERS: k.brokers,
    KAFKA_TOPIC_PREFIX: settings.topicPrefix,
    KAFKA_PARTITIONS: String(settings.partitions),
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    EVENT_RETRY_BASE_MS: '20',
    RELAY_BATCH_SIZE: '1000',
    RELAY_POLL_MS: '200',
  });

  async function inProcessRelay(s: KafkaSettings) {
    const transport = new KafkaTransport(s, log);
    await transport.start();
    const relay = new OutboxRelay(db.url, transport, log, { batchSize: 1000, pollMs: 200 }, new EventMetrics());
    await relay.start();
    cleanup.push(async () => {
      await relay.stop();
      await transport.stop();
    });
    return relay;
  }

  async function inProcessConsumer(s: KafkaSettings) {
    const transport = new KafkaTransport(s, log);
    const dead = new KafkaDeadLetters(transport.kafka, s);
    const runner = new ConsumerRunner(
      new ProbeConsumer(),
      db.orm,
      dead,
      { maxAttempts: 3, baseMs: 20, maxMs: 200 },
      new EventMetrics(),
      log,
    );
    const g = new KafkaConsumerGroup(transport.kafka, s, runner, log, { concurrency: 2 });
    await g.start();
    cleanup.push(async () => {
      await g.stop();
      await dead.close();
    });
    return g;
  }

  async function verify(committed: string[], rolledBack: string[]) {
    const report = await waitFor(
      () => effectReport(db.orm),
      (r) => r.distinct >= committed.length,
      90_000,
      200,
    );
    await new Promise((r) => setTimeout(r, 500)); // late duplicates would show up now
    expect(await effectReport(db.orm)).toEqual({
      total: committed.length,
      distinct: committed.length,
      duplicates: 0,
      orderViolations: 0,
    });
    expect(report.distinct).toBe(committed.length);
    const [missing] = await db.orm.em
      .fork()
      .execute(
        `select count(*)::int as n from unnest(?::uuid[]) as c(id) where not exists (select 1 from event_probe_effect e where e.event_id = c.id)`,
        [`{${committed.join(',')}}`],
      );
    expect(missing.n).toBe(0);
    expect(rolledBack.length).toBeGreaterThan(0);
    const [leaked] = await db.orm.em
      .fork()
      .execute(`select count(*)::int as n from event_probe_effect where event_id = any(?::uuid[])`, [
        `{${rolledBack.join(',')}}`,
      ]);
    expect(leaked.n).toBe(0);
    const [unsent] = await db.orm.em.fork().execute(`select count(*)::int as n from outbox_event`);
    expect(unsent.n).toBe(0);
  }

  it('(a) the broker is stopped and restarted mid-stream', async () => {
    const k = await useTestKafka({ own: true });
    cleanup.push(() => k.close());
    settings = k.settings(4);
    await inProcessRelay(settings);
    await (
      await inProcessConsumer(settings)
    ).ready;
    const rolledBack: string[] = [];
    let outage: Promise<void> | undefined;
    const committed = await writeProbes(db.orm, {
      total: TOTAL,
      aggregates: 100,
      perTx: 50,
      concurrency: 4,
      rollbackEvery: 9,
      rolledBack,
      onCommit: async (n) => {
        if (n >= 3000 && !outage) {
          outage = (async () => {
            await k.own!.stop();
            await new Promise((r) => setTimeout(r, 2000));
            await k.own!.restart();
          })();
        }
        // Keep writing during the outage, but slowly enough that it overlaps the stream.
        if (outage && n < 6000) await new Promise((r) => setTimeout(r, 5));
      },
    });
    await outage;
    await verify(committed, rolledBack);
  }, 180_000);

  it('(b) a worker process is killed with SIGKILL mid-batch; another takes over', async () => {
    const k = await useTestKafka();
    cleanup.push(() => k.close());
    settings = k.settings(4);
    await inProcessRelay(settings);
    const env = childEnv(k);
    const w1 = spawnWorkers(['--only', 'probe', '--concurrency', '2', '--port', '0'], env);
    cleanup.push(() => kill(w1, 'SIGKILL'));
    const rolledBack: string[] = [];
    const writing = writeProbes(db.orm, {
      total: TOTAL,
      aggregates: 100,
      perTx: 50,
      concurrency: 4,
      rollbackEvery: 9,
      rolledBack,
    });
    const at = await waitFor(
      () => effectReport(db.orm),
      (r) => r.total >= 2500,
      60_000,
      10,
    ).catch((err) => {
      throw new Error(`${(err as Error).message}\nworker output:\n${w1.output()}`);
    });
    await kill(w1, 'SIGKILL');
    expect(at.total).toBeLessThan(TOTAL);
    const w2 = spawnWorkers(['--only', 'probe', '--concurrency', '2', '--port', '0'], env);
    cleanup.push(() => kill(w2, 'SIGTERM'));
    const committed = await writing;
    try {
      await verify(committed, rolledBack);
    } catch (err) {
      throw new Error(`${(err as Error).message}\nworker output:\n${w2.output()}`, { cause: err });
    }
    // The survivor stops gracefully on SIGTERM.
    await kill(w2, 'SIGTERM');
    expect({ exitCode: w2.child.exitCode, signal: w2.child.signalCode }, `worker output:\n${w2.output()}`).toEqual({
      exitCode: 0,
      signal: null,
    });
  }, 180_000);

  it('(c) a relay process is killed with SIGKILL mid-claim; the other relays carry on', async () => {
    const k = await useTestKafka();
    cleanup.push(() => k.close());
    settings = k.settings(4);
    const env = { ...childEnv(k), RELAY_BATCH_SIZE: '500' };
    await (
      await inProcessConsumer(settings)
    ).ready;
    const r1 = spawnWorkers(['relay'], env);
    const r2 = spawnWorkers(['relay'], env);
    cleanup.push(() => kill(r1, 'SIGKILL'));
    cleanup.push(() => kill(r2, 'SIGTERM'));
    const rolledBack: string[] = [];
    const writing = writeProbes(db.orm, {
      total: TOTAL,
      aggregates: 100,
      perTx: 50,
      concurrency: 4,
      rollbackEvery: 9,
      rolledBack,
    });
    await waitFor(
      () => effectReport(db.orm),
      (r) => r.total >= 3000,
      60_000,
      10,
    ).catch((err) => {
      throw new Error(`${(err as Error).message}\nrelay output:\n${r1.output()}\n${r2.output()}`);
    });
    await kill(r1, 'SIGKILL');
    const r3 = spawnWorkers(['relay'], env);
    cleanup.push(() => kill(r3, 'SIGTERM'));
    const committed = await writing;
    await verify(committed, rolledBack);
  }, 180_000);

  it('(d) a graph instance and a relay started while the broker is down wait for it, then serve', async () => {
    const k = await useTestKafka({ own: true });
    cleanup.push(() => k.close());
    settings = k.settings(4);
    await k.own!.stop();
    const env = childEnv(k);
    const relay = spawnWorkers(['relay'], env);
    cleanup.push(() => kill(relay, 'SIGTERM'));
    const graph = startLauncher({ ...env, SEED_DEMO: 'never' });
    graph.then((g) => cleanup.push(() => g.stop())).catch(() => undefined);
    // Longer than kafkajs's own connection retries (~20 s), after which a start used to exit.
    const early = await Promise.race([
      graph.then(
        () => 'served without Kafka',
        (err: Error) => err.message,
      ),
      new Promise((r) => setTimeout(() => r('waiting'), 25_000)),
    ]);
    expect(early).toBe('waiting');
    expect(relay.child.exitCode, relay.output()).toBeNull();
    await k.own!.restart();
    const g = await graph;
    expect(relay.child.exitCode, relay.output()).toBeNull();
    expect(g.exited()).toBeNull();
    expect(g.output()).toContain('Kafka is not reachable; trying again');
  }, 180_000);

  it('(e) /readyz says the broker is gone within seconds, answering within a second each time, and ready again after', async () => {
    const k = await useTestKafka({ own: true });
    cleanup.push(() => k.close());
    settings = k.settings(4);
    const g = await startLauncher({ ...childEnv(k), SEED_DEMO: 'never' });
    cleanup.push(() => g.stop());
    const ready = async () => {
      const started = Date.now();
      const r = await fetch(`${g.url}/readyz`);
      return {
        status: r.status,
        body: (await r.json()) as { status: string; reasons: string[] },
        ms: Date.now() - started,
      };
    };
    const until = async (want: number, ms: number) => {
      const deadline = Date.now() + ms;
      let last = await ready();
      while (last.status !== want && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 500));
        last = await ready();
      }
      return last;
    };
    expect((await until(200, 30_000)).body.status).toBe('ready');
    await k.own!.stop();
    const down = await until(503, 15_000);
    expect(down.body.status).toBe('degraded');
    expect(down.body.reasons.join('\n')).toMatch(/liveFeed/);
    expect(down.ms).toBeLessThan(2_500);
    // The metrics answer within a second or so from what is known, the broker's state among them.
    const scrapeStarted = Date.now();
    const scrape = await (await fetch(`${g.metricsUrl}/metrics`)).text();
    expect(Date.now() - scrapeStarted).toBeLessThan(2_500);
    expect(scrape).toMatch(/^events_broker_up 0$/m);
    // Healthy still: the process and its database answer (an orchestrator must not restart it for the broker).
    expect((await fetch(`${g.url}/healthz`)).status).toBe(200);
    await k.own!.restart();
    expect((await until(200, 60_000)).body.status).toBe('ready');
  }, 180_000);
});
