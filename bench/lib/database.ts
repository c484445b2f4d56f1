/**
 * The database of a bench run: a fresh embedded PostgreSQL in a temp dir (stopped and removed at the
 * end), the committed migrations and the demo company applied as the app does on a first start.
 * Benches then add their data set-based (generate_series), never row by row.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig, startEmbeddedPostgres, openOrm, createLogger } from '@intranet/graph';
import { prepareDatabase } from '@intranet/graph/app';
import { onCleanup } from './procs.js';

export interface BenchDatabase {
  url: string;
  /** The run's temp dir (also the servers' DATA_DIR). */
  tmp: string;
  /** PostgreSQL's data directory (to find its processes for CPU accounting). */
  pgData: string;
}

/** `env`: more settings of the seeding (S3_*: the demo blog's files go to that store). */
export async function startBenchDatabase(env: Record<string, string> = {}): Promise<BenchDatabase> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'intranet-bench-'));
  fs.chmodSync(tmp, 0o755); // as root, initdb runs as a separate postgres user that must reach the data dir
  onCleanup(
    'temp dir',
    () => fs.rmSync(tmp, { recursive: true, force: true }),
    () => fs.rmSync(tmp, { recursive: true, force: true }),
  );
  const pgData = path.join(tmp, 'pg');
  const db = await startEmbeddedPostgres(pgData, 'intranet');
  onCleanup('embedded PostgreSQL', () => db.stop());
  const config = loadConfig({ DATABASE_URL: db.url, DATA_DIR: tmp, LOG_LEVEL: 'warn', SEED_DEMO: 'auto', ...env });
  const orm = await openOrm(db.url, 2);
  try {
    await prepareDatabase(config, orm, createLogger('warn'));
  } finally {
    await orm.close();
  }
  return { url: db.url, tmp, pgData };
}

/**
 * The environment of a bench's server children on `db`: production mode, the bench database, an
 * ephemeral port on loopback, no demo seed, a fixed session secret, glibc's fixed mmap threshold as in
 * production; `extra` adds or overrides.
 */
export function serverEnv(
  db: Pick<BenchDatabase, 'url' | 'tmp'>,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    NODE_ENV: 'production',
    DATABASE_URL: db.url,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: '0',
    SEED_DEMO: 'never',
    DATA_DIR: db.tmp,
    SESSION_SECRET: 'bench-session-secret-0123456789abcdef0123456789',
    // As `npm start`, `npm run workers` and the image run the platform (see the Dockerfile).
    MALLOC_MMAP_THRESHOLD_: '524288',
    ...extra,
  };
}

/** Runs `fn` with one connected client, then `analyze`s (fresh statistics for the planner). */
export async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const out = await fn(client);
    await client.query('analyze');
    return out;
  } finally {
    await client.end();
  }
}

/**
 * Bench employees `bench.<from>` … `bench.<to>` (the demo admin's password hash, Japanese names,
 * spread over every department and location, a few without). `retiredEvery` = n retires every
 * n-th one (0: all active); roles mostly 一般.
 */
export async function addEmployees(
  c: pg.Client,
  from: number,
  to: number,
  opts: { retiredEvery?: number } = {},
): Promise<void> {
  if (to < from) return;
  await c.query(
    `with d as (select array_agg(id order by id) as ids from department),
          l as (select array_agg(id order by id) as ids from location),
          h as (select password_hash from employee where login_id = 'admin')
     insert into employee (name, email, login_id, password_hash, role, status, department_id, location_id)
     select 'ベンチ ' || (array['翔太','美咲','大輔','陽菜','健一','結衣','拓海'])[1 + g % 7] || g,
            'bench' || g || '@example.co.jp', 'bench.' || g, h.password_hash,
            (case when g % 50 = 0 then 'ADMIN' when g % 37 = 0 then 'DEVICE_ADMIN' when g % 41 = 0 then 'SYSTEM_ADMIN' else 'GENERAL' end)::employee_role,
            (case when $3::int > 0 and g % $3::int = $3::int - 1 then 'RETIRED' else 'ACTIVE' end)::employee_status,
            case when g % 53 = 0 then null else d.ids[1 + g % array_length(d.ids, 1)] end,
            case when g % 61 = 0 then null else l.ids[1 + g % array_length(l.ids, 1)] end
       from generate_series($1::int, $2::int) g, d, l, h`,
    [from, to, opts.retiredEvery ?? 0],
  );
}

/** Active employees up to `active` (new ones all active); returns the counts. */
export async function ensureActiveEmployees(c: pg.Client, active: number): Promise<{ total: number; active: number }> {
  const counts = async () =>
    (
      await c.query<{ total: number; active: number }>(
        `select count(*)::int as total, count(*) filter (where status = 'ACTIVE')::int as active from employee`,
      )
    ).rows[0];
  const now = await counts();
  if (now.active < active) await addEmployees(c, now.total + 1, now.total + active - now.active);
  return counts();
}
