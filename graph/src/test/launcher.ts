import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePorts } from '../platform/net.js';

const root = path.resolve(import.meta.dirname, '../../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Launched {
  url: string;
  /** Its metrics port (/metrics, /healthz, /readyz). */
  metricsUrl: string;
  child: ChildProcess;
  /** What it wrote (stdout and stderr). */
  output(): string;
  /** Set once it has exited. */
  exited(): { code: number | null; signal: NodeJS.Signals | null } | null;
  /** SIGTERM, then SIGKILL after 20 s. */
  stop(): Promise<void>;
}

/**
 * The compiled launcher (dist/bin/start.js, which the unit tests' global setup builds) as
 * `npm start` runs it, in development mode with the demo company, on free ports of 127.0.0.1; resolves
 * once /healthz answers. `env` adds to or overrides that (DATABASE_URL, DATA_DIR, …).
 */
export async function startLauncher(env: Record<string, string | undefined>): Promise<Launched> {
  const [port, metricsPort] = await freePorts(2);
  const full: Record<string, string | undefined> = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    METRICS_PORT: String(metricsPort),
    METRICS_HOST: '127.0.0.1',
    SEED_DEMO: 'auto',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'development',
    KAFKA_BROKERS: undefined,
    ...env,
  };
  for (const k of Object.keys(full)) if (full[k] === undefined) delete full[k];
  const child = spawn(process.execPath, [path.join(root, 'dist/bin/start.js')], {
    cwd: root,
    env: full,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  child.once('exit', (code, signal) => (exit = { code, signal }));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exit) throw new Error(`the launcher exited during start:\n${out}`);
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the launcher did not start:\n${out}`);
    }
    await sleep(300);
  }
  return {
    url,
    metricsUrl: `http://127.0.0.1:${full.METRICS_PORT}`,
    child,
    output: () => out,
    exited: () => exit,
    stop: async () => {
      if (exit) return;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await gone;
      clearTimeout(t);
    },
  };
}

/** The error-level lines of a launcher's log (a 500's cause), first ones. */
export function errorLines(log: string): string {
  return log
    .split('\n')
    .filter((l) => l.startsWith('{"level":50') || l.startsWith('{"level":60'))
    .slice(0, 5)
    .join('\n');
}
