import type { EntityManager } from '@mikro-orm/postgresql';
import { execBound, pgArray } from '../../../platform/sql.js';

/**
 * The statistics rollups (migration 20261206040000): per post and Tokyo day, and per actor, post
 * and day, the likes (standing, on the day given), first views and comments (not deleted, on the
 * day written). Refreshing a post recomputes its rows from the source tables (blog_like,
 * blog_view, blog_comment): so applying an event twice, late or out of order leaves the same
 * rows, and a rebuild gives exactly what the events kept.
 */

/** Refresh and rebuild exclude each other: a rebuild sees no refresh half-done and vice versa. */
const LOCK = 0x5741_7473; // 'Stat'

const DAY = (column: string) => `(${column} at time zone 'Asia/Tokyo')::date`;

/** The source facts of the posts `filter` (over `post_id`) selects, one row each. */
const FACTS = (filter: string) => `
  select post_id, employee_id, ${DAY('created_at')} as day, 1 as likes, 0 as views, 0 as comments from blog_like where ${filter}
  union all
  select post_id, employee_id, ${DAY('viewed_at')}, 0, 1, 0 from blog_view where ${filter}
  union all
  select post_id, author_id, ${DAY('created_at')}, 0, 0, 1 from blog_comment where ${filter}`;

async function fill(tx: EntityManager, filter: string, params: unknown[]): Promise<void> {
  await execBound(
    tx,
    `with f as (${FACTS(filter)}),
          a as (insert into blog_stat_actor_day (post_id, employee_id, day, likes, views, comments)
                select post_id, employee_id, day, sum(likes), sum(views), sum(comments) from f where employee_id is not null group by 1, 2, 3)
     insert into blog_stat_post_day (post_id, day, likes, views, comments)
     select post_id, day, sum(likes), sum(views), sum(comments) from f group by 1, 2`,
    [...params, ...params, ...params],
  );
}

/** Recomputes the rollup rows of `postIds` (posts deleted since simply have none). */
export async function refreshPosts(tx: EntityManager, postIds: readonly number[]): Promise<void> {
  if (!postIds.length) return;
  const ids = pgArray([...new Set(postIds)].sort((a, b) => a - b));
  await execBound(tx, `select pg_advisory_xact_lock_shared(?)`, [LOCK]);
  await execBound(tx, `delete from blog_stat_actor_day where post_id = any(?::int[])`, [ids]);
  await execBound(tx, `delete from blog_stat_post_day where post_id = any(?::int[])`, [ids]);
  await fill(tx, `post_id = any(?::int[])`, [ids]);
}

/** Recomputes every rollup row from the source tables (`npm run workers -- statistics rebuild`). */
export async function rebuildAll(tx: EntityManager): Promise<{ postDays: number; actorDays: number }> {
  await execBound(tx, `select pg_advisory_xact_lock(?)`, [LOCK]);
  await execBound(tx, `truncate blog_stat_actor_day, blog_stat_post_day`, []);
  await fill(tx, `true`, []);
  const [c] = await execBound<{ p: number; a: number }>(tx, `select (select count(*)::int from blog_stat_post_day) as p, (select count(*)::int from blog_stat_actor_day) as a`, []);
  return { postDays: c!.p, actorDays: c!.a };
}
