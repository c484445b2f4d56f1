/**
 * The platform as `npm start` runs it, in a child process of the soak bench: the compiled launcher
 * (dist/bin/start.js, built by `npm run bench`) with the same node flags and glibc mmap threshold,
 * its own embedded PostgreSQL in a temp DATA_DIR, the demo company seeded on first start (no
 * NODE_ENV, i.e. development as `npm start` defaults to), on a free port of 127.0.0.1 (metrics on
 * another). Plus the probes the soak reads from /proc: the server's VmRSS, its open TCP connections
 * on its port, its open file descriptors, and PostgreSQL's backends (pg_stat_activity).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePorts } from '@intranet/graph';
import { onCleanup, PLATFORM_NODE_FLAGS, REPO_ROOT } from '../lib/procs.js';

export interface Platform {
  url: string;
  port: number;
  /** The launcher's /metrics (prom-client's default metrics: V8 heap, external memory, handles). */
  metricsUrl: string;
  pid: number;
  proc: ChildProcess;
  tmp: string;
  pgData: string;
  dbUrl: string;
  logFile: string;
  /** warn/error lines the server wrote (LOG_LEVEL=warn: every line it writes is one), first ones kept. */
  logLines(): { count: number; errors: number; first: string[] };
  /** Set once the launcher has exited (by itself or by a signal from outside the bench). */
  exit(): { code: number | null; signal: string | null; at: Date } | null;
  stop(): Promise<void>;
}

const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

/** GET with a fresh connection (no keep-alive: the probe must not hold a socket of its own). */
function probe(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, headers: { connection: 'close' }, timeout: 5000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(0));
  });
}

export async function startPlatform(opts: {
  env: Record<string, string>;
  logFile: string;
  readyTimeoutMs?: number;
  /** The app's and the metrics' ports (a restarted instance keeps its address); default: free ones. */
  ports?: [number, number];
}): Promise<Platform> {
  const launcher = path.join(REPO_ROOT, 'dist/bin/start.js');
  if (!fs.existsSync(launcher)) throw new Error('dist/bin/start.js is missing: run `npm run build:server`');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'intranet-bench-soak-'));
  fs.chmodSync(tmp, 0o755); // as root, initdb runs as a separate postgres user that must reach the data dir
  onCleanup(
    'temp dir',
    () => fs.rmSync(tmp, { recursive: true, force: true }),
    () => fs.rmSync(tmp, { recursive: true, force: true }),
  );
  const [port, metricsPort] = opts.ports ?? ((await freePorts(2)) as [number, number]);
  const env: Record<string, string | undefined> = {
    ...process.env,
    MALLOC_MMAP_THRESHOLD_: '524288', // as package.json's start script
    DATA_DIR: tmp,
    HOST: '127.0.0.1',
    PORT: String(port),
    METRICS_PORT: String(metricsPort),
    METRICS_HOST: '127.0.0.1',
    SEED_DEMO: 'auto',
    ...opts.env,
  };
  // As `npm start` in a plain shell: embedded database and transport, development mode (the demo seed).
  for (const k of ['NODE_ENV', 'DATABASE_URL', 'KAFKA_BROKERS']) if (!(k in opts.env)) delete env[k];
  fs.mkdirSync(path.dirname(opts.logFile), { recursive: true });
  const log = fs.createWriteStream(opts.logFile);
  const proc = spawn(process.execPath, [...PLATFORM_NODE_FLAGS, launcher], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let count = 0;
  let errors = 0;
  const first: string[] = [];
  let partial = '';
  const onData = (chunk: Buffer) => {
    log.write(chunk);
    const text = partial + chunk.toString('utf8');
    const lines = text.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      let level: number;
      try {
        level = (JSON.parse(line) as { level?: number }).level ?? 0;
      } catch {
        continue; // the launcher's banner
      }
      if (level < 40) continue;
      count++;
      if (level >= 50) errors++;
      if (first.length < 20) first.push(line.slice(0, 2000));
    }
  };
  proc.stdout!.on('data', onData);
  proc.stderr!.on('data', onData);

  let exited = false;
  let exitInfo: { code: number | null; signal: string | null; at: Date } | null = null;
  proc.once('exit', (code, signal) => {
    exited = true;
    exitInfo = { code, signal, at: new Date() };
  });
  const stop = async () => {
    if (exited) {
      log.end();
      return;
    }
    const gone = new Promise<void>((r) => proc.once('exit', () => r()));
    proc.kill('SIGTERM'); // the launcher stops its graph, then its PostgreSQL, then exits 0
    const t = setTimeout(() => proc.kill('SIGKILL'), 20_000);
    await gone;
    clearTimeout(t);
    log.end();
  };
  // SIGKILL on a hard exit: the launcher's watchdog then stops its PostgreSQL.
  const unregister = onCleanup('platform (npm start)', stop, () => {
    if (!exited) proc.kill('SIGKILL');
  });

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (opts.readyTimeoutMs ?? 240_000);
  for (;;) {
    if (exited) throw new Error(`the platform exited during start (see ${opts.logFile})`);
    if ((await probe(`${url}/healthz`)) === 200) break;
    if (Date.now() > deadline)
      throw new Error(
        `the platform did not answer /healthz within ${(opts.readyTimeoutMs ?? 240_000) / 1000} s (see ${opts.logFile})`,
      );
    await sleep(500);
  }
  // Its own embedded PostgreSQL, unless it was given one (DATABASE_URL: several instances share it).
  const pgData = opts.env.DATABASE_URL ? '' : path.join(tmp, 'pg');
  const dbUrl =
    opts.env.DATABASE_URL ??
    // The embedded PostgreSQL's fixed local password (graph/src/db/embedded.ts).
    `postgresql://postgres:intranet-local@127.0.0.1:${Number(fs.readFileSync(path.join(pgData, 'postmaster.pid'), 'utf8').split('\n')[3])}/intranet`;
  return {
    url,
    port,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    pid: proc.pid!,
    proc,
    tmp,
    pgData,
    dbUrl,
    logFile: opts.logFile,
    logLines: () => ({ count, errors, first }),
    exit: () => exitInfo,
    stop: async () => {
      unregister();
      await stop();
    },
  };
}

