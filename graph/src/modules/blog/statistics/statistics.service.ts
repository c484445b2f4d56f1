import { addDays } from '@intranet/schema/calendar/tokyo';
import type { AppContext } from '../../../platform/context.js';
import { requireUser } from '../../../platform/authz.js';
import { badInput } from '../../../platform/errors.js';
import type { BlogPostReads } from '../blog-post.reads.js';
import {
  parsePeriod,
  previousPeriod,
  seriesStep,
  type PeriodInput,
  type StatisticsPeriod,
} from './statistics.period.js';
import {
  categoryRows,
  employeeActivity,
  employeeRows,
  postFigures,
  seriesRows,
  totalsOf,
  type CategoryRow,
  type EmployeeQuery,
  type PointRow,
  type PostRow,
} from './statistics.queries.js';
import { employeeActivityOfSpan, postFiguresOfSpan, spanOf } from './statistics.spans.js';
import { statisticsViewer } from './statistics.visibility.js';
import type { BlogPostStatistics, BlogStatistics, BlogStatisticsPoint } from './statistics.types.js';

/** What a report may ask besides its period: the per-post page and the per-employee filters. */
export interface ReportInput extends PeriodInput {
  postsFirst?: unknown;
  employeesFirst?: unknown;
  employeeName?: unknown;
  employeeDepartment?: unknown;
  employeeCategoryId?: unknown;
}

/** The per-post table's default page, and its largest. */
export const POSTS_FIRST = 100;
const POSTS_MAX = 1000;

function whole(v: unknown, field: string, max: number): number | undefined {
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,9}$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw badInput(`${field} は1〜${max}の整数で指定してください。`, [{ field, message: `1〜${max}` }]);
  return n;
}

function text(v: unknown, field: string): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string' || v.length > 100)
    throw badInput(`${field} は100文字以内で指定してください。`, [{ field, message: '100文字以内' }]);
  return v;
}

/** The page and filters of a report, checked; `all`: the export's whole tables. */
function tablesOf(input: ReportInput, all: boolean): { postsFirst: number | null; employees: EmployeeQuery } {
  const postsFirst = whole(input.postsFirst, 'postsFirst', POSTS_MAX);
  const employees: EmployeeQuery = {
    name: text(input.employeeName, 'employeeName'),
    department: text(input.employeeDepartment, 'employeeDepartment'),
    categoryId: whole(input.employeeCategoryId, 'employeeCategoryId', 2_147_483_647),
    top: whole(input.employeesFirst, 'employeesFirst', 1_000_000) ?? null,
  };
  return { postsFirst: all ? null : (postsFirst ?? POSTS_FIRST), employees };
}

/**
 * Blog statistics for a period (a month, or a range of up to five years), read from the rollups the
 * `statistics` consumer keeps (statistics.rollup.ts) with the visibility rule (statistics.visibility.ts): a viewer's
 * report covers only the published posts they may read today (管理者 and システム管理者: every
 * category's), so no hidden post, category or count reaches anyone through it. Every signed-in role
 * may ask. Rankings (likes, then views, comments, newest) are made in SQL, so a report's size is its
 * pages', whatever the period.
 */
export class BlogStatisticsService {
  constructor(private readonly posts: BlogPostReads) {}

  /** The report; `all` (the export) takes every row of the per-post and per-employee tables. */
  async report(ctx: AppContext, input: ReportInput, all = false): Promise<BlogStatistics> {
    requireUser(ctx);
    const period = parsePeriod(input);
    const tables = tablesOf(input, all);
    const before = previousPeriod(period);
    const step = seriesStep(period);
    const rule = await statisticsViewer(ctx.em, await this.posts.statisticsRule(ctx));
    // A month or a calendar year is read from its span rows; any other range sums its day rows.
    const span = spanOf(period);
    const [categories, figures, people, points, previous] = await Promise.all([
      categoryRows(ctx.em, rule),
      span
        ? postFiguresOfSpan(ctx.em, rule, span, tables.postsFirst)
        : postFigures(ctx.em, rule, period, tables.postsFirst),
      employeeRows(
        ctx.em,
        rule,
        period,
        tables.employees,
        span ? employeeActivityOfSpan(rule, span, period) : employeeActivity(rule, period),
      ),
      seriesRows(ctx.em, rule, period, step),
      totalsOf(ctx.em, rule, before),
    ]);
    const category = new Map(categories.map((c) => [c.id, c]));
    const post = (r: PostRow) => postOf(r, category);
    const sums = new Map(figures.categories.map((c) => [c.category_id, c]));
    return {
      mode: period.mode,
      startDate: period.start,
      endDate: period.end,
      previousStartDate: before.start,
      previousEndDate: before.end,
      step,
      totals: {
        posts: figures.totals.posts,
        likes: figures.totals.likes,
        views: figures.totals.views,
        comments: figures.totals.comments,
      },
      previousTotals: {
        posts: previous.posts,
        likes: previous.likes,
        views: previous.views,
        comments: previous.comments,
      },
      byCategory: categories.map((c) => {
        const s = sums.get(c.id);
        return {
          categoryId: c.id,
          categoryName: c.name,
          color: c.color,
          totalPosts: s?.posts ?? 0,
          likes: s?.likes ?? 0,
          views: s?.views ?? 0,
          comments: s?.comments ?? 0,
          top: figures.top.filter((t) => t.category_id === c.id).map(post),
        };
      }),
      mostLiked: figures.most_liked.map(post),
      mostViewed: figures.most_viewed.map(post),
      mostCommented: figures.most_commented.map(post),
      posts: figures.page.map(post),
      postCount: figures.totals.rows,
      employees: people.map((e) => {
        const counts = new Map(e.posts.map((x) => [x.categoryId, x.count]));
        return {
          employeeId: e.id,
          employeeName: e.name,
          departmentName: e.department_name,
          likeCount: e.likes,
          commentCount: e.comments,
          viewCount: e.views,
          postCount: e.posts.reduce((n, x) => n + x.count, 0),
          byCategory: categories.map((c) => ({ categoryId: c.id, categoryName: c.name, count: counts.get(c.id) ?? 0 })),
        };
      }),
      employeeCount: people[0]?.matched ?? 0,
      categories: categories.map((c) => ({ id: c.id, name: c.name, color: c.color })),
      series: filled(points, period, step),
    };
  }
}

function postOf(r: PostRow, category: Map<number, CategoryRow>): BlogPostStatistics {
  const c = r.category_id !== null ? category.get(r.category_id) : undefined;
  const audience = c?.audience ?? 0;
  return {
    postId: r.id,
    title: r.title,
    authorId: r.author_id,
    authorName: r.author_name,
    categoryId: r.category_id,
    categoryName: c?.name ?? null,
    publishStart: r.publish_start,
    likeCount: r.likes,
    viewCount: r.views,
    commentCount: r.comments,
    audience,
    reach: audience ? Math.min(1, r.views / audience) : null,
  };
}

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
