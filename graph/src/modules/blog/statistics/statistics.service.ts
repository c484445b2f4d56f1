import { addDays } from '../../../../../schema/calendar/tokyo.js';
import type { AppContext } from '../../../platform/context.js';
import { requireUser } from '../../../platform/authz.js';
import type { BlogPostService } from '../blog-post.service.js';
import { parsePeriod, previousPeriod, seriesStep, type PeriodInput, type StatisticsPeriod } from './statistics.period.js';
import { categoryRows, employeeRows, postRows, seriesRows, totalsOf, type PointRow } from './statistics.queries.js';
import type { BlogCategoryStatistics, BlogEmployeeStatistics, BlogPostStatistics, BlogStatistics, BlogStatisticsPoint } from './statistics.types.js';

/** How many posts the "most" tables and a category's top list show. */
const MOST = 10;
const TOP = 5;

/** Likes first, then views, comments, the newest publish start and the newest id: one order for every ranking. */
const byLikes = (a: BlogPostStatistics, b: BlogPostStatistics) =>
  b.likeCount - a.likeCount || b.viewCount - a.viewCount || b.commentCount - a.commentCount || b.publishStart.localeCompare(a.publishStart) || b.postId - a.postId;
const byViews = (a: BlogPostStatistics, b: BlogPostStatistics) => b.viewCount - a.viewCount || byLikes(a, b);
const byComments = (a: BlogPostStatistics, b: BlogPostStatistics) => b.commentCount - a.commentCount || byLikes(a, b);

/**
 * Blog statistics for a period (a month, or a range of up to five years), read from the rollups the
 * `statistics` consumer keeps (statistics.rollup.ts) and joined with the visibility rule: a viewer's
 * report covers only the published posts they may read today (管理者 and システム管理者: every
 * category's), so no hidden post, category or count reaches anyone through it. Every signed-in role
 * may ask.
 */
export class BlogStatisticsService {
  constructor(private readonly posts: BlogPostService) {}

  async report(ctx: AppContext, input: PeriodInput): Promise<BlogStatistics> {
    requireUser(ctx);
    const period = parsePeriod(input);
    const before = previousPeriod(period);
    const step = seriesStep(period);
    const rule = await this.posts.statisticsRule(ctx);
    const [categories, rows, people, points, previous] = await Promise.all([
      categoryRows(ctx.em, rule),
      postRows(ctx.em, rule, period),
      employeeRows(ctx.em, rule, period),
      seriesRows(ctx.em, rule, period, step),
      totalsOf(ctx.em, rule, before),
    ]);
    const category = new Map(categories.map((c) => [c.id, c]));
    const posts: BlogPostStatistics[] = rows.map((r) => {
      const audience = (r.category_id !== null && category.get(r.category_id)?.audience) || 0;
      return {
        postId: r.id,
        title: r.title,
        authorId: r.author_id,
        authorName: r.author_name,
        categoryId: r.category_id,
        categoryName: r.category_id !== null ? (category.get(r.category_id)?.name ?? null) : null,
        publishStart: r.publish_start,
        likeCount: r.likes,
        viewCount: r.views,
        commentCount: r.comments,
        audience,
        reach: audience ? Math.min(1, r.views / audience) : null,
      };
    });
    posts.sort(byLikes);
    const published = new Set(rows.filter((r) => r.published_in).map((r) => r.id));
    const totals = {
      posts: published.size,
      likes: sum(posts, (p) => p.likeCount),
      views: sum(posts, (p) => p.viewCount),
      comments: sum(posts, (p) => p.commentCount),
    };
    const byCategory: BlogCategoryStatistics[] = categories.map((c) => {
      const mine = posts.filter((p) => p.categoryId === c.id);
      return {
        categoryId: c.id,
        categoryName: c.name,
        color: c.color,
        totalPosts: mine.filter((p) => published.has(p.postId)).length,
        likes: sum(mine, (p) => p.likeCount),
        views: sum(mine, (p) => p.viewCount),
        comments: sum(mine, (p) => p.commentCount),
        top: mine.slice(0, TOP),
      };
    });
    const employees: BlogEmployeeStatistics[] = people.map((e) => {
      const counts = new Map(e.posts.map((x) => [x.categoryId, x.count]));
      return {
        employeeId: e.id,
        employeeName: e.name,
        departmentName: e.department_name,
        likeCount: e.likes,
        commentCount: e.comments,
        viewCount: e.views,
        postCount: sum(e.posts, (x) => x.count),
        byCategory: categories.map((c) => ({ categoryId: c.id, categoryName: c.name, count: counts.get(c.id) ?? 0 })),
      };
    });
    employees.sort((a, b) => activity(b) - activity(a) || a.employeeId - b.employeeId);
    return {
      mode: period.mode,
      startDate: period.start,
      endDate: period.end,
      previousStartDate: before.start,
      previousEndDate: before.end,
      step,
      totals,
      previousTotals: { posts: previous.posts, likes: previous.likes, views: previous.views, comments: previous.comments },
      byCategory,
      mostLiked: posts.filter((p) => p.likeCount > 0).slice(0, MOST),
      mostViewed: posts
        .filter((p) => p.viewCount > 0)
        .sort(byViews)
        .slice(0, MOST),
      mostCommented: posts
        .filter((p) => p.commentCount > 0)
        .sort(byComments)
        .slice(0, MOST),
      posts,
      employees,
      categories: categories.map((c) => ({ id: c.id, name: c.name, color: c.color })),
      series: filled(points, period, step),
    };
  }
}

const sum = <T>(xs: readonly T[], f: (x: T) => number) => xs.reduce((n, x) => n + f(x), 0);
const activity = (e: BlogEmployeeStatistics) => e.likeCount + e.commentCount + e.viewCount + e.postCount;

/** Every step of the period, with zeros where nothing happened (a chart's axis has no gaps). */
function filled(points: PointRow[], p: StatisticsPeriod, step: 'DAY' | 'MONTH'): BlogStatisticsPoint[] {
  const at = new Map(points.map((x) => [x.date, x]));
  const out: BlogStatisticsPoint[] = [];
  let d = step === 'DAY' ? p.start : `${p.start.slice(0, 7)}-01`;
  while (d <= p.end) {
    const x = at.get(d);
    out.push({ date: d, posts: x?.posts ?? 0, likes: x?.likes ?? 0, views: x?.views ?? 0, comments: x?.comments ?? 0 });
    d = step === 'DAY' ? addDays(d, 1) : nextMonth(d);
  }
  return out;
}

function nextMonth(d: string): string {
  const y = Number(d.slice(0, 4));
  const m = Number(d.slice(5, 7));
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
}
