import type { EntityManager } from '@mikro-orm/postgresql';
import { execBound } from '../../../platform/sql.js';
import type { StatisticsPeriod } from './statistics.period.js';
import {
  otherArray,
  readableArray,
  type StatisticsRule as Rule,
  type StatisticsViewer,
  type Subset,
} from './statistics.visibility.js';

/** A post of a table: its period's sums and what the tables show of it. */
export interface PostRow {
  id: number;
  title: string;
  category_id: number | null;
  author_id: number;
  author_name: string;
  publish_start: string;
  likes: number;
  views: number;
  comments: number;
}

export interface PostFigures {
  totals: { posts: number; likes: number; views: number; comments: number; rows: number };
  categories: { category_id: number; posts: number; likes: number; views: number; comments: number }[];
  /** Each category's first five, by the ranking. */
  top: (PostRow & { rank: number })[];
  most_liked: PostRow[];
  most_viewed: PostRow[];
  most_commented: PostRow[];
  /** The first `postsFirst` of every post in the period, by the ranking. */
  page: PostRow[];
}

/** The ranking of every table: likes, then views, comments, the newest publish start, the newest id. */
const RANKING = `likes desc, views desc, comments desc, publish_start desc, id desc`;
/** A post row of the tables as JSON (PostRow), from `t` with the post's columns. */
export const POST_ROW = (
  t: string,
) => `json_build_object('id', ${t}.id, 'title', ${t}.title, 'category_id', ${t}.category_id, 'author_id', ${t}.author_id,
  'author_name', (select name from employee where id = ${t}.author_id), 'publish_start', ${t}.publish_start::text, 'likes', ${t}.likes, 'views', ${t}.views, 'comments', ${t}.comments)`;
const TOP = (order: string, where: string) => `coalesce((select json_agg(${POST_ROW('x')} order by x.n) from
  (select v.*, row_number() over (order by ${order}) as n from v where ${where} order by ${order} limit 10) x), '[]')`;

/**
 * Every figure over posts of any period in one statement, from the day rows: the posts the rule lets
 * through that were published in the period or had likes, first views or comments in it, their sums
 * read once from the rollup, and from them the totals, each category's sums and first five, the three
 * "most" lists and one page of the per-post table (`postsFirst` rows; null: all, for the export),
 * ranked in SQL. (A month or a calendar year: postFiguresOfSpan.)
 */
export async function postFigures(
  em: EntityManager,
  rule: Rule,
  p: StatisticsPeriod,
  postsFirst: number | null,
): Promise<PostFigures> {
  const [row] = await execBound<PostFigures>(
    em,
    `with s as materialized (select post_id, sum(likes)::int as likes, sum(views)::int as views, sum(comments)::int as comments
                               from blog_stat_post_day where day between ?::date and ?::date group by post_id),
          ids as (select post_id as id from s union select id from blog_post where publish_start between ?::date and ?::date),
          v as materialized (select p.id, p.title, p.category_id, p.author_id, p.publish_start,
                                    coalesce(s.likes, 0) as likes, coalesce(s.views, 0) as views, coalesce(s.comments, 0) as comments,
                                    p.publish_start between ?::date and ?::date as published_in
                               from ids join blog_post p on p.id = ids.id left join s on s.post_id = p.id where ${rule.sql}),
          r as (select v.*, row_number() over (order by ${RANKING}) as n, row_number() over (partition by category_id order by ${RANKING}) as rank from v)
     select json_build_object('posts', count(*) filter (where published_in), 'likes', coalesce(sum(likes), 0), 'views', coalesce(sum(views), 0),
                              'comments', coalesce(sum(comments), 0), 'rows', count(*)) as totals,
            coalesce((select json_agg(c) from (select category_id, count(*) filter (where published_in) as posts, sum(likes) as likes, sum(views) as views,
                                                      sum(comments) as comments from v where category_id is not null group by category_id) c), '[]') as categories,
            coalesce((select json_agg(${POST_ROW('r')}::jsonb || jsonb_build_object('rank', r.rank) order by r.category_id, r.rank) from r where r.rank <= 5), '[]') as top,
            ${TOP(RANKING, 'likes > 0')} as most_liked,
            ${TOP(`views desc, ${RANKING}`, 'views > 0')} as most_viewed,
            ${TOP(`comments desc, ${RANKING}`, 'comments > 0')} as most_commented,
            coalesce((select json_agg(${POST_ROW('r')} order by r.n) from r where ?::int is null or r.n <= ?::int), '[]') as page
       from v`,
    [p.start, p.end, p.start, p.end, p.start, p.end, ...rule.params, postsFirst, postsFirst],
  );
  return row!;
}

