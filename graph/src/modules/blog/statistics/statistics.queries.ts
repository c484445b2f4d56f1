import type { EntityManager } from '@mikro-orm/postgresql';
import { execBound } from '../../../platform/sql.js';
import type { StatisticsPeriod } from './statistics.period.js';

/** The visibility rule over `p` (blog_post) with its parameters: BlogPostService.statisticsRule. */
export interface Rule {
  sql: string;
  params: unknown[];
  categoryIds: number[];
}

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
  published_in: boolean;
}

/**
 * Every post the rule lets through that was published in the period or had likes, views or
 * comments in it, with the period's sums (from the rollup, never the raw rows).
 */
export function postRows(em: EntityManager, rule: Rule, p: StatisticsPeriod): Promise<PostRow[]> {
  return execBound<PostRow>(
    em,
    `with s as (select post_id, sum(likes)::int as likes, sum(views)::int as views, sum(comments)::int as comments
                  from blog_stat_post_day where day between ?::date and ?::date group by post_id),
          ids as (select post_id as id from s union select id from blog_post where publish_start between ?::date and ?::date)
     select p.id, p.title, p.category_id, p.author_id, e.name as author_name, p.publish_start::text as publish_start,
            coalesce(s.likes, 0) as likes, coalesce(s.views, 0) as views, coalesce(s.comments, 0) as comments,
            p.publish_start between ?::date and ?::date as published_in
       from ids join blog_post p on p.id = ids.id join employee e on e.id = p.author_id left join s on s.post_id = p.id
      where ${rule.sql}`,
    [p.start, p.end, p.start, p.end, p.start, p.end, ...rule.params],
  );
}

export interface EmployeeRow {
  id: number;
  name: string;
  department_name: string | null;
  likes: number;
  views: number;
  comments: number;
  posts: { categoryId: number; count: number }[];
}

/** Each employee's likes, first views and comments on the posts the rule lets through, and the posts they published, in the period. */
export function employeeRows(em: EntityManager, rule: Rule, p: StatisticsPeriod): Promise<EmployeeRow[]> {
  return execBound<EmployeeRow>(
    em,
    `with a as (select a.employee_id, sum(a.likes)::int as likes, sum(a.views)::int as views, sum(a.comments)::int as comments
                  from blog_stat_actor_day a join blog_post p on p.id = a.post_id
                 where a.day between ?::date and ?::date and ${rule.sql} group by a.employee_id),
          w as (select p.author_id as employee_id, p.category_id, count(*)::int as posts from blog_post p
                 where p.publish_start between ?::date and ?::date and ${rule.sql} group by 1, 2)
     select e.id, e.name, d.name as department_name, coalesce(a.likes, 0) as likes, coalesce(a.views, 0) as views, coalesce(a.comments, 0) as comments,
            coalesce((select json_agg(json_build_object('categoryId', w.category_id, 'count', w.posts)) from w where w.employee_id = e.id), '[]') as posts
       from employee e left join department d on d.id = e.department_id left join a on a.employee_id = e.id
      where e.id in (select employee_id from a union select employee_id from w)`,
    [p.start, p.end, ...rule.params, p.start, p.end, ...rule.params],
  );
}

export interface PointRow {
  date: string;
  posts: number;
  likes: number;
  views: number;
  comments: number;
}

/** The period's sums per day or month (only steps with something in them). */
export function seriesRows(em: EntityManager, rule: Rule, p: StatisticsPeriod, step: 'DAY' | 'MONTH'): Promise<PointRow[]> {
  const unit = step === 'DAY' ? 'day' : 'month';
  return execBound<PointRow>(
    em,
    `with s as (select date_trunc('${unit}', x.day)::date as at, sum(x.likes)::int as likes, sum(x.views)::int as views, sum(x.comments)::int as comments
                  from blog_stat_post_day x join blog_post p on p.id = x.post_id
                 where x.day between ?::date and ?::date and ${rule.sql} group by 1),
          w as (select date_trunc('${unit}', p.publish_start)::date as at, count(*)::int as posts from blog_post p
                 where p.publish_start between ?::date and ?::date and ${rule.sql} group by 1)
     select coalesce(s.at, w.at)::text as date, coalesce(w.posts, 0) as posts, coalesce(s.likes, 0) as likes, coalesce(s.views, 0) as views, coalesce(s.comments, 0) as comments
       from s full join w on w.at = s.at order by 1`,
    [p.start, p.end, ...rule.params, p.start, p.end, ...rule.params],
  );
}

/** The sums of a period (the previous one, to compare with). */
export async function totalsOf(em: EntityManager, rule: Rule, p: Pick<StatisticsPeriod, 'start' | 'end'>): Promise<PointRow> {
  const [row] = await execBound<PointRow>(
    em,
    `select ''::text as date,
            (select count(*)::int from blog_post p where p.publish_start between ?::date and ?::date and ${rule.sql}) as posts,
            coalesce(sum(x.likes), 0)::int as likes, coalesce(sum(x.views), 0)::int as views, coalesce(sum(x.comments), 0)::int as comments
       from blog_stat_post_day x join blog_post p on p.id = x.post_id
      where x.day between ?::date and ?::date and ${rule.sql}`,
    [p.start, p.end, ...rule.params, p.start, p.end, ...rule.params],
  );
  return row!;
}

export interface CategoryRow {
  id: number;
  name: string;
  color: string;
  audience: number;
}

/** The categories the rule covers, with their audience: the current (not retired) employees who may read them. */
export function categoryRows(em: EntityManager, rule: Rule): Promise<CategoryRow[]> {
  return execBound<CategoryRow>(
    em,
    `select c.id, c.name, c.color,
            (select count(*)::int from employee e
              where e.status <> 'RETIRED'
                and (exists (select 1 from blog_category_employee ce where ce.category_id = c.id and ce.employee_id = e.id)
                     or exists (select 1 from blog_category_department cd where cd.category_id = c.id and cd.department_id = e.department_id))) as audience
       from blog_category c where c.id = any(?::int[]) order by c.id`,
    [`{${rule.categoryIds.join(',')}}`],
  );
}
