import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { rebuildAll } from '@intranet/graph/areas';

/** Every rollup row, in one order: what the worker kept, to compare with a rebuild. */
export const ROLLUP = `select 'p' as t, post_id, null::int as employee_id, day::text, likes, views, comments from blog_stat_post_day
                union all select 'a', post_id, employee_id, day::text, likes, views, comments from blog_stat_actor_day order by 1, 2, 3, 4`;

/** What a rebuild from the source tables gives now, read in a transaction that is rolled back (the worker's rows stay). */
export async function rebuiltRows(orm: MikroORM): Promise<unknown[]> {
  let rows: unknown[] = [];
  await orm.em
    .fork()
    .transactional(async (tx: EntityManager) => {
      await rebuildAll(tx);
      rows = await tx.execute(ROLLUP);
      throw new Error('rollback');
    })
    .catch((e: Error) => {
      if (e.message !== 'rollback') throw e;
    });
  return rows;
}