export interface EmployeeRow {
  id: number;
  name: string;
  department_name: string | null;
  likes: number;
  views: number;
  comments: number;
  posts: { categoryId: number; count: number }[];
  /** How many employees matched before the top N. */
  matched: number;
}

/** The per-employee table's filters: name and department contain, published in a category, the first `top`. */
export interface EmployeeQuery {
  name?: string;
  department?: string;
  categoryId?: number;
  top: number | null;
}

/** Each employee's likes, first views and comments, and posts published, of any period on the posts the rule lets through, from the day rows. */
export function employeeActivity(rule: Rule, p: Pick<StatisticsPeriod, 'start' | 'end'>): Subset {
  return {
    sql: `select employee_id, sum(likes)::int as likes, sum(views)::int as views, sum(comments)::int as comments, sum(posts)::int as posts
            from (select a.employee_id, a.likes, a.views, a.comments, 0 as posts from blog_stat_actor_day a join blog_post p on p.id = a.post_id
                   where a.day between ?::date and ?::date and ${rule.sql}
                  union all
                  select p.author_id, 0, 0, 0, 1 from blog_post p where p.publish_start between ?::date and ?::date and ${rule.sql}) x
           group by employee_id`,
    params: [p.start, p.end, ...rule.params, p.start, p.end, ...rule.params],
  };
}

/**
 * Each employee's `activity` (employeeActivity or employeeActivityOfSpan: likes, first views and
 * comments given, posts published); those `f` keeps, most active first, the first `f.top`. Names,
 * departments and the posts per category are read for those shown only.
 */
export function employeeRows(
  em: EntityManager,
  rule: Rule,
  p: StatisticsPeriod,
  f: EmployeeQuery,
  activity: Subset,
): Promise<EmployeeRow[]> {
  const name = f.name?.trim() ?? '';
  const department = f.department?.trim() ?? '';
  const published = `p.publish_start between ?::date and ?::date and ${rule.sql}`;
  const filters: Subset[] = [
    name || department
      ? {
          sql: `exists (select 1 from employee e left join department d on d.id = e.department_id
                         where e.id = a.employee_id and strpos(e.name, ?) > 0 and strpos(coalesce(d.name, ''), ?) > 0)`,
          params: [name, department],
        }
      : { sql: `exists (select 1 from employee e where e.id = a.employee_id)`, params: [] },
    ...(f.categoryId !== undefined
      ? [
          {
            sql: `exists (select 1 from blog_post p where p.author_id = a.employee_id and p.category_id = ?::int and ${published})`,
            params: [f.categoryId, p.start, p.end, ...rule.params],
          },
        ]
      : []),
  ];
  return execBound<EmployeeRow>(
    em,
    `with a as materialized (${activity.sql}),
          t as materialized (select a.*, a.likes + a.views + a.comments + a.posts as activity, count(*) over ()::int as matched from a
                              where ${filters.map((x) => x.sql).join(' and ')} order by a.likes + a.views + a.comments + a.posts desc, a.employee_id limit ?),
          b as (select p.author_id, json_agg(json_build_object('categoryId', p.category_id, 'count', p.n)) as posts
                  from (select p.author_id, p.category_id, count(*)::int as n from blog_post p
                         where p.author_id = any(array(select employee_id from t)) and ${published} group by 1, 2) p group by 1)
     select t.employee_id as id, e.name, d.name as department_name, t.likes, t.views, t.comments, coalesce(b.posts, '[]') as posts, t.matched
       from t join employee e on e.id = t.employee_id left join department d on d.id = e.department_id left join b on b.author_id = t.employee_id
      order by t.activity desc, t.employee_id`,
    [...activity.params, ...filters.flatMap((x) => x.params), f.top, p.start, p.end, ...rule.params],
  );
}

