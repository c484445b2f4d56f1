/**
 * PostgreSQL drops the platform's connections under write load (a restart, a failover, an operator's
 * pg_terminate_backend): the compiled launcher, as `npm start` runs it, against a database of its
 * own; four loops create schedule entries over REST while every backend of that database is
 * terminated 8 times, 0.7 s apart. The process must not exit, a request caught in a drop must fail
 * with a 503 that says so (never a 500), every acknowledged entry must be there, and the outbox
 * relay must resume (the queue drains).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/db.js';
import { api, loginToken } from '../test/http.js';
import { errorLines, startLauncher, type Launched } from '../test/launcher.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let db: TestDatabase;
let launched: Launched;
let base = '';

beforeAll(async () => {
  db = await createTestDatabase();
  launched = await startLauncher({ DATABASE_URL: db.url });
  base = launched.url;
}, 120_000);

afterAll(async () => {
  await launched?.stop();
  await db?.close();
});

describe('PostgreSQL drops every connection of the platform under write load', () => {
  it('no exit, 503s that say so, every acknowledged write present, the relay resumes', async () => {
    const token = await loginToken(base, 'staff');
    const acknowledged: number[] = [];
    const failures: { status: number; code?: string }[] = [];
    let writing = true;
    let n = 0;
    const loop = async () => {
      while (writing && !launched.exited()) {
        const i = n++;
        const r = await api(base, 'POST', '/schedules', {
          token,
          body: { title: `負荷 ${i}`, date: '2025-03-03', start_time: '09:00', end_time: '10:00', type: 'task' },
        }).catch((err: Error) => ({ status: 0, body: { code: err.message } }) as const);
        if (r.status === 201) acknowledged.push(r.body.schedule_id);
        else failures.push({ status: r.status, code: r.body?.code });
      }
    };
    const loops = Array.from({ length: 4 }, loop);

    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    onTestFinished(() => admin.end());
    const database = new URL(db.url).pathname.slice(1);
    let terminated = 0;
    for (let k = 0; k < 8; k++) {
      await sleep(700);
      const { rowCount } = await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`,
        [database],
      );
      terminated += rowCount ?? 0;
    }
    await sleep(1500); // writes go on after the last drop: the instance has reconnected
    writing = false;
    await Promise.all(loops);

    expect(launched.exited(), `the launcher exited; its output:\n${launched.output()}`).toBeNull();
    expect(terminated).toBeGreaterThan(8);
    expect(acknowledged.length).toBeGreaterThan(20);
    // A request caught in a drop is the database's unavailability, said as such; nothing else fails.
    for (const f of failures)
      expect(f, `errors logged:\n${errorLines(launched.output())}`).toEqual({
        status: 503,
        code: 'SERVICE_UNAVAILABLE',
      });

    const { rows } = await admin.query<{ n: number }>(
      `select count(*)::int as n from schedule where id = any($1::int[])`,
      [acknowledged],
    );
    expect(rows[0]!.n).toBe(acknowledged.length);
    // The relay resumed: every committed event left the queue.
    const deadline = Date.now() + 30_000;
    let queued = -1;
    while (Date.now() < deadline) {
      queued = (await admin.query<{ n: number }>(`select count(*)::int as n from outbox_event`)).rows[0]!.n;
      if (queued === 0) break;
      await sleep(200);
    }
    expect(queued).toBe(0);
    // And the instance serves as before.
    const after = await api(base, 'POST', '/schedules', {
      token,
      body: { title: '復旧後', date: '2025-03-04', start_time: '09:00', end_time: '10:00', type: 'task' },
    });
    expect(after.status).toBe(201);
  }, 120_000);
});
