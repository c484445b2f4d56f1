import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { freePort } from '@intranet/graph';

/** The browser tests write fast as one person (set-up through the API); the write limits have a unit test of their own. */
const UNTHROTTLED_WRITES = Object.fromEntries(
  ['COMMENTS', 'LIKES', 'POSTS', 'UPLOADS'].map((k) => [`THROTTLE_${k}_PER_MINUTE`, '1000000']),
);

declare module 'vitest' {
  export interface ProvidedContext {
    /** One platform per test worker: worker n (VITEST_POOL_ID) uses baseURLs[n - 1]. */
    baseURLs: string[];
    /** Their DATA_DIRs (the same order): operator commands join a platform's embedded PostgreSQL through it. */
    dataDirs: string[];
    /** The other internal tool's origin each platform lists in ALLOWED_ORIGINS (nothing serves it until a test does). */
    toolOrigins: string[];
  }
}

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts the real platform once per test worker (`E2E_WORKERS`, see vitest.config.ts), each `bin/start.ts` (compiled,
 * dist/bin/start.js) with its own fresh data directory (embedded PostgreSQL, demo company seeded) on a free port, and
 * stops them afterwards. A file sees only its worker's platform: files running at once never share data.
 */
export default async function setup(project: TestProject) {
  if (!fs.existsSync(path.join(repoRoot, 'web/dist/index.html'))) {
    throw new Error('web/dist is missing: run `npm run build:web` before the browser tests.');
  }
  const workers = Number(project.config.maxWorkers) || 1;
  // One after another: each picks free ports for itself and its PostgreSQL, which concurrent starts could both pick.
  const platforms: Awaited<ReturnType<typeof startPlatform>>[] = [];
  try {
    for (let i = 0; i < workers; i++) platforms.push(await startPlatform());
  } catch (err) {
    await Promise.all(platforms.map((p) => p.stop()));
    throw err;
  }
  project.provide(
    'baseURLs',
    platforms.map((p) => p.baseURL),
  );
  project.provide(
    'dataDirs',
    platforms.map((p) => p.dataDir),
  );
  project.provide(
    'toolOrigins',
    platforms.map((p) => p.toolOrigin),
  );
  return async () => {
    await Promise.all(platforms.map((p) => p.stop()));
  };
}

async function startPlatform(): Promise<{
  baseURL: string;
  dataDir: string;
  toolOrigin: string;
  stop(): Promise<void>;
}> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'intranet-e2e-'));
  // mkdtemp makes it 0700; when running as root, embedded PostgreSQL runs as the "postgres" user
  // and must be able to reach its data directory inside.
  await chmod(dataDir, 0o755);
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const toolOrigin = `http://127.0.0.1:${await freePort()}`;
  let output = '';

  // The README's default platform: embedded events, so the import and Google workers run inside it.
  // CI exports KAFKA_BROKERS for the Kafka suites; with it the consumers would wait for a separate
  // `npm run workers` pool that this setup does not start (the Kafka paths have their own suites).
  const { KAFKA_BROKERS: _kafka, DATABASE_URL: _db, ...env } = process.env;
  // Its own process group, so teardown can make sure nothing (postgres included) outlives it.
  // What `npm start` runs: the compiled launcher (`npm run build`, which `npm test` runs first).
  const launcher = path.join(repoRoot, 'dist/bin/start.js');
  if (!fs.existsSync(launcher))
    throw new Error('dist/bin/start.js is missing: run `npm run build` (npm test does) before the browser tests');
  const child = spawn(process.execPath, [launcher], {
    cwd: repoRoot,
    env: {
      ...env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
      ALLOWED_ORIGINS: toolOrigin,
      ...UNTHROTTLED_WRITES,
    },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (b: Buffer) => {
    output = (output + b.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const pgid = child.pid!;

  const stop = async () => {
    const t0 = Date.now();
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM'); // the launcher stops the server, then embedded PostgreSQL
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        exited(child).then(() => false),
        new Promise<boolean>((r) => {
          timer = setTimeout(() => r(true), 30_000);
        }),
      ]);
      clearTimeout(timer);
      if (timedOut) child.kill('SIGKILL');
    }
    await exited(child);
    // Anything left in the group (a postgres that did not stop in time) goes too.
    for (let i = 0; i < 50 && groupAlive(pgid); i++) await new Promise((r) => setTimeout(r, 100));
    if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
    console.log(`[e2e] platform stopped in ${Date.now() - t0} ms`);
  };

  try {
    const deadline = Date.now() + 150_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the platform exited with code ${child.exitCode}:\n${output}`);
      try {
        const res = await fetch(`${baseURL}/healthz`);
        if (res.status === 200) break;
      } catch {
        /* not listening yet */
      }
      if (Date.now() > deadline) throw new Error(`the platform did not become healthy in time:\n${output}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  } catch (err) {
    await stop();
    throw err;
  }

  return { baseURL, dataDir, toolOrigin, stop };
}