export interface PointRow {
  date: string;
  posts: number;
  likes: number;
  views: number;
  comments: number;
}

/**
 * The viewer's sums per category and day in [start, end]: the per-category day rows of the categories
 * they read, less the hidden posts' day rows, plus the extra posts' (statistics.visibility.ts).
 */
function daySums(rule: StatisticsViewer, p: Pick<StatisticsPeriod, 'start' | 'end'>): Subset {
  const days = [p.start, p.end];
  return {
    sql: `select category_id, day, published, likes, views, comments from blog_stat_category_day where category_id = any(?::int[]) and day between ?::date and ?::date
          union all
          select d.category_id, d.day, -d.published, -d.likes, -d.views, -d.comments from blog_stat_post_day d
           where d.post_id = any(?::int[]) and d.day between ?::date and ?::date and d.category_id = any(?::int[])
          union all
          select d.category_id, d.day, d.published, d.likes, d.views, d.comments from blog_stat_post_day d
           where d.post_id = any(?::int[]) and d.day between ?::date and ?::date and d.category_id = any(?::int[])`,
    params: [
      readableArray(rule),
      ...days,
      rule.hidden,
      ...days,
      readableArray(rule),
      rule.extra,
      ...days,
      otherArray(rule),
    ],
  };
}

/** The period's sums per day or month (steps with nothing in them may be missing). */
export function seriesRows(
  em: EntityManager,
  rule: StatisticsViewer,
  p: StatisticsPeriod,
  step: 'DAY' | 'MONTH',
): Promise<PointRow[]> {
  const sums = daySums(rule, p);
  return execBound<PointRow>(
    em,
    `select date_trunc('${step === 'DAY' ? 'day' : 'month'}', x.day)::date::text as date, sum(x.published)::int as posts,
            sum(x.likes)::int as likes, sum(x.views)::int as views, sum(x.comments)::int as comments
       from (${sums.sql}) x group by 1 order by 1`,
    sums.params,
  );
}

/** The sums of a period (the previous one, to compare with). */
export async function totalsOf(
  em: EntityManager,
  rule: StatisticsViewer,
  p: Pick<StatisticsPeriod, 'start' | 'end'>,
): Promise<PointRow> {
  const sums = daySums(rule, p);
  const [row] = await execBound<PointRow>(
    em,
    `select ''::text as date, coalesce(sum(x.published), 0)::int as posts, coalesce(sum(x.likes), 0)::int as likes,
            coalesce(sum(x.views), 0)::int as views, coalesce(sum(x.comments), 0)::int as comments
       from (${sums.sql}) x`,
    sums.params,
  );
  return row!;
}

export interface CategoryRow {
  id: number;
  name: string;
  color: string;
  audience: number;
}

/**
 * The categories the rule covers, with their audience: the current (not retired) employees who may
 * read them. Counted per department once, then each category's departments summed and its direct
 * members outside them added: the work is the employees' count, not the categories' times it.
 */
export function categoryRows(em: EntityManager, rule: Rule): Promise<CategoryRow[]> {
  return execBound<CategoryRow>(
    em,
    `with d as (select department_id, count(*)::int as n from employee where status <> 'RETIRED' and department_id is not null group by 1),
          bd as (select cd.category_id, sum(d.n)::int as n from blog_category_department cd join d on d.department_id = cd.department_id
                  where cd.category_id = any(?::int[]) group by 1),
          be as (select ce.category_id, count(*)::int as n from blog_category_employee ce join employee e on e.id = ce.employee_id
                  where ce.category_id = any(?::int[]) and e.status <> 'RETIRED'
                    and not exists (select 1 from blog_category_department cd where cd.category_id = ce.category_id and cd.department_id = e.department_id)
                  group by 1)
     select c.id, c.name, c.color, coalesce(bd.n, 0) + coalesce(be.n, 0) as audience
       from blog_category c left join bd on bd.category_id = c.id left join be on be.category_id = c.id where c.id = any(?::int[]) order by c.id`,
    [readableArray(rule), readableArray(rule), readableArray(rule)],
  );
}
