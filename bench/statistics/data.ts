/**
 * The statistics bench's data: the feed bench's blog at scale (100,000 posts over 900 days, 30
 * categories, `staff` reads 5) and, set-based, likes, first views and comments spread between each
 * post's publish start and today (about 2.2 million at the defaults), then the rollups rebuilt.
 */
import type pg from 'pg';
import { seedBlogAtScale, rebuildAll } from '@intranet/graph/areas';
import { openOrm } from '@intranet/graph';
import { tokyoToday } from '@intranet/schema/calendar/tokyo';
import { ensureActiveEmployees, withClient, type BenchDatabase } from '../lib/database.js';

export const VIEWER_LOGIN = 'staff';

/** Events of kind `n`-th: post, employee and a day between the post's publish start and today, by multiplicative hashing. */
const EVENTS = (table: string, who: string, at: string, count: number, salt: number) => `
  insert into ${table} (post_id, ${who}, ${at}${table === 'blog_comment' ? ', content' : ''})
  select p.ids[1 + ((g::bigint * 2654435 + ${salt}) % array_length(p.ids, 1))::int], e.ids[1 + ((g::bigint * 40503 + ${salt * 7}) % array_length(e.ids, 1))::int],
         bp.publish_start + ((g::bigint * 13 + ${salt}) % greatest(1, $1::date - bp.publish_start + 1))::int + time '09:00' + make_interval(mins => g % 600)
         ${table === 'blog_comment' ? ", 'コメント ' || g" : ''}
    from generate_series(1, ${count}) g,
         (select array_agg(id order by id) ids from blog_post where not is_draft and publish_start <= $1::date) p,
         (select array_agg(id order by id) ids from employee where status = 'ACTIVE') e,
         lateral (select publish_start from blog_post where id = p.ids[1 + ((g::bigint * 2654435 + ${salt}) % array_length(p.ids, 1))::int]) bp
  ${table === 'blog_comment' ? '' : 'on conflict do nothing'}`;

export interface StatisticsData {
  employees: number;
  posts: number;
  likes: number;
  views: number;
  comments: number;
  postDays: number;
  actorDays: number;
  rebuildMs: number;
  today: string;
  readable: number[];
  viewerId: number;
}

export async function prepareStatisticsData(
  db: BenchDatabase,
  o: { employees: number; posts: number; likes: number; views: number; comments: number },
): Promise<StatisticsData> {
  const counts = await withClient(db.url, (c) => ensureActiveEmployees(c, o.employees));
  const today = tokyoToday();
  const orm = await openOrm(db.url, 2);
  try {
    const seeded = await seedBlogAtScale(orm.em.fork(), {
      posts: o.posts,
      today,
      viewerLogin: VIEWER_LOGIN,
      categories: 30,
      viewerCategories: 5,
    });
    const made = await withClient(db.url, async (c: pg.Client) => {
      await c.query(EVENTS('blog_like', 'employee_id', 'created_at', o.likes, 1), [today]);
      await c.query(EVENTS('blog_view', 'employee_id', 'viewed_at', o.views, 2), [today]);
      await c.query(EVENTS('blog_comment', 'author_id', 'created_at', o.comments, 3), [today]);
      await c.query(`vacuum analyze blog_like, blog_view, blog_comment`);
      const r = await c.query(
        `select (select count(*)::int from blog_like) l, (select count(*)::int from blog_view) v, (select count(*)::int from blog_comment) c`,
      );
      return r.rows[0] as { l: number; v: number; c: number };
    });
    const t0 = performance.now();
    const rows = await orm.em.fork().transactional((tx) => rebuildAll(tx));
    const rebuildMs = performance.now() - t0;
    await withClient(db.url, (c) =>
      c.query(
        `vacuum analyze blog_stat_post_day, blog_stat_actor_day, blog_stat_category_day, blog_stat_post_span, blog_stat_category_span, blog_stat_actor_span, blog_stat_actor_total`,
      ),
    );
    return {
      employees: counts.total,
      posts: seeded.posts,
      likes: made.l,
      views: made.v,
      comments: made.c,
      ...rows,
      rebuildMs,
      today,
      readable: seeded.readable,
      viewerId: seeded.viewerId,
    };
  } finally {
    await orm.close();
  }
}
