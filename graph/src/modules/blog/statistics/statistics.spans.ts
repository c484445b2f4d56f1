import type { EntityManager } from '@mikro-orm/postgresql';
import { execBound } from '../../../platform/sql.js';
import type { StatisticsPeriod } from './statistics.period.js';
import { POST_ROW, type PostFigures } from './statistics.queries.js';
import {
  otherArray,
  readableArray,
  type StatisticsRule,
  type StatisticsViewer,
  type Subset,
} from './statistics.visibility.js';

/**
 * A report of exactly one month or one calendar year read from the span rollups
 * (statistics.rollup.ts): the sums from the per-category rows corrected for the viewer
 * (statistics.visibility.ts), the rankings by walking the post rows in the order of an index until
 * enough posts the viewer may see are found. So a month's report reads about as many rows as it
 * shows, however many posts were active in it.
 */
export interface Span {
  span: 'M' | 'Y';
  at: string;
}

/** The span a period is exactly, if any. */
export function spanOf(p: Pick<StatisticsPeriod, 'start' | 'end'>): Span | null {
  const [y, m] = [p.start.slice(0, 4), p.start.slice(5, 7)];
  if (p.start === `${y}-01-01` && p.end === `${y}-12-31`) return { span: 'Y', at: p.start };
  if (p.start.endsWith('-01') && p.end.slice(0, 7) === `${y}-${m}` && nextDay(p.end).endsWith('-01'))
    return { span: 'M', at: p.start };
  return null;
}

