/**
 * PostgreSQL drops the platform's connections under write load (a restart, a failover, an operator's
 * pg_terminate_backend): the compiled launcher, as `npm start` runs it, against a database of its
 * own; four loops create schedule entries over REST while every backend of that database is
 * terminated 8 times, 0.7 s apart. The process must not exit, a request caught in a drop must fail
 * with a 503 that says so (never a 500), every acknowledged entry must be there, and the outbox
 * relay must resume (the queue drains).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/db.js';
import { api, loginToken } from '../test/http.js';
import { freePort } from './net.js';

const root = path.resolve(import.meta.dirname, '../../..');
const launcher = path.join(root, 'dist/bin/start.js');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let db: TestDatabase;
let child: ChildProcess;
let out = '';
let base = '';
let exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;

beforeAll(async () => {
  db = await createTestDatabase();
  const port = await freePort();
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATABASE_URL: db.url,
    HOST: '127.0.0.1',
    PORT: String(port),
    METRICS_PORT: String(await freePort()),
    METRICS_HOST: '127.0.0.1',
    SEED_DEMO: 'auto',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'development',
  };
  delete env.KAFKA_BROKERS;
  child = spawn(process.execPath, [launcher], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  child.once('exit', (code, signal) => (exited = { code, signal }));
  base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (exited) throw new Error(`the launcher exited during start:\n${out}`);
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`the launcher did not start:\n${out}`);
    await sleep(300);
  }
}, 120_000);

afterAll(async () => {
  if (child && !exited) {
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([gone, sleep(15_000).then(() => child.kill('SIGKILL'))]);
  }
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
      while (writing && !exited) {
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
      const { rowCount } = await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`, [database]);
      terminated += rowCount ?? 0;
    }
    await sleep(1500); // writes go on after the last drop: the instance has reconnected
    writing = false;
    await Promise.all(loops);

    expect(exited, `the launcher exited; its output:\n${out}`).toBeNull();
    expect(terminated).toBeGreaterThan(8);
    expect(acknowledged.length).toBeGreaterThan(20);
    // A request caught in a drop is the database's unavailability, said as such; nothing else fails.
    for (const f of failures) expect(f, `errors logged:\n${errorLines(out)}`).toEqual({ status: 503, code: 'SERVICE_UNAVAILABLE' });

    const { rows } = await admin.query<{ n: number }>(`select count(*)::int as n from schedule where id = any($1::int[])`, [acknowledged]);
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
    const after = await api(base, 'POST', '/schedules', { token, body: { title: '復旧後', date: '2025-03-04', start_time: '09:00', end_time: '10:00', type: 'task' } });
    expect(after.status).toBe(201);
  }, 120_000);
});

/** The error-level lines of the launcher's log (a 500's cause), first ones. */
function errorLines(log: string): string {
  return log
    .split('\n')
    .filter((l) => l.startsWith('{"level":50') || l.startsWith('{"level":60'))
    .slice(0, 5)
    .join('\n');
}
