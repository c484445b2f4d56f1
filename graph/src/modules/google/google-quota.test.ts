import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOrm } from '../../db/orm.js';
import { startTestPlatform, type TestPlatform } from '../../test/db.js';
import { SharedGoogleQuota } from './google-quota.js';

// Google's per-user quota as two processes share it: each process has its own SharedGoogleQuota
// (and its own ORM) on the one database; a token one spends is gone for the other.

let p: TestPlatform;
let db: TestPlatform['db'];
let other: TestPlatform['db']['orm'];
let users: number[];
beforeAll(async () => {
  p = await startTestPlatform(); // the demo company's employees
  db = p.db;
  other = await openOrm(db.url, 2); // a second process's pool
  users = (
    await db.orm.em.fork().getConnection().execute<{ id: number }[]>(`select id from employee order by id limit 2`)
  ).map((r) => r.id);
});
afterAll(async () => {
  await other?.close();
  await p?.close();
});

describe('the shared Google quota', () => {
  it('one bucket per user for every process: what one process takes, the other cannot', async () => {
    // 0.01 tokens a second: nothing refills during the test.
    const a = new SharedGoogleQuota(db.orm, 0.01, 2);
    const b = new SharedGoogleQuota(other, 0.01, 2);
    const [me, you] = users as [number, number];
    expect(await a.tryTake(me)).toBe(0);
    expect(await b.tryTake(me)).toBe(0);
    const wait = await a.tryTake(me);
    expect(wait).toBeGreaterThan(90_000); // about a token's 100 s at 0.01 a second
    expect(await b.tryTake(me)).toBeGreaterThan(90_000);
    expect(await b.tryTake(you)).toBe(0); // another user's quota is their own
  });

  it('take waits as long as the quota says, then takes', async () => {
    const [, you] = users as [number, number];
    const sql = (q: string) => db.orm.em.fork().getConnection().execute(q);
    await sql(`delete from google_quota`);
    const waits: number[] = [];
    // The wait "passes" by the bucket being refilled, as a second's wait would.
    const q = new SharedGoogleQuota(db.orm, 1, 1, async (ms) => {
      waits.push(ms);
      await sql(`update google_quota set tokens = 1`);
    });
    await q.take(you);
    expect(waits).toEqual([]);
    await q.take(you);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(900); // one token at 1 a second
    expect(waits[0]).toBeLessThanOrEqual(1000);
  });
});
