import type { EntityManager } from '@mikro-orm/postgresql';
import { execBound, pgArray } from '../../../platform/sql.js';

/**
 * The statistics rollups (migrations 20261206040000 and 20261207030000). The day rows are facts
 * about one post: per post and Tokyo day, and per actor, post and day, the likes (standing, on the
 * day given), first views and comments (not deleted, on the day written), each with the category the
 * post counted in (0 while it is a draft: no one's statistics show a draft) and, on its publish
 * start, its publication. The coarse rows are sums of the day rows: per category and day; per post,
 * per category, per author and category (posts published), per employee and category, and per
 * employee, each by month and by year (span 'M' or 'Y', `at` its first day).
 *
 * Refreshing a post recomputes its day rows from the source tables (blog_like, blog_view,
 * blog_comment, blog_post) and moves the sums by the difference (old rows out, new rows in): applying
 * an event twice, late or out of order leaves the same rows, a deleted post's rows leave every sum,
 * and a rebuild gives exactly what the events kept. Refreshes and rebuilds take one lock in turn: the
 * sums are moved in one order by one writer, so two batches never deadlock or count a row twice.
 */

const LOCK = 0x5741_7473; // 'Stat'

const DAY = (column: string) => `(${column} at time zone 'Asia/Tokyo')::date`;
const SPANS = `(values ('M', 'month'), ('Y', 'year')) s(span, unit)`;
const ADD = (cols: string[]) => cols.map((c) => `${c} = t.${c} + excluded.${c}`).join(', ');
const SUMS = ['likes', 'views', 'comments'];

/** The source facts of the posts `filter` (over `post_id`) selects: one row each, actor null for a publication. */
const FACTS = (filter: string) => `
  select post_id, employee_id, ${DAY('created_at')} as day, 0 as published, 1 as likes, 0 as views, 0 as comments from blog_like where ${filter}
  union all
  select post_id, employee_id, ${DAY('viewed_at')}, 0, 0, 1, 0 from blog_view where ${filter}
  union all
  select post_id, author_id, ${DAY('created_at')}, 0, 0, 0, 1 from blog_comment where ${filter}
  union all
  select id, null, publish_start, case when is_draft then 0 else 1 end, 0, 0, 0 from blog_post where ${filter.replace(/post_id/g, 'id')}`;

/** Moves the sums by the day rows `rows` returns (a delete's or an insert's), times `sign`. */
async function moveSums(
  tx: EntityManager,
  rows: { post: string; actor: string },
  params: unknown[],
  sign: 1 | -1,
): Promise<void> {
  await execBound(
    tx,
    `with d as (${rows.post} returning post_id, day, category_id, published, likes, views, comments),
          c as (insert into blog_stat_category_day as t (category_id, day, published, likes, views, comments)
                select category_id, day, ?::int * sum(published), ?::int * sum(likes), ?::int * sum(views), ?::int * sum(comments) from d group by 1, 2 order by 1, 2
                on conflict (category_id, day) do update set ${ADD(['published', ...SUMS])})
     select 1`,
    [...params, sign, sign, sign, sign],
  );
  await execBound(
    tx,
    `with d as (${rows.actor} returning employee_id, day, category_id, likes, views, comments),
          m as (select s.span, date_trunc(s.unit, d.day)::date as at, d.category_id, d.employee_id, d.likes, d.views, d.comments from d cross join ${SPANS}),
          a as (insert into blog_stat_actor_span as t (span, at, category_id, employee_id, likes, views, comments)
                select span, at, category_id, employee_id, ?::int * sum(likes), ?::int * sum(views), ?::int * sum(comments) from m group by 1, 2, 3, 4 order by 1, 2, 3, 4
                on conflict (span, at, category_id, employee_id) do update set ${ADD(SUMS)})
     insert into blog_stat_actor_total as t (span, at, employee_id, likes, views, comments)
     select span, at, employee_id, ?::int * sum(likes), ?::int * sum(views), ?::int * sum(comments) from m group by 1, 2, 3 order by 1, 2, 3
     on conflict (span, at, employee_id) do update set ${ADD(SUMS)}`,
    [...params, sign, sign, sign, sign, sign, sign],
  );
}

/** Moves the per-category and per-author span sums by the post span rows `rows` returns, times `sign`. */
async function moveSpanSums(tx: EntityManager, rows: string, params: unknown[], sign: 1 | -1): Promise<void> {
  await execBound(
    tx,
    `with d as (${rows} returning span, at, category_id, author_id, published, likes, views, comments),
          a as (insert into blog_stat_author_span as t (span, at, category_id, employee_id, posts)
                select span, at, category_id, author_id, ?::int * sum(published) from d where published > 0 group by 1, 2, 3, 4 order by 1, 2, 3, 4
                on conflict (span, at, category_id, employee_id) do update set ${ADD(['posts'])})
     insert into blog_stat_category_span as t (span, at, category_id, posts, published, likes, views, comments)
     select span, at, category_id, ?::int * count(*), ?::int * sum(published), ?::int * sum(likes), ?::int * sum(views), ?::int * sum(comments)
       from d group by 1, 2, 3 order by 1, 2, 3
     on conflict (span, at, category_id) do update set ${ADD(['posts', 'published', ...SUMS])}`,
    [...params, sign, sign, sign, sign, sign, sign],
  );
}

