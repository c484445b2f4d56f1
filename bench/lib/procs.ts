/**
 * Child processes and other resources of a bench run, all released at the end, on error and on
 * SIGINT/SIGTERM. Children talk over IPC: they send {type:'ready', ...} once listening, answer
 * {type:'stats'} with their CPU time and event-loop utilisation, and exit when the parent goes away.
 */
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '@intranet/graph';

export const REPO_ROOT = repoRoot(import.meta.url);

type Cleanup = { name: string; fn: () => Promise<void> | void; sync?: () => void };
const cleanups: Cleanup[] = [];

/** Registers a cleanup; they run last-registered first. `sync` is the fallback used on a hard exit. */
export function onCleanup(name: string, fn: () => Promise<void> | void, sync?: () => void): () => void {
  const c = { name, fn, sync };
  cleanups.push(c);
  return () => {
    const i = cleanups.indexOf(c);
    if (i >= 0) cleanups.splice(i, 1);
  };
}

let running: Promise<void> | undefined;
export function cleanupAll(): Promise<void> {
  running ??= (async () => {
    while (cleanups.length) {
      const c = cleanups.pop()!;
      try {
        await c.fn();
      } catch (err) {
        console.error(`cleanup ${c.name} failed:`, (err as Error).message);
      }
    }
  })();
  return running;
}

let installed = false;
/** SIGINT/SIGTERM: release everything, then exit 130/143. A second signal exits at once. */
export function installSignalHandlers(): void {
  if (installed) return;
  installed = true;
  let signalled = false;
  const handler = (sig: NodeJS.Signals) => {
    if (signalled) process.exit(1);
    signalled = true;
    console.error(`\n${sig}: stopping servers and PostgreSQL…`);
    cleanupAll().finally(() => process.exit(sig === 'SIGINT' ? 130 : 143));
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  // Last resort on any exit path: kill what is left, synchronously.
  process.on('exit', () => {
    for (const c of cleanups.splice(0).reverse()) {
      try {
        c.sync?.();
      } catch {
        /* exiting anyway */
      }
    }
  });
}

export interface ChildStats {
  cpuUserMs: number;
  cpuSystemMs: number;
  /** Event-loop utilisation since the previous stats call (0..1). */
  elu: number;
  rssMb: number;
  extra?: Record<string, unknown>;
}

export interface BenchChild {
  name: string;
  proc: ChildProcess;
  ready: Record<string, unknown>;
  stats(reset?: boolean): Promise<ChildStats>;
  request<T>(msg: Record<string, unknown>): Promise<T>;
  stop(): Promise<void>;
}

/**
 * The V8 flags `npm start` and `npm run workers` run node with (package.json; the image sets them
 * through NODE_OPTIONS): the benches start the platform's processes the same way.
 */
export const PLATFORM_NODE_FLAGS = ['--max-semi-space-size=32'];

/** Forks a TypeScript child (through the same swc loader) and waits for its {type:'ready'} message. */
export async function startChild(
  name: string,
  file: string,
  env: Record<string, string>,
  opts: { execArgv?: string[]; readyTimeoutMs?: number; compiled?: boolean } = {},
): Promise<BenchChild> {
  // compiled: the child runs from dist/ (scripts/build-server.mjs, run by `npm run bench`) without
  // the TypeScript loader, as `npm start` runs the platform; otherwise through the SWC loader.
  const target = opts.compiled
    ? path.join(REPO_ROOT, 'dist', path.relative(REPO_ROOT, file).replace(/\.ts$/, '.js'))
    : file;
  if (opts.compiled && !fs.existsSync(target))
    throw new Error(`${path.relative(REPO_ROOT, target)} is missing: run \`npm run build:server\``);
  const proc = fork(target, [], {
    cwd: REPO_ROOT,
    execArgv: opts.compiled
      ? (opts.execArgv ?? [])
      : ['--conditions=source', '--import', '@swc-node/register/esm-register', ...(opts.execArgv ?? [])],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const killSync = () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  };
  let stopping = false;
  const stop = async () => {
    stopping = true;
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((r) => proc.once('exit', () => r()));
    proc.kill('SIGTERM');
    const t = setTimeout(() => proc.kill('SIGKILL'), 8000);
    await exited;
    clearTimeout(t);
  };
  const unregister = onCleanup(`child ${name}`, stop, killSync);

  let seq = 0;
  const pending = new Map<number, (v: unknown) => void>();
  proc.on('message', (m: { type?: string; id?: number }) => {
    if (m?.id !== undefined && pending.has(m.id)) {
      pending.get(m.id)!(m);
      pending.delete(m.id);
    }
  });
  const request = <T>(msg: Record<string, unknown>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = ++seq;
      const t = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`${name}: no answer to ${String(msg.type)}`));
      }, 30_000);
      pending.set(id, (v) => {
        clearTimeout(t);
        resolve(v as T);
      });
      proc.send({ ...msg, id });
    });

  const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const t = setTimeout(
      () => reject(new Error(`${name} did not start within ${opts.readyTimeoutMs ?? 60_000} ms`)),
      opts.readyTimeoutMs ?? 60_000,
    );
    const onMsg = (m: { type?: string; error?: string }) => {
      if (m?.type === 'ready') {
        clearTimeout(t);
        proc.off('message', onMsg);
        resolve(m as Record<string, unknown>);
      } else if (m?.type === 'failed') {
        clearTimeout(t);
        reject(new Error(`${name} failed to start: ${m.error}`));
      }
    };
    proc.on('message', onMsg);
    proc.once('exit', (code, sig) => {
      clearTimeout(t);
      reject(new Error(`${name} exited during start (code ${code}, signal ${sig})`));
    });
  });
  proc.on('exit', (code, sig) => {
    if (!stopping) console.error(`${name} exited unexpectedly (code ${code}, signal ${sig})`);
  });

  return {
    name,
    proc,
    ready,
    stats: (reset = true) => request<ChildStats & { type: string }>({ type: 'stats', reset }),
    request,
    stop: async () => {
      unregister();
      await stop();
    },
  };
}
