import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { rebuildAll } from '@intranet/graph/areas';

/**
 * Every rollup row, in one order: what the worker kept, to compare with a rebuild. The sums' rows
 * the worker moved down to nothing are left out (a rebuild has no row where nothing happened).
 */
export const ROLLUP = `select * from (
  select 'post_day' as t, concat_ws(' ', post_id, day, category_id) as k, array[published, likes, views, comments] as v from blog_stat_post_day
  union all select 'actor_day', concat_ws(' ', post_id, employee_id, day, category_id), array[likes, views, comments] from blog_stat_actor_day
  union all select 'category_day', concat_ws(' ', category_id, day), array[published, likes, views, comments] from blog_stat_category_day
  union all select 'post_span', concat_ws(' ', span, at, post_id, category_id, publish_start, author_id), array[published, likes, views, comments] from blog_stat_post_span
  union all select 'author_span', concat_ws(' ', span, at, category_id, employee_id), array[posts] from blog_stat_author_span
  union all select 'category_span', concat_ws(' ', span, at, category_id), array[posts, published, likes, views, comments] from blog_stat_category_span
  union all select 'actor_span', concat_ws(' ', span, at, category_id, employee_id), array[likes, views, comments] from blog_stat_actor_span
  union all select 'actor_total', concat_ws(' ', span, at, employee_id), array[likes, views, comments] from blog_stat_actor_total
  ) r where 0 <> any(r.v) order by 1, 2`;

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
