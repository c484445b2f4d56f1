import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createLogger } from '../platform/logger.js';
import { prepareDatabase } from '../platform/bootstrap.js';
import { testConfig } from '../test/db.js';
import { openOrm } from './orm.js';

/** Two instances started at once on an empty database (a first install, or an upgrade): each prepares it. */
const template = inject('pgTemplateUrl');
const adminUrl = template.replace(/\/[^/?]*(\?.*)?$/, '/postgres');
const name = `t_lock_${randomBytes(4).toString('hex')}`;
const url = template.replace(/\/intranet_template/, `/${name}`);
const orms: MikroORM[] = [];
const admin = async (sql: string) => {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    return await c.query(sql);
  } finally {
    await c.end();
  }
};
afterAll(async () => {
  await Promise.all(orms.map((o) => o.close()));
  await admin(`drop database if exists "${name}" with (force)`);
});

describe('two instances starting together on an empty database', () => {
  it('both start: the migrations are applied once and the demo company seeded once', async () => {
    await admin(`create database "${name}"`);
    orms.push(await openOrm(url, 2), await openOrm(url, 2));
    const config = testConfig({ DATABASE_URL: url, SEED_DEMO: 'auto' });
    const log = createLogger('silent');
    const seeded = await Promise.all(orms.map((orm) => prepareDatabase(config, orm, log)));
    expect(seeded.sort()).toEqual([false, true]);
    const em = orms[0]!.em.fork();
    const [m] = await em.execute(
      `select count(*)::int as n, count(distinct name)::int as names from mikro_orm_migrations`,
    );
    expect(m.n).toBe(m.names);
    const [{ n: admins }] = await em.execute(`select count(*)::int as n from employee where login_id = 'admin'`);
    expect(admins).toBe(1);
  });
});
