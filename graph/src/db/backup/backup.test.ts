/**
 * A backup taken while people write, restored into a new DATA_DIR, started: the compiled launcher
 * with its embedded PostgreSQL (as `npm start`), `npm run backup` joining it from another process
 * while four loops create schedule entries, `npm run restore` into an empty directory, and a second
 * launcher on it. Every write acknowledged before the backup began is there, the uploaded picture
 * opens with the same bytes, and no event the first platform had delivered is sent again.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { png } from '../../lib/files/test-files.js';
import { api, loginToken } from '../../test/http.js';
import { startLauncher, type Launched } from '../../test/launcher.js';
import { pruneBackups } from './index.js';

const root = path.resolve(import.meta.dirname, '../../../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'intranet-backup-test-'));
fs.chmodSync(tmp, 0o755); // as root, the embedded PostgreSQL runs as `postgres` and must reach its data
const running: Launched[] = [];
afterAll(async () => {
  for (const l of running) await l.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function cli(script: string, args: string[], dataDir: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const { DATABASE_URL: _d, KAFKA_BROKERS: _k, ...env } = process.env;
    execFile(
      process.execPath,
      [path.join(root, `dist/bin/${script}.js`), ...args],
      { cwd: root, env: { ...env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' } },
      (err, out, stderr) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, out: out + stderr }),
    );
  });
}

/** The embedded PostgreSQL of a DATA_DIR (its port from postmaster.pid, the fixed local password). */
function pgOf(dataDir: string): pg.Client {
  const port = Number(fs.readFileSync(path.join(dataDir, 'pg/postmaster.pid'), 'utf8').split('\n')[3]);
  return new pg.Client({ connectionString: `postgresql://postgres:intranet-local@127.0.0.1:${port}/intranet` });
}

describe('backup and restore', () => {
  it('an online backup under writes restores into a new DATA_DIR with every acknowledged write, the files and the outbox as they were', async () => {
    const dirA = path.join(tmp, 'a');
    const a = await startLauncher({ DATA_DIR: dirA });
    running.push(a);
    const token = await loginToken(a.url, 'staff');
    const picture = await png(200, 120);
    const up = await api(a.url, 'POST', '/blog_images', {
      token,
      body: { name: '記念写真.png', data_url: `data:image/png;base64,${picture.toString('base64')}` },
    });
    expect(up.status).toBe(201);
    const imageUrl: string = up.body.file.url;
    const original = Buffer.from(
      await (await fetch(`${a.url}${imageUrl}`, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer(),
    );

    const acked: { id: number; at: number }[] = [];
    let writing = true;
    let n = 0;
    const loop = async () => {
      while (writing) {
        const i = n++;
        const r = await api(a.url, 'POST', '/schedules', {
          token,
          body: {
            title: `バックアップ中 ${i}`,
            date: '2025-04-01',
            start_time: '09:00',
            end_time: '10:00',
            type: 'task',
          },
        });
        if (r.status === 201) acked.push({ id: r.body.schedule_id, at: Date.now() });
      }
    };
    const loops = Array.from({ length: 4 }, loop);
    await sleep(1000);
    const dbA = pgOf(dirA);
    await dbA.connect();
    const sentBefore = (await dbA.query<{ id: string; sent_at: Date }>(`select id, sent_at from outbox_sent`)).rows;
    const began = Date.now();
    const backup = await cli('backup', [path.join(tmp, 'archives')], dirA);
    await sleep(500);
    writing = false;
    await Promise.all(loops);
    await dbA.end();
    expect(backup, backup.out).toMatchObject({ code: 0 });
    expect(backup.out).toMatch(/backup written: .*intranet-backup-\d{8}-\d{6}\.tar\.gz/);
    const archive = /backup written: (\S+)/.exec(backup.out)![1]!;
    const before = acked.filter((w) => w.at < began).map((w) => w.id);
    expect(before.length).toBeGreaterThan(10);
    expect(acked.length).toBeGreaterThan(before.length); // writes went on during the backup

    // Restore refuses a DATA_DIR in use, then fills an empty one.
    expect((await cli('restore', [archive], dirA)).code).toBe(1);
    const dirB = path.join(tmp, 'b');
    const restored = await cli('restore', [archive], dirB);
    expect(restored, restored.out).toMatchObject({ code: 0 });
    await a.stop();
    const b = await startLauncher({ DATA_DIR: dirB });
    running.push(b);
    const tokenB = await loginToken(b.url, 'staff');
    const dbB = pgOf(dirB);
    await dbB.connect();
    try {
      const present = (
        await dbB.query<{ n: number }>(`select count(*)::int as n from schedule where id = any($1::int[])`, [before])
      ).rows[0]!.n;
      expect(present).toBe(before.length);
      const image = await fetch(`${b.url}${imageUrl}`, { headers: { authorization: `Bearer ${tokenB}` } });
      expect(image.status).toBe(200);
      expect(Buffer.from(await image.arrayBuffer()).equals(original)).toBe(true);
      // The relay drains what was queued at the backup's end; what A had delivered before is not sent again.
      const deadline = Date.now() + 30_000;
      while (
        (await dbB.query<{ n: number }>(`select count(*)::int as n from outbox_event`)).rows[0]!.n > 0 &&
        Date.now() < deadline
      )
        await sleep(200);
      expect((await dbB.query<{ n: number }>(`select count(*)::int as n from outbox_event`)).rows[0]!.n).toBe(0);
      const after = new Map(
        (
          await dbB.query<{ id: string; sent_at: Date }>(
            `select id, sent_at from outbox_sent where id = any($1::uuid[])`,
            [sentBefore.map((s) => s.id)],
          )
        ).rows.map((r) => [r.id, r.sent_at.getTime()]),
      );
      expect(after.size).toBe(sentBefore.length);
      for (const s of sentBefore) expect(after.get(s.id)).toBe(s.sent_at.getTime());
    } finally {
      await dbB.end();
    }
  }, 240_000);

  it('keeps the newest archives', () => {
    const dir = path.join(tmp, 'keep');
    fs.mkdirSync(dir, { recursive: true });
    const names = ['20261201-170000', '20261202-170000', '20261203-170000', '20261204-170000'].map(
      (s) => `intranet-backup-${s}.tar.gz`,
    );
    for (const n of [...names, 'notes.txt']) fs.writeFileSync(path.join(dir, n), 'x');
    expect(pruneBackups(dir, 2)).toEqual(names.slice(0, 2));
    expect(fs.readdirSync(dir).sort()).toEqual([...names.slice(2), 'notes.txt']);
  });
});
