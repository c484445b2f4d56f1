import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../test/db.js';

let p: TestPlatform;
beforeAll(async () => {
  p = await startTestPlatform();
});
afterAll(async () => p?.close());

describe('/healthz', () => {
  it('reports the database reachable and migrations current', async () => {
    const r = await fetch(`${p.url}/healthz`);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ status: 'ok', database: 'ok', pendingMigrations: [] });
  });

  it('/readyz: ready, with each check named (the database, the outbox, the file store)', async () => {
    const r = await fetch(`${p.url}/readyz`);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({
      status: 'ready',
      reasons: [],
      checks: { database: 'ok', outbox: 'ok', files: 'ok' },
    });
  });

  it('is 503 when a committed migration is not applied', async () => {
    await p.db.orm.em
      .fork()
      .getConnection()
      .execute(`delete from mikro_orm_migrations where name like 'Migration20261122000000%'`);
    const r = await fetch(`${p.url}/healthz`);
    expect(r.status).toBe(503);
    expect((await r.json()).pendingMigrations).toEqual(['Migration20261122000000_foundation']);
    const ready = await fetch(`${p.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'degraded', reasons: ['database: 1 migrations not applied'] });
  });
});
