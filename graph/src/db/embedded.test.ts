import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from './embedded.js';

const root = path.resolve(import.meta.dirname, '../../..');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) {
    // A test that failed half-way may leave its postmaster running: stop it before removing its data.
    const pid = postmasterPid(d);
    if (pid && alive(pid)) process.kill(pid, 'SIGQUIT');
    fs.rmSync(d, { recursive: true, force: true });
  }
});

function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-owner-'));
  dirs.push(d);
  return path.join(d, 'pg');
}

function postmasterPid(dir: string): number | null {
  const pgdata = fs.existsSync(path.join(dir, 'pg')) ? path.join(dir, 'pg') : dir;
  try {
    return Number(fs.readFileSync(path.join(pgdata, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return null;
  }
}

/** Running, not a zombie. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
}

async function waitFor(what: string, ok: () => boolean, ms: number): Promise<void> {
  for (const until = Date.now() + ms; Date.now() < until; await new Promise((r) => setTimeout(r, 25))) if (ok()) return;
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * `npm start` in miniature: a child process that starts the embedded PostgreSQL on `dir`, writes a
 * row (committed) and prints the postmaster's pid, then runs until it is killed.
 */
async function owner(
  dir: string,
  watchdog: boolean,
): Promise<{ child: ReturnType<typeof spawn>; postmaster: number; exited: Promise<unknown> }> {
  const script = `
    const { startEmbeddedPostgres } = await import(${JSON.stringify(path.join(root, 'graph/src/db/embedded.ts'))});
    const pg = (await import('pg')).default;
    const db = await startEmbeddedPostgres(${JSON.stringify(dir)}, 'intranet', undefined, { watchdog: ${watchdog} });
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    await c.query('create table saved (note text)');
    await c.query("insert into saved values ('kept after SIGKILL')");
    await c.end();
    const fs = await import('node:fs');
    console.log('postmaster ' + fs.readFileSync(${JSON.stringify(path.join(dir, 'postmaster.pid'))}, 'utf8').split('\\n')[0]);
    setInterval(() => {}, 1000);
  `;
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', '@swc-node/register/esm-register', '--input-type=module', '-e', script],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise((r) => child.on('exit', r));
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  try {
    await waitFor('the owner to start PostgreSQL', () => /postmaster \d+/.test(out) || child.exitCode !== null, 60_000);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  const m = /postmaster (\d+)/.exec(out);
  if (!m) throw new Error(`the owner did not start PostgreSQL:\n${out}`);
  return { child, postmaster: Number(m[1]), exited };
}

async function savedNotes(url: string): Promise<string[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query('select note from saved')).rows.map((r) => r.note);
  } finally {
    await c.end();
  }
}

describe.skipIf(process.platform !== 'linux')('embedded PostgreSQL whose owner was killed', () => {
  it('the next start takes over a PostgreSQL left running by a SIGKILLed owner: the old postmaster is stopped, the committed row is there', async () => {
    const dir = tempDir();
    // Without the watchdog the killed owner's PostgreSQL keeps running (as with the watchdog killed too).
    const { child, postmaster, exited } = await owner(dir, false);
    child.kill('SIGKILL');
    await exited;
    expect(alive(postmaster)).toBe(true);
    const t0 = performance.now();
    const db = await startEmbeddedPostgres(dir, 'intranet', undefined, { watchdog: false });
    const ms = Math.round(performance.now() - t0);
    try {
      console.log(`take-over of an orphaned PostgreSQL: ${ms} ms until the new one answered`);
      expect(alive(postmaster)).toBe(false);
      expect(postmasterPid(dir)).not.toBe(postmaster);
      expect(await savedNotes(db.url)).toEqual(['kept after SIGKILL']);
    } finally {
      await db.stop();
    }
  }, 90_000);

  it('with the watchdog (the default), the PostgreSQL stops by itself once its owner is SIGKILLed, and the next start finds its data', async () => {
    const dir = tempDir();
    const { child, postmaster, exited } = await owner(dir, true);
    child.kill('SIGKILL');
    await exited;
    await waitFor('the orphaned postmaster to stop', () => !alive(postmaster), 15_000);
    // A clean (fast) shutdown: it removed its postmaster.pid.
    expect(fs.existsSync(path.join(dir, 'postmaster.pid'))).toBe(false);
    const db = await startEmbeddedPostgres(dir);
    try {
      expect(await savedNotes(db.url)).toEqual(['kept after SIGKILL']);
    } finally {
      await db.stop();
    }
  }, 90_000);

  it('an owner that still runs keeps its PostgreSQL: a second start is refused naming both, attach joins it, and stop() ends it', async () => {
    const dir = tempDir();
    const first = await startEmbeddedPostgres(dir);
    try {
      const postmaster = postmasterPid(dir)!;
      await expect(startEmbeddedPostgres(dir)).rejects.toThrow(
        `PostgreSQL data in ${dir} is in use by process ${postmaster}, started by process ${process.pid}, which still runs`,
      );
      expect(alive(postmaster)).toBe(true);
      const joined = await startEmbeddedPostgres(dir, 'intranet', undefined, { attach: true });
      expect(joined.url).toBe(first.url);
      await joined.stop();
      expect(alive(postmaster)).toBe(true);
    } finally {
      await first.stop();
    }
    expect(fs.existsSync(path.join(dir, 'postmaster.pid'))).toBe(false);
  }, 90_000);
});
