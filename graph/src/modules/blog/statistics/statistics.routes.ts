import type { Router } from 'express';
import type { Request } from 'express';
import { badInput } from '../../../platform/errors.js';
import { handle } from '../../../platform/rest.js';
import { sendStatisticsXlsx, type EmployeeFilter } from './statistics.export.js';
import type { BlogPostStatistics, BlogStatistics, BlogStatisticsTotals } from './statistics.types.js';

const post = (p: BlogPostStatistics) => ({ blog_id: p.postId, title: p.title, author_name: p.authorName, category_name: p.categoryName, publish_start: p.publishStart });
const totals = (t: BlogStatisticsTotals) => ({ post_count: t.posts, like_count: t.likes, view_count: t.views, comment_count: t.comments });

/** The spec's statistics response (snake_case; per-category counts keyed by category name), plus the period, totals and series. */
export function toApiStatistics(s: BlogStatistics) {
  return {
    period: { mode: s.mode.toLowerCase(), start_date: s.startDate, end_date: s.endDate, previous_start_date: s.previousStartDate, previous_end_date: s.previousEndDate },
    by_category: s.byCategory.map((c) => ({
      category_id: c.categoryId,
      category_name: c.categoryName,
      total_blogs: c.totalPosts,
      like_count: c.likes,
      view_count: c.views,
      comment_count: c.comments,
      ...Object.fromEntries([0, 1, 2, 3, 4].map((i) => [`top${i + 1}`, c.top[i]?.title ?? null])),
    })),
    most_liked: s.mostLiked.map((p) => ({ ...post(p), like_count: p.likeCount })),
    most_viewed: s.mostViewed.map((p) => ({ ...post(p), view_count: p.viewCount })),
    most_commented: s.mostCommented.map((p) => ({ ...post(p), comment_count: p.commentCount })),
    aggregates: s.posts.map((p) => ({ ...post(p), like_count: p.likeCount, view_count: p.viewCount, comment_count: p.commentCount, audience: p.audience, reach: p.reach })),
    employee_stats: s.employees.map((e) => ({
      employee_name: e.employeeName,
      employee_id: e.employeeId,
      department_name: e.departmentName,
      like_count: e.likeCount,
      comment_count: e.commentCount,
      view_count: e.viewCount,
      total_post_count: e.postCount,
      ...Object.fromEntries(e.byCategory.map((c) => [c.categoryName, c.count])),
    })),
    categories: s.categories.map((c) => c.name),
    totals: totals(s.totals),
    previous_totals: totals(s.previousTotals),
    series: {
      step: s.step.toLowerCase(),
      points: s.series.map((x) => ({ date: x.date, post_count: x.posts, like_count: x.likes, view_count: x.views, comment_count: x.comments })),
    },
  };
}

const periodOf = (q: Request['query']) => ({ year: q.year, month: q.month, startDate: q.start_date, endDate: q.end_date });

const text = (v: unknown, field: string): string | undefined => {
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string' || v.length > 100) throw badInput(`${field} が正しくありません。`, [{ field, message: '100文字以内' }]);
  return v;
};
const positive = (v: unknown, field: string): number | undefined => {
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string' || !/^[1-9]\d{0,5}$/.test(v)) throw badInput(`${field} は1以上の整数で指定してください。`, [{ field, message: '1以上の整数' }]);
  return Number(v);
};

/** The per-employee filters of the export (name, department, category_id, top), as on the page. */
function employeeFilterOf(q: Request['query']): EmployeeFilter {
  return { name: text(q.name, 'name'), department: text(q.department, 'department'), categoryId: positive(q.category_id, 'category_id'), top: positive(q.top, 'top') };
}

/** GET /blogs/statistics?year=&month= or ?start_date=&end_date=, and its .xlsx export (before /blogs/:id). */
export function blogStatisticsRoutes(r: Router): void {
  r.get(
    '/blogs/statistics',
    handle(async (ctx, req) => toApiStatistics(await ctx.services.blog.statistics.report(ctx, periodOf(req.query)))),
  );
  r.get(
    '/blogs/statistics/export',
    handle(async (ctx, req, res) => {
      const filter = employeeFilterOf(req.query);
      await sendStatisticsXlsx(res, await ctx.services.blog.statistics.report(ctx, periodOf(req.query)), filter);
    }),
  );
}
