import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createLogger } from '../platform/logger.js';
import { OutboxRelay } from '../platform/events/relay.js';
import type { EventTransport } from '../platform/events/transport.js';
import type { EventEnvelope } from '@intranet/schema/events';
import { databaseMigratedTo } from '../test/db.js';

/** Migration20261122080000_outbox_queue on a database that already has events, sent and unsent. */
let orm: MikroORM;
let db: Awaited<ReturnType<typeof databaseMigratedTo>>;
beforeAll(async () => {
  db = await databaseMigratedTo('Migration20261122070000_google_attendees');
  orm = db.orm;
});
afterAll(async () => db?.close());

describe('outbox queue migration', () => {
  it('moves sent events to outbox_sent, keeps unsent ones queued, and the relay carries on', async () => {
    const em = orm.em.fork();
    const ev = (i: number, sent: string | null) =>
      em.execute(
        `insert into outbox_event (id, type, aggregate_type, aggregate_id, occurred_at, actor_id, payload, version, sent_at)
         values (?, 'platform.probe', 'probe', 'a', now(), null, ?::jsonb, 1, ?)`,
        [randomUUID(), JSON.stringify({ seq: i }), sent],
      );
    for (let i = 1; i <= 5; i++) await ev(i, i <= 3 ? `2026-11-0${i}T00:00:00Z` : null);
    await em.execute(`insert into event_consumed (consumer, event_id) values ('probe', ?)`, [randomUUID()]);

    expect((await orm.getMigrator().up({ to: 'Migration20261122080000_outbox_queue' })).map((m) => m.name)).toEqual([
      'Migration20261122080000_outbox_queue',
    ]);

    const queued = await em.execute(`select seq::int, payload->>'seq' as i from outbox_event order by seq`);
    expect(queued).toEqual([
      { seq: 4, i: '4' },
      { seq: 5, i: '5' },
    ]);
    const sent = await em.execute(
      `select seq::int, to_char(sent_at at time zone 'UTC', 'YYYY-MM-DD') as day from outbox_sent order by seq`,
    );
    expect(sent).toEqual([1, 2, 3].map((i) => ({ seq: i, day: `2026-11-0${i}` })));
    const [all] = await em.execute(`select count(*)::int as n, count(sent_at)::int as sent from outbox_all`);
    expect(all).toEqual({ n: 5, sent: 3 });
    const indexes = await em.execute(
      `select tablename, indexname, indexdef ~ 'USING brin' as brin from pg_indexes where tablename in ('outbox_event', 'outbox_sent', 'event_consumed') order by 1, 2`,
    );
    expect(indexes).toEqual([
      { tablename: 'event_consumed', indexname: 'event_consumed_at_brin', brin: true },
      { tablename: 'event_consumed', indexname: 'event_consumed_pkey', brin: false },
      { tablename: 'outbox_event', indexname: 'outbox_event_pkey', brin: false },
      { tablename: 'outbox_sent', indexname: 'outbox_sent_at_brin', brin: true },
    ]);
    const [pk] = await em.execute(
      `select array_agg(a.attname::text) as cols from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey) where i.indrelid = 'outbox_event'::regclass and i.indisprimary`,
    );
    expect(pk.cols).toEqual(['seq']);

    // New events continue the sequence; the relay moves them with the old unsent ones, in order.
    await expect(ev(6, null)).rejects.toThrow(/sent_at/);
    await em.execute(
      `insert into outbox_event (id, type, aggregate_type, aggregate_id, occurred_at, actor_id, payload, version) values (?, 'platform.probe', 'probe', 'a', now(), null, '{"seq":6}', 1)`,
      [randomUUID()],
    );
    // Today's relay reads columns later migrations add (the event's xid): bring the schema up to date first.
    await orm.getMigrator().up();
    const published: EventEnvelope[] = [];
    const transport: EventTransport = {
      kind: 'embedded',
      publish: async (b) => void published.push(...b),
      start: async () => undefined,
      stop: async () => undefined,
    };
    const relay = new OutboxRelay(db.url, transport, createLogger('silent'), { batchSize: 10, pollMs: 1000 });
    try {
      expect(await relay.relayOnce()).toBe(3);
      expect(published.map((e) => e.payload)).toEqual([{ seq: 4 }, { seq: 5 }, { seq: 6 }]);
      expect(await relay.backlog()).toBe(0);
      const [s] = await em.execute(`select count(*)::int as n, max(seq)::int as top from outbox_sent`);
      expect(s).toEqual({ n: 6, top: 6 });
    } finally {
      await relay.stop();
    }
  });
});
