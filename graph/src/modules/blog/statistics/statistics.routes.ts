import type { Router } from 'express';
import type { Request } from 'express';
import { handle } from '../../../platform/rest.js';
import { sendStatisticsXlsx } from './statistics.export.js';
import type { BlogPostStatistics, BlogStatistics, BlogStatisticsTotals } from './statistics.types.js';

const post = (p: BlogPostStatistics) => ({
  blog_id: p.postId,
  title: p.title,
  author_name: p.authorName,
  category_name: p.categoryName,
  publish_start: p.publishStart,
});
const totals = (t: BlogStatisticsTotals) => ({
  post_count: t.posts,
  like_count: t.likes,
  view_count: t.views,
  comment_count: t.comments,
});

/** The spec's statistics response (snake_case; per-category counts keyed by category name), plus the period, totals and series. */
export function toApiStatistics(s: BlogStatistics) {
  return {
    period: {
      mode: s.mode.toLowerCase(),
      start_date: s.startDate,
      end_date: s.endDate,
      previous_start_date: s.previousStartDate,
      previous_end_date: s.previousEndDate,
    },
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
    post_count: s.postCount,
    employee_count: s.employeeCount,
    aggregates: s.posts.map((p) => ({
      ...post(p),
      like_count: p.likeCount,
      view_count: p.viewCount,
      comment_count: p.commentCount,
      audience: p.audience,
      reach: p.reach,
    })),
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
      points: s.series.map((x) => ({
        date: x.date,
        post_count: x.posts,
        like_count: x.likes,
        view_count: x.views,
        comment_count: x.comments,
      })),
    },
  };
}

/** The query parameters of both routes: the period, the per-post page and the per-employee filters (checked by the service). */
const inputOf = (q: Request['query']) => ({
  year: q.year,
  month: q.month,
  startDate: q.start_date,
  endDate: q.end_date,
  postsFirst: q.posts_limit,
  employeesFirst: q.top,
  employeeName: q.name,
  employeeDepartment: q.department,
  employeeCategoryId: q.category_id,
});

/** GET /blogs/statistics?year=&month= or ?start_date=&end_date=, and its .xlsx export (before /blogs/:id). */
export function blogStatisticsRoutes(r: Router): void {
  r.get(
    '/blogs/statistics',
    handle(async (ctx, req, res) => {
      const report = await ctx.services.blog.statistics.report(ctx, inputOf(req.query));
      res.setHeader('X-Total-Count', String(report.postCount));
      return toApiStatistics(report);
    }),
  );
  r.get(
    '/blogs/statistics/export',
    handle(async (ctx, req, res) => {
      const input = inputOf(req.query);
      await sendStatisticsXlsx(res, await ctx.services.blog.statistics.report(ctx, input, true), input);
    }),
  );
}
