import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@intranet/graph/testing';
import { effectReport, writeProbes } from '@intranet/graph/events';
import { defaultConsumerNames, selectConsumers } from './registry.js';
import { cli, closedPort, parkProbe } from './main.test-support.js';

describe('workers CLI (embedded mode)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('rejects unknown consumers and refuses to run a pool without Kafka, saying where the pool gets its database', async () => {
    const bad = await cli(['--only', 'nope'], { DATABASE_URL: db.url });
    expect(bad.code).toBe(64);
    expect(bad.out).toMatch(/unknown consumer\(s\) nope; known: probe, google-sync, import, statistics/);
    const noKafka = await cli([], { DATABASE_URL: db.url });
    expect(noKafka.code).toBe(2);
    expect(noKafka.out).toMatch(/KAFKA_BROKERS is not set/);
    expect(noKafka.out).not.toMatch(/\(and DATABASE_URL\)/);
    expect(noKafka.out).toMatch(
      /uses DATABASE_URL,\s+or, without it, joins the embedded PostgreSQL that `npm start` runs on DATA_DIR/,
    );
  }, 60_000);

  it('statistics rebuild recomputes the blog statistics rollups and says how many rows; without its action it is a usage error', async () => {
    const ok = await cli(['statistics', 'rebuild'], { DATABASE_URL: db.url });
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/statistics: rebuilt \d+ post-day and \d+ employee-post-day rows in \d+ ms/);
    const bare = await cli(['statistics'], { DATABASE_URL: db.url });
    expect(bare.code).toBe(64);
    expect(bare.out.split('\n')[0]).toBe('workers: statistics takes one action: rebuild');
  }, 60_000);

  it('usage errors are one line and the usage, exit 64: unknown options, unknown commands, bad --ids/--port', async () => {
    const bogus = await cli(['--bogus'], { DATABASE_URL: db.url });
    expect(bogus.code).toBe(64);
    expect(bogus.out.split('\n')[0]).toBe('workers: unknown option: --bogus');
    expect(bogus.out).toMatch(/^usage: npm run workers/m);
    expect(bogus.out).not.toMatch(/ERR_PARSE_ARGS|\n\s+at /);
    const cmd = await cli(['frobnicate'], { DATABASE_URL: db.url });
    expect(cmd.code).toBe(64);
    expect(cmd.out.split('\n')[0]).toBe('workers: unknown command: frobnicate');
    expect(cmd.out).toMatch(/^usage: /m);
    // The usage says what --ids applies to.
    expect(cmd.out).toMatch(/--ids 1,2\s+replay only: ids of event_dead_letter rows .*embedded mode/s);
    const ids = await cli(['replay', '--ids', 'all'], { DATABASE_URL: db.url });
    expect(ids.code).toBe(64);
    expect(ids.out).toMatch(/--ids takes event_dead_letter row ids/);
    const port = await cli(['--port', 'x'], { DATABASE_URL: db.url });
    expect(port.code).toBe(64);
  }, 60_000);

  it('refuses replay --ids with Kafka (exit 64) rather than replaying everything', async () => {
    const r = await cli(['replay', '--ids', '99'], {
      DATABASE_URL: db.url,
      KAFKA_BROKERS: `127.0.0.1:${await closedPort()}`,
    });
    expect(r.code).toBe(64);
    expect(r.out).toMatch(/--ids selects rows of the event_dead_letter table \(embedded mode/);
  });

  it('status prints the relay backlog and parked events; dead-letters lists them; replay applies parked events', async () => {
    await writeProbes(db.orm, { total: 3, aggregates: 1 });
    await parkProbe(db);
    // One event waiting in the retry queue after a failed attempt.
    await db.orm.em
      .fork()
      .execute(
        `insert into event_retry (consumer, event_id, aggregate, envelope, attempts, last_error, due_at) values ('probe', gen_random_uuid(), 'probe:w', '{}'::jsonb, 1, 'boom', now())`,
      );
    const status = await cli(['status'], { DATABASE_URL: db.url });
    expect(status.code).toBe(0);
    expect(status.out).toMatch(/transport:\s+embedded/);
    expect(status.out).toMatch(/relay backlog:\s+3 unsent/);
    expect(status.out).toMatch(/dead letters:\s+1 in table event_dead_letter, not yet replayed/);
    // lag: the 3 queued probes and the one waiting; parked 1; retrying 1. Other consumers: nothing.
    expect(status.out).toMatch(/lag\s+parked\s+retrying/);
    expect(status.out).toMatch(/probe\s+\(in-process\)\s+4\s+1\s+1$/m);
    expect(status.out).toMatch(/import\s+\(in-process\)\s+0\s+0\s+0$/m);
    // And why it waits.
    expect(status.out).toMatch(/^probe: event [0-9a-f-]{36} failed 1 time\(s\), next try in \d+\.\d s: boom$/m);
    const json = JSON.parse((await cli(['status', '--json'], { DATABASE_URL: db.url })).out) as {
      groups: { consumer: string; failing: unknown }[];
    };
    expect(json.groups.find((g) => g.consumer === 'probe')!.failing).toMatchObject({ attempts: 1, lastError: 'boom' });
    expect(json.groups.find((g) => g.consumer === 'import')!.failing).toBeNull();
    await db.orm.em.fork().execute(`delete from event_retry`);

    const list = await cli(['dead-letters', '--json'], { DATABASE_URL: db.url });
    expect(list.code).toBe(0);
    const parsed = JSON.parse(list.out) as { events: Record<string, unknown>[] };
    expect(parsed.events).toHaveLength(1);
    expect(parsed.events[0]).toMatchObject({
      id: expect.stringMatching(/^\d+$/),
      consumer: 'probe',
      type: 'platform.probe',
      error: 'boom',
      attempts: 5,
    });
    expect(Date.parse(String(parsed.events[0]!.parkedAt))).toBeGreaterThan(0);
    const text = await cli(['dead-letters', '--only', 'probe'], { DATABASE_URL: db.url });
    expect(text.out).toMatch(/1 parked event\(s\) not yet replayed in table event_dead_letter/);
    expect(text.out).toMatch(new RegExp(`^${parsed.events[0]!.id}\\s+probe\\s+platform\\.probe\\s+5\\s+.*boom$`, 'm'));
    expect((await cli(['dead-letters', '--only', 'import'], { DATABASE_URL: db.url })).out).toMatch(/^0 parked event/);

    const replay = await cli(['replay', '--only', 'probe', '--ids', String(parsed.events[0]!.id)], {
      DATABASE_URL: db.url,
    });
    expect(replay.out).toMatch(/replayed 1, parked again 0/);
    expect(await effectReport(db.orm)).toMatchObject({ total: 1 });
    expect((await cli(['dead-letters'], { DATABASE_URL: db.url })).out).toMatch(/^0 parked event/);
  }, 90_000);

  it('leaves the probe (the backbone self-test) out of the default set under NODE_ENV=production', async () => {
    expect(defaultConsumerNames({ production: true })).not.toContain('probe');
    expect(defaultConsumerNames({ production: false })).toContain('probe');
    expect(selectConsumers(['probe'], {}, { production: true }).map((c) => c.name)).toEqual(['probe']);
    const prod = await cli(['status'], {
      DATABASE_URL: db.url,
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(40),
    });
    expect(prod.code).toBe(0);
    expect(prod.out).toMatch(/^google-sync\s/m);
    expect(prod.out).not.toMatch(/^probe\s/m);
  }, 60_000);

  it('status with an unreachable broker prints the database part and one line for Kafka, exits non-zero without waiting on the broker', async () => {
    const port = await closedPort();
    const r = await cli(['status'], { DATABASE_URL: db.url, KAFKA_BROKERS: `127.0.0.1:${port}`, LOG_LEVEL: 'info' });
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/relay backlog:\s+\d+ unsent/);
    expect(r.out).toMatch(new RegExp(`^kafka:\\s+unreachable \\(brokers 127\\.0\\.0\\.1:${port}\\)`, 'm'));
    expect(r.out).toMatch(/dead letters:\s+unknown/);
    expect(r.out).not.toMatch(/\n\s+at |KafkaJS|"level"/);
    // No wall-clock assertion (the machine may be busy): a status that waited on the broker's retries
    // instead of giving up would run into this test's limit.
  }, 60_000);
});
