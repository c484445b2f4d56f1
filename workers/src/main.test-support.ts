/** The workers CLI as its tests run it: a child process per command, and what they share. */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { type TestDatabase, workersCli } from '@intranet/graph/testing';
import { createLogger } from '@intranet/graph';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

export const log = createLogger('silent');
const baseEnv = { NODE_ENV: 'test', LOG_LEVEL: 'silent', KAFKA_BROKERS: '' };

export async function cli(args: string[], env: Record<string, string>) {
  const t0 = Date.now();
  try {
    const { stdout, stderr } = await run(process.execPath, [workersCli, ...args], {
      cwd: root,
      env: { ...process.env, ...baseEnv, ...env },
    });
    return { code: 0, out: stdout + stderr, ms: Date.now() - t0 };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr, ms: Date.now() - t0 };
  }
}

/** A long-running CLI process (the pool), with its output and exit. */
export function spawnCli(args: string[], env: Record<string, string>) {
  let out = '';
  const child: ChildProcess = spawn(process.execPath, [workersCli, ...args], {
    cwd: root,
    env: { ...process.env, ...baseEnv, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, output: () => out };
}

/** A port nobody listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

export const parkProbe = (db: TestDatabase) => {
  const id = randomUUID();
  return db.orm.em
    .fork()
    .execute(
      `insert into event_dead_letter (consumer, event_id, event_type, envelope, error, attempts) values ('probe', ?, 'platform.probe', ?::jsonb, 'boom', 5)`,
      [
        id,
        JSON.stringify({
          id,
          type: 'platform.probe',
          aggregateType: 'probe',
          aggregateId: 'dl',
          occurredAt: new Date().toISOString(),
          actorId: null,
          payload: { seq: 0 },
          version: 1,
        }),
      ],
    );
};
