/** Test wiring of the google-sync worker: fresh database, employees, the fake Google, the consumer run by hand. */
import pino from 'pino';
import type { AppContext } from '@intranet/graph/app';
import {
  createTestDatabase,
  testConfig,
  type TestDatabase,
  startFakeGoogle,
  type FakeGoogle,
} from '@intranet/graph/testing';
import { ConsumerRunner, EventMetrics, TableDeadLetters, toEnvelope } from '@intranet/graph/events';
import { ScheduleService } from '@intranet/graph/areas';
import type { Config } from '@intranet/graph';
import { createGoogleSync, type GoogleSync } from './index.js';

export const SECRET = Buffer.from('0123456789abcdef0123456789abcdef-test-secret');

export function googleEnv(fake: FakeGoogle, extra: Record<string, string> = {}): Record<string, string> {
  return {
    GOOGLE_CLIENT_ID: 'test-client.apps.googleusercontent.com',
    GOOGLE_CLIENT_SECRET: 'test-secret',
    GOOGLE_CALENDAR_API_URL: fake.rootUrl,
    GOOGLE_OAUTH_TOKEN_URL: fake.tokenUrl,
    GOOGLE_OAUTH_REVOKE_URL: fake.revokeUrl,
    GOOGLE_OAUTH_AUTH_URL: fake.authUrl,
    GOOGLE_RETRY_BASE_MS: '2',
    GOOGLE_RETRY_MAX_MS: '20',
    GOOGLE_QUOTA_PER_SECOND: '100000',
    GOOGLE_QUOTA_BURST: '100000',
    GOOGLE_SYNC_INTERVAL_SECONDS: '0',
    ...extra,
  };
}

export interface Harness {
  db: TestDatabase;
  fake: FakeGoogle;
  config: Config;
  sync: GoogleSync;
  runner: ConsumerRunner;
  schedules: ScheduleService;
  users: { id: number; email: string }[];
  ctx(userId: number): AppContext;
  connect(userId: number): Promise<void>;
  /** Delivers every unsent outbox event to the consumer (in order), like the relay; returns how many. */
  deliver(): Promise<number>;
  deadLetters(): Promise<number>;
  close(): Promise<void>;
}

export async function startHarness(
  opts: { users?: number; env?: Record<string, string>; maxAttempts?: number } = {},
): Promise<Harness> {
  const db = await createTestDatabase();
  const fake = await startFakeGoogle();
  const config = testConfig(googleEnv(fake, opts.env));
  const log = pino({ level: process.env.TEST_LOG ?? 'silent' });
  const sync = createGoogleSync({ config, log, secret: SECRET });
  sync.shareQuota(db.orm); // as startBackgroundJobs does in every process that runs it
  const runner = new ConsumerRunner(
    sync.consumer,
    db.orm,
    new TableDeadLetters(db.orm),
    { maxAttempts: opts.maxAttempts ?? 8, baseMs: 1, maxMs: 10 },
    new EventMetrics(),
    log,
  );
  const em = db.orm.em.fork();
  const users: { id: number; email: string }[] = [];
  for (let i = 0; i < (opts.users ?? 2); i++) {
    const email = `user${i}@example.co.jp`;
    const [r] = await em.execute(
      `insert into employee (name, email, login_id, password_hash, role) values (?, ?, ?, 'x', 'GENERAL') returning id`,
      [`社員${i}`, email, `user${i}`],
    );
    users.push({ id: r.id, email });
  }
  const schedules = new ScheduleService();
  const h: Harness = {
    db,
    fake,
    config,
    sync,
    runner,
    schedules,
    users,
    ctx: (userId) =>
      ({
        em: db.orm.em.fork(),
        user: { id: userId, name: `社員`, role: 'GENERAL', departmentId: null, sessionId: 's' },
      }) as unknown as AppContext,
    async connect(userId) {
      const u = users.find((x) => x.id === userId)!;
      const code = fake.issueCode(u.email);
      const { tokens } = await sync.engine.connections.gateway.oauth('http://localhost/cb').getToken(code);
      await db.orm.em
        .fork()
        .execute(
          `insert into google_connection (employee_id, google_email, refresh_token_enc, scope, sync_requested_at) values (?, ?, ?, ?, now())`,
          [userId, u.email, sync.engine.connections.cipher.encrypt(tokens.refresh_token!, userId), tokens.scope ?? ''],
        );
    },
    async deliver() {
      let total = 0;
      for (;;) {
        const e = db.orm.em.fork();
        const rows: Record<string, unknown>[] = await e.execute(`select * from outbox_event order by seq limit 500`);
        if (!rows.length) return total;
        const envs = rows.map((r: Record<string, unknown>) =>
          toEnvelope({
            id: r.id,
            type: r.type,
            aggregateType: r.aggregate_type,
            aggregateId: r.aggregate_id,
            occurredAt: r.occurred_at,
            actorId: r.actor_id,
            payload: r.payload,
            version: r.version,
          } as never),
        );
        for (const env of envs) await runner.process([env]);
        // As the relay does: the delivered rows leave the queue for the archive.
        await e.execute(
          `with d as (delete from outbox_event where seq = any(?::bigint[]) returning *)
           insert into outbox_sent (id, seq, type, aggregate_type, aggregate_id, occurred_at, actor_id, payload, version, sent_at)
           select id, seq, type, aggregate_type, aggregate_id, occurred_at, actor_id, payload, version, now() from d`,
          [`{${rows.map((r) => r.seq).join(',')}}`],
        );
        total += rows.length;
      }
    },
    async deadLetters() {
      const [r] = await db.orm.em
        .fork()
        .execute(`select count(*)::int as n from event_dead_letter where consumer = 'google-sync'`);
      return r.n;
    },
    async close() {
      await fake.close();
      await db.close();
    },
  };
  return h;
}