/** VmRSS of a process in MB (null once it is gone). */
export function rssMb(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Open file descriptors of a process (sockets, files, pipes). */
export function fdCount(pid: number): number | null {
  try {
    return fs.readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return null;
  }
}

const TCP_STATES: Record<string, string> = {
  '01': 'ESTABLISHED',
  '02': 'SYN_SENT',
  '03': 'SYN_RECV',
  '04': 'FIN_WAIT1',
  '05': 'FIN_WAIT2',
  '06': 'TIME_WAIT',
  '07': 'CLOSE',
  '08': 'CLOSE_WAIT',
  '09': 'LAST_ACK',
  '0A': 'LISTEN',
  '0B': 'CLOSING',
};

/**
 * The server's side of the TCP connections to its port, from the network namespace's table
 * (/proc/<pid>/net/tcp and tcp6): every state but LISTEN and TIME_WAIT (a TIME_WAIT socket
 * belongs to the kernel, not to a process). CLOSE_WAIT would be a peer gone and a socket never closed.
 */
export function serverTcp(pid: number, port: number): { open: number; byState: Record<string, number> } {
  const byState: Record<string, number> = {};
  let open = 0;
  for (const f of ['tcp', 'tcp6']) {
    let text: string;
    try {
      text = fs.readFileSync(`/proc/${pid}/net/${f}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 4) continue;
      const local = cols[1];
      if (parseInt(local.slice(local.lastIndexOf(':') + 1), 16) !== port) continue;
      const st = cols[3];
      if (st === '0A' || st === '06') continue;
      const name = TCP_STATES[st] ?? st;
      byState[name] = (byState[name] ?? 0) + 1;
      open++;
    }
  }
  return { open, byState };
}

/** One monitoring connection to the platform's database; counts exclude itself. */
export async function pgMonitor(url: string) {
  const client = new pg.Client({ connectionString: url, application_name: 'bench-soak-monitor' });
  client.on('error', () => undefined); // PostgreSQL stopping under it is not the bench's failure
  await client.connect();
  let open = true;
  const close = async () => {
    if (!open) return;
    open = false;
    await client.end().catch(() => undefined);
  };
  onCleanup('pg monitor', close);
  return {
    close,
    async backends(): Promise<{ total: number; idle: number; active: number; other: number }> {
      const { rows } = await client.query<{ total: number; idle: number; active: number }>(
        `select count(*)::int as total, count(*) filter (where state = 'idle')::int as idle, count(*) filter (where state = 'active')::int as active
           from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
      );
      const r = rows[0];
      return { ...r, other: r.total - r.idle - r.active };
    },
    async detail(): Promise<string[]> {
      const { rows } = await client.query<{ state: string; application_name: string; q: string }>(
        `select coalesce(state, '-') as state, application_name, left(regexp_replace(query, '\\s+', ' ', 'g'), 80) as q
           from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() order by state, q`,
      );
      return rows.map((r) => `${r.state} [${r.application_name}] ${r.q}`);
    },
  };
}

/** The V8 heap (used, total), external memory and active handles from the launcher's /metrics, in MB / count; null when unreachable. */
export function heapMetrics(
  metricsUrl: string,
): Promise<{ heapUsedMb: number; heapTotalMb: number; externalMb: number; handles: number } | null> {
  return new Promise((resolve) => {
    const req = http.get(metricsUrl, { agent: false, headers: { connection: 'close' }, timeout: 5000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const metric = (name: string) => {
          const m = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)`, 'm').exec(text);
          return m ? Number(m[1]) : NaN;
        };
        resolve({
          heapUsedMb: metric('nodejs_heap_size_used_bytes') / 1048576,
          heapTotalMb: metric('nodejs_heap_size_total_bytes') / 1048576,
          externalMb: metric('nodejs_external_memory_bytes') / 1048576,
          handles: metric('nodejs_active_handles_total'),
        });
      });
      res.on('error', () => resolve(null));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(null));
  });
}
