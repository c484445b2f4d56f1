/**
 * Two graph instances on one database with Kafka (each with its own live consumer group, as when
 * several servers run behind a load balancer): a change written through instance 1 drops the
 * grid pages instance 2 had cached, through the event instance 2's live feed consumes; and while
 * that event cannot reach it (no relay publishes), instance 2's cache serves nothing.
 */
import fs from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testConfig, type TestDatabase } from '../../test/db.js';
import { gql, loginToken } from '../../test/http.js';
import { createLogger } from '../../platform/logger.js';
import { startGraph, type Graph } from '../../platform/bootstrap.js';
import {
  kafkaAvailable,
  kafkaSkipNotice,
  useTestKafka,
  type TestKafka,
} from '../../platform/events/kafka/test-broker.js';
import { waitFor } from '../../platform/events/test-support.js';
import { LANES, RELAY_LOCK_SPACE } from '../../platform/events/relay.js';

kafkaSkipNotice('graph/src/modules/schedules/schedule.grid-cache.kafka.test.ts');

const FROM = '2031-04-07';
const TO = '2031-04-13';
const GRID = `query($from: String!, $to: String!) { scheduleGrid(from: $from, to: $to, offset: 0, limit: 200) { people { id entries { id title busyOnly } } } }`;

describe.skipIf(!kafkaAvailable)('week-grid cache across instances (Kafka)', () => {
  let db: TestDatabase;
  let k: TestKafka;
  const graphs: Graph[] = [];
  const dirs: string[] = [];

  beforeAll(async () => {
    [db, k] = await Promise.all([createTestDatabase(), useTestKafka()]);
    const prefix = k.settings().topicPrefix;
    for (let i = 0; i < 2; i++) {
      // The first instance seeds the demo company; the second finds it there.
      const config = testConfig({
        KAFKA_BROKERS: k.brokers,
        KAFKA_TOPIC_PREFIX: prefix,
        KAFKA_PARTITIONS: '2',
        RELAY_POLL_MS: '200',
      });
      dirs.push(config.dataDir);
      graphs.push(await startGraph(config, createLogger('silent'), db.url));
    }
    await Promise.all(graphs.map((g) => g.events.liveFeed!.ready));
  });
  afterAll(async () => {
    for (const g of graphs.reverse()) await g.stop();
    await db?.close();
    await k?.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('an entry created, edited and deleted on instance 1 shows on instance 2, whose page was cached', async () => {
    const [one, two] = graphs.map((g) => g.server.url) as [string, string];
    const admin = await loginToken(one, 'admin');
    const staff = await loginToken(two, 'staff');
    const adminId = (await gql(one, `{ me { id } }`, {}, { token: admin })).body.data.me.id as number;
    const read = async () => {
      const r = await gql(two, GRID, { from: FROM, to: TO }, { token: staff });
      expect(r.body.errors).toBeUndefined();
      return (
        r.body.data.scheduleGrid.people as {
          id: number;
          entries: { id: number; title: string | null; busyOnly: boolean }[];
        }[]
      ).find((x) => x.id === adminId)!.entries;
    };
    const cacheOfTwo = graphs[1]!.services.scheduleGridCache;

    await read();
    const hits = cacheOfTwo.stats().hits;
    expect(await read()).toEqual([]);
    expect(cacheOfTwo.stats().hits).toBe(hits + 1); // instance 2 answers from its cache

    const created = await gql(
      one,
      `mutation($i: ScheduleInput!) { createSchedule(input: $i) { id version } }`,
      { i: { title: '全社朝会', date: FROM, startTime: '09:00', endTime: '09:30', syncGoogle: false } },
      { token: admin },
    );
    expect(created.body.errors).toBeUndefined();
    const { id, version } = created.body.data.createSchedule;
    await waitFor(read, (entries) => entries.some((e) => e.id === id && e.title === '全社朝会'), 60_000);

    const edited = await gql(
      one,
      `mutation($id: Int!, $i: ScheduleInput!) { updateSchedule(id: $id, input: $i) { id } }`,
      {
        id,
        i: {
          title: '全社朝会',
          date: FROM,
          startTime: '09:00',
          endTime: '09:30',
          syncGoogle: false,
          isPrivate: true,
          version,
        },
      },
      { token: admin },
    );
    expect(edited.body.errors).toBeUndefined();
    await waitFor(read, (entries) => entries.some((e) => e.id === id && e.busyOnly && e.title === null), 60_000);

    expect(
      (await gql(one, `mutation($id: Int!) { deleteSchedule(id: $id) }`, { id }, { token: admin })).body.errors,
    ).toBeUndefined();
    await waitFor(read, (entries) => !entries.some((e) => e.id === id), 60_000);
  }, 180_000);

  it('while a write on instance 1 waits unpublished, instance 2 answers from the database, not its cache; once published, the cache serves again', async () => {
    const [one, two] = graphs.map((g) => g.server.url) as [string, string];
    const admin = await loginToken(one, 'admin');
    const staff = await loginToken(two, 'staff');
    const cacheOfTwo = graphs[1]!.services.scheduleGridCache;
    await waitFor(
      async () => graphs[1]!.events.freshness.current,
      (fresh) => fresh,
      30_000,
    );
    const titles = async () => {
      const r = await gql(two, GRID, { from: FROM, to: TO }, { token: staff });
      expect(r.body.errors).toBeUndefined();
      return (r.body.data.scheduleGrid.people as { entries: { title: string | null }[] }[]).flatMap((p) =>
        p.entries.map((e) => e.title),
      );
    };
    await titles();
    const hits = cacheOfTwo.stats().hits;
    await titles();
    expect(cacheOfTwo.stats().hits).toBe(hits + 1);

    // Neither relay publishes: the test holds every lane's lock, so the event of the write below stays
    // in the outbox (as when the broker is down).
    const lanes = new pg.Client({ connectionString: db.url });
    await lanes.connect();
    await lanes.query(`select pg_advisory_lock(${RELAY_LOCK_SPACE}, l) from generate_series(0, ${LANES - 1}) l`);
    const created = await gql(
      one,
      `mutation($i: ScheduleInput!) { createSchedule(input: $i) { id } }`,
      { i: { title: '未配信の予定', date: FROM, startTime: '10:00', endTime: '10:30', syncGoogle: false } },
      { token: admin },
    );
    expect(created.body.errors).toBeUndefined();
    await waitFor(
      async () => graphs[1]!.events.freshness.current,
      (fresh) => !fresh,
      30_000,
    );
    expect(await titles()).toContain('未配信の予定');
    expect(cacheOfTwo.stats().bypassed).toBeGreaterThan(0);

    await lanes.end(); // the locks go with the session: the relays publish again
    await waitFor(
      async () => graphs[1]!.events.freshness.current,
      (fresh) => fresh,
      60_000,
    );
    await titles();
    const again = cacheOfTwo.stats().hits;
    expect(await titles()).toContain('未配信の予定');
    expect(cacheOfTwo.stats().hits).toBe(again + 1);
  }, 180_000);
});
