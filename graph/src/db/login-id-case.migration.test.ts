import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MikroORM } from '@mikro-orm/postgresql';
import { databaseMigratedTo } from '../test/db.js';

/** Migration20261126180000_login_id_case on a database that already has login IDs differing only in case. */
let orm: MikroORM;
let db: Awaited<ReturnType<typeof databaseMigratedTo>>;
beforeAll(async () => {
  db = await databaseMigratedTo('Migration20261126010000_unused_indexes');
  orm = db.orm;
});
afterAll(async () => db?.close());

describe('login ID case migration', () => {
  it('stops, naming every clash, while login IDs differ only in case; once renamed, one login ID per person whatever its case', async () => {
    const em = orm.em.fork();
    const add = (login: string) =>
      em.execute(
        `insert into employee (name, login_id, password_hash, role) values (?, ?, 'x', 'GENERAL') returning id`,
        [login, login],
      );
    const [{ id: a }] = await add('taro');
    const [{ id: b }] = await add('TARO');
    await add('Hanako.S');
    await add('hanako.s');
    await add('jiro');

    const failed = await orm
      .getMigrator()
      .up()
      .then(
        () => null,
        (e: Error) => e,
      );
    expect(failed?.message).toMatch(/Login IDs that differ only in case/);
    expect(failed?.message).toContain(`taro (id ${a}), TARO (id ${b})`);
    expect(failed?.message).toMatch(/Hanako\.S \(id \d+\), hanako\.s \(id \d+\)/);
    expect(failed?.message).not.toContain('jiro');
    // Nothing changed: the migration is still pending and the old constraint is in place.
    expect((await orm.getMigrator().getPendingMigrations()).map((m) => m.name)).toContain(
      'Migration20261126180000_login_id_case',
    );
    const before = await em.execute(
      `select indexname from pg_indexes where tablename = 'employee' and indexname like 'employee_login_id%' order by 1`,
    );
    expect(before).toEqual([{ indexname: 'employee_login_id_key' }]);

    await em.execute(`update employee set login_id = 'taro2' where id = ?`, [b]);
    await em.execute(`delete from employee where login_id = 'hanako.s'`);
    expect((await orm.getMigrator().up()).map((m) => m.name)).toContain('Migration20261126180000_login_id_case');
    await expect(add('Taro')).rejects.toThrow(/employee_login_id_lower_key/);
    await expect(add('JIRO')).rejects.toThrow(/employee_login_id_lower_key/);
  });
});