/** The post span rows of the posts whose day rows `filter` selects, from those day rows. */
const POST_SPANS = (filter: string) => `
  insert into blog_stat_post_span (span, at, post_id, category_id, publish_start, author_id, published, likes, views, comments)
  select s.span, date_trunc(s.unit, d.day)::date, d.post_id, d.category_id, p.publish_start, p.author_id, sum(d.published), sum(d.likes), sum(d.views), sum(d.comments)
    from blog_stat_post_day d join blog_post p on p.id = d.post_id cross join ${SPANS}
   where ${filter} group by 1, 2, 3, 4, 5, 6`;

/** The day rows of the posts `filter` selects, from the source facts. */
const POST_DAYS = (filter: string) => `
  insert into blog_stat_post_day (post_id, day, category_id, published, likes, views, comments)
  select f.post_id, f.day, case when p.is_draft then 0 else p.category_id end, sum(f.published), sum(f.likes), sum(f.views), sum(f.comments)
    from (${FACTS(filter)}) f join blog_post p on p.id = f.post_id group by 1, 2, 3`;
const ACTOR_DAYS = (filter: string) => `
  insert into blog_stat_actor_day (post_id, employee_id, day, category_id, likes, views, comments)
  select f.post_id, f.employee_id, f.day, case when p.is_draft then 0 else p.category_id end, sum(f.likes), sum(f.views), sum(f.comments)
    from (${FACTS(filter)}) f join blog_post p on p.id = f.post_id where f.employee_id is not null group by 1, 2, 3, 4`;

/** Recomputes the rollup rows of `postIds` (posts deleted since have none left, and leave every sum). */
export async function refreshPosts(tx: EntityManager, postIds: readonly number[]): Promise<void> {
  if (!postIds.length) return;
  const ids = pgArray([...new Set(postIds)].sort((a, b) => a - b));
  await execBound(tx, `select pg_advisory_xact_lock(?)`, [LOCK]);
  const these = `post_id = any(?::int[])`;
  await moveSpanSums(tx, `delete from blog_stat_post_span where ${these}`, [ids], -1);
  await moveSums(
    tx,
    { post: `delete from blog_stat_post_day where ${these}`, actor: `delete from blog_stat_actor_day where ${these}` },
    [ids],
    -1,
  );
  // FACTS reads its filter four times: the ids once per source table.
  const facts = [ids, ids, ids, ids];
  await moveSums(tx, { post: POST_DAYS(these), actor: ACTOR_DAYS(these) }, facts, 1);
  await moveSpanSums(tx, POST_SPANS(`d.${these}`), [ids], 1);
}

/** Recomputes every rollup row from the source tables (`npm run workers -- statistics rebuild`). */
export async function rebuildAll(tx: EntityManager): Promise<{ postDays: number; actorDays: number }> {
  await execBound(tx, `select pg_advisory_xact_lock(?)`, [LOCK]);
  await execBound(
    tx,
    `truncate blog_stat_actor_day, blog_stat_post_day, blog_stat_category_day, blog_stat_post_span, blog_stat_category_span, blog_stat_author_span,
              blog_stat_actor_span, blog_stat_actor_total`,
    [],
  );
  await execBound(tx, POST_DAYS('true'), []);
  await execBound(tx, ACTOR_DAYS('true'), []);
  await execBound(
    tx,
    `insert into blog_stat_category_day select category_id, day, sum(published), sum(likes), sum(views), sum(comments) from blog_stat_post_day group by 1, 2`,
    [],
  );
  await execBound(tx, POST_SPANS('true'), []);
  await execBound(
    tx,
    `insert into blog_stat_category_span select span, at, category_id, count(*), sum(published), sum(likes), sum(views), sum(comments) from blog_stat_post_span group by 1, 2, 3`,
    [],
  );
  await execBound(
    tx,
    `insert into blog_stat_author_span select span, at, category_id, author_id, sum(published) from blog_stat_post_span group by 1, 2, 3, 4 having sum(published) > 0`,
    [],
  );
  await execBound(
    tx,
    `insert into blog_stat_actor_span select s.span, date_trunc(s.unit, d.day)::date, d.category_id, d.employee_id, sum(d.likes), sum(d.views), sum(d.comments)
       from blog_stat_actor_day d cross join ${SPANS} group by 1, 2, 3, 4`,
    [],
  );
  await execBound(
    tx,
    `insert into blog_stat_actor_total select span, at, employee_id, sum(likes), sum(views), sum(comments) from blog_stat_actor_span group by 1, 2, 3`,
    [],
  );
  const [c] = await execBound<{ p: number; a: number }>(
    tx,
    `select (select count(*)::int from blog_stat_post_day) as p, (select count(*)::int from blog_stat_actor_day) as a`,
    [],
  );
  return { postDays: c!.p, actorDays: c!.a };
}