function nextDay(d: string): string {
  return new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

const RANKINGS = {
  likes: `s.likes desc, s.views desc, s.comments desc, s.publish_start desc, s.post_id desc`,
  views: `s.views desc, s.likes desc, s.comments desc, s.publish_start desc, s.post_id desc`,
  comments: `s.comments desc, s.likes desc, s.views desc, s.publish_start desc, s.post_id desc`,
};

/**
 * The posts of the span the viewer may see (and `also`, over `p`), in `order`, the first `limit`
 * (null: all). The rule is a scalar subquery per row so that it stays a filter on the walk of the
 * index: as a join, the planner reads every post of the category to find five.
 */
const WALK = (rule: StatisticsRule, order: string, where: string, also = 'true') =>
  `select s.post_id as id, p.title, p.category_id, p.author_id, s.publish_start, s.likes, s.views, s.comments
     from (select s.* from blog_stat_post_span s
            where s.span = ? and s.at = ? and ${where} and (select ${rule.sql} and ${also} from blog_post p where p.id = s.post_id)
            order by ${order} limit ?) s
     join blog_post p on p.id = s.post_id`;

const LIST = (rule: StatisticsRule, order: string, where: string) =>
  `coalesce((select json_agg(${POST_ROW('x')} order by ${order.replace(/s\.post_id/g, 'x.id').replace(/s\./g, 'x.')}) from (${WALK(rule, order, where)}) x), '[]')`;

/** Every figure over posts of one span, as postFigures gives them for any period. */
export async function postFiguresOfSpan(
  em: EntityManager,
  rule: StatisticsViewer,
  s: Span,
  postsFirst: number | null,
): Promise<PostFigures> {
  const span = [s.span, s.at];
  const walk = (limit: number | null) => [...span, ...rule.params, limit];
  const [row] = await execBound<PostFigures>(
    em,
    `with c as (select category_id, sum(posts)::int as rows, sum(published)::int as posts, sum(likes)::int as likes, sum(views)::int as views, sum(comments)::int as comments
                  from (select category_id, posts, published, likes, views, comments from blog_stat_category_span where span = ? and at = ? and category_id = any(?::int[])
                        union all
                        select s.category_id, -1, -s.published, -s.likes, -s.views, -s.comments from blog_stat_post_span s
                         where s.span = ? and s.at = ? and s.post_id = any(?::int[]) and s.category_id = any(?::int[])
                        union all
                        select s.category_id, 1, s.published, s.likes, s.views, s.comments from blog_stat_post_span s
                         where s.span = ? and s.at = ? and s.post_id = any(?::int[]) and s.category_id = any(?::int[])) x
                 group by category_id)
     select json_build_object('posts', coalesce(sum(posts), 0), 'likes', coalesce(sum(likes), 0), 'views', coalesce(sum(views), 0),
                              'comments', coalesce(sum(comments), 0), 'rows', coalesce(sum(rows), 0)) as totals,
            coalesce((select json_agg(json_build_object('category_id', category_id, 'posts', posts, 'likes', likes, 'views', views, 'comments', comments))
                        from c where category_id = any(?::int[])), '[]') as categories,
            coalesce((select json_agg(${POST_ROW('t')}::jsonb || jsonb_build_object('rank', t.rank) order by t.category_id, t.rank)
                        from unnest(?::int[]) k(id)
                        cross join lateral (select w.*, row_number() over (order by ${RANKINGS.likes.replace(/s\.post_id/g, 'w.id').replace(/s\./g, 'w.')}) as rank
                                              from (${WALK(rule, RANKINGS.likes, 's.category_id = k.id', 'p.category_id = k.id')}) w) t), '[]') as top,
            ${LIST(rule, RANKINGS.likes, 's.likes > 0')} as most_liked,
            ${LIST(rule, RANKINGS.views, 's.views > 0')} as most_viewed,
            ${LIST(rule, RANKINGS.comments, 's.comments > 0')} as most_commented,
            ${LIST(rule, RANKINGS.likes, 'true')} as page
       from c`,
    [
      ...span,
      readableArray(rule),
      ...span,
      rule.hidden,
      readableArray(rule),
      ...span,
      rule.extra,
      otherArray(rule),
      readableArray(rule),
      readableArray(rule),
      ...walk(5),
      ...walk(10),
      ...walk(10),
      ...walk(10),
      ...walk(postsFirst),
    ],
  );
  return row!;
}

/**
 * Each employee's likes, first views and comments of the span on the posts the viewer may see, and
 * the posts they published there (employee_id, likes, views, comments, posts; only those with any):
 * the actor sums over all categories less the categories the viewer does not read when they read
 * most, else the sums of the categories they read, and the authors' sums of the categories they read;
 * corrected for the hidden and extra posts.
 */
export function employeeActivityOfSpan(
  rule: StatisticsViewer,
  s: Span,
  p: Pick<StatisticsPeriod, 'start' | 'end'>,
): Subset {
  const most = rule.categoryIds.length * 2 >= rule.categoryCount;
  const base = most
    ? `select employee_id, likes, views, comments, 0 as posts from blog_stat_actor_total where span = ? and at = ?
       union all
       select employee_id, -likes, -views, -comments, 0 from blog_stat_actor_span where span = ? and at = ? and category_id = any(?::int[])`
    : `select employee_id, likes, views, comments, 0 as posts from blog_stat_actor_span where span = ? and at = ? and category_id = any(?::int[])`;
  const baseParams = most ? [s.span, s.at, s.span, s.at, otherArray(rule)] : [s.span, s.at, readableArray(rule)];
  return {
    sql: `select employee_id, sum(likes)::int as likes, sum(views)::int as views, sum(comments)::int as comments, sum(posts)::int as posts
            from (${base}
                  union all
                  select d.employee_id, -d.likes, -d.views, -d.comments, 0 from blog_stat_actor_day d
                   where d.post_id = any(?::int[]) and d.day between ?::date and ?::date and d.category_id = any(?::int[])
                  union all
                  select d.employee_id, d.likes, d.views, d.comments, 0 from blog_stat_actor_day d
                   where d.post_id = any(?::int[]) and d.day between ?::date and ?::date and d.category_id = any(?::int[])
                  union all
                  select employee_id, 0, 0, 0, posts from blog_stat_author_span where span = ? and at = ? and category_id = any(?::int[])
                  union all
                  select s.author_id, 0, 0, 0, -s.published from blog_stat_post_span s where s.span = ? and s.at = ? and s.post_id = any(?::int[]) and s.category_id = any(?::int[])
                  union all
                  select s.author_id, 0, 0, 0, s.published from blog_stat_post_span s where s.span = ? and s.at = ? and s.post_id = any(?::int[]) and s.category_id = any(?::int[])) x
           group by employee_id having sum(likes) + sum(views) + sum(comments) + sum(posts) > 0`,
    params: [
      ...baseParams,
      rule.hidden,
      p.start,
      p.end,
      readableArray(rule),
      rule.extra,
      p.start,
      p.end,
      otherArray(rule),
      s.span,
      s.at,
      readableArray(rule),
      s.span,
      s.at,
      rule.hidden,
      readableArray(rule),
      s.span,
      s.at,
      rule.extra,
      otherArray(rule),
    ],
  };
}
