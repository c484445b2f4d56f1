import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, gql } from '../../../test/http.js';
import { blogWorld, type BlogWorld } from '../blog.test-support.js';
import { rebuildAll } from './statistics.rollup.js';
import { PERIOD_MESSAGES, parsePeriod, previousPeriod } from './statistics.period.js';

// The rollups are the statistics worker's (workers/src/statistics/, tested there with the worker
// running); here a rebuild brings them up to date after each history is written.

let w: BlogWorld;
const posts: Record<string, number> = {};
const rebuild = () => w.p.db.orm.em.fork().transactional((tx) => rebuildAll(tx));
const month = (d: string) => ({ y: Number(d.slice(0, 4)), m: Number(d.slice(5, 7)) });
/** The first day of the month before this one, and a day in it. */
let lastMonth: string;

const LIKE = `mutation($id: Int!, $on: Boolean!) { likeBlogPost(id: $id, liked: $on) { id } }`;
const SEEN = `mutation($id: Int!) { markBlogPostSeen(id: $id) { id } }`;
const COMMENT = `mutation($i: BlogCommentInput!) { addBlogComment(input: $i) { id } }`;
const must = async (token: string, q: string, vars: Record<string, unknown>) => {
  const r = await gql(w.p.url, q, vars, { token });
  if (r.body.errors) throw new Error(JSON.stringify(r.body.errors));
  return r.body.data;
};
const STATS = `query($y: Int, $m: Int, $s: String, $e: String) { blogStatistics(year: $y, month: $m, startDate: $s, endDate: $e) {
  mode startDate endDate previousStartDate step
  totals { posts likes views comments } previousTotals { posts likes views comments }
  byCategory { categoryName totalPosts likes top { title likeCount } }
  mostLiked { title likeCount } mostViewed { title viewCount } mostCommented { title commentCount }
  posts { postId title likeCount viewCount commentCount audience reach }
  employees { employeeId employeeName likeCount viewCount commentCount postCount byCategory { categoryName count } }
  categories { name } series { date posts likes views comments } } }`;
const stats = async (token: string, vars: Record<string, unknown>) => (await must(token, STATS, vars)).blogStatistics;

beforeAll(async () => {
  w = await blogWorld();
  lastMonth = `${w.day(-Number(w.today.slice(8, 10))).slice(0, 7)}-01`;
  posts.news = (
    await w.post(w.token.staff, { title: '営業ニュース今月', categoryId: w.cat.news, publishStart: w.today })
  ).id;
  posts.old = (
    await w.post(w.token.colleague, { title: '先月の営業ニュース', categoryId: w.cat.news, publishStart: lastMonth })
  ).id;
  posts.board = (
    await w.post(w.token.admin, { title: '役員会の議事録', categoryId: w.cat.board, publishStart: w.today })
  ).id;
  posts.draft = (
    await w.post(w.token.staff, { title: '下書きの投稿', categoryId: w.cat.news, publishStart: w.today, isDraft: true })
  ).id;
  for (const t of [w.token.colleague, w.token.admin]) await must(t, LIKE, { id: posts.news, on: true });
  await must(w.token.staff, LIKE, { id: posts.old, on: true });
  for (const t of [w.token.staff, w.token.colleague, w.token.admin]) await must(t, SEEN, { id: posts.news });
  await must(w.token.admin, LIKE, { id: posts.board, on: true });
  await must(w.token.admin, SEEN, { id: posts.board });
  await must(w.token.colleague, COMMENT, { i: { postId: posts.news, content: 'いいですね' } });
  // The like on last month's post was given last month.
  await w.sql(`update blog_like set created_at = ?::date + time '12:00' where post_id = ?`, [lastMonth, posts.old]);
  await rebuild();
});
afterAll(async () => w?.p.close());

describe('the period', () => {
  it('is this month by default, a month, or a range; each bad range is BAD_USER_INPUT with its Japanese message', () => {
    expect(parsePeriod({}, '2026-02-10')).toEqual({ mode: 'MONTH', start: '2026-02-01', end: '2026-02-28' });
    expect(parsePeriod({ year: '2024', month: '2' })).toEqual({
      mode: 'MONTH',
      start: '2024-02-01',
      end: '2024-02-29',
    });
    expect(parsePeriod({ startDate: '2026-01-01', endDate: '2026-12-31' })).toEqual({
      mode: 'RANGE',
      start: '2026-01-01',
      end: '2026-12-31',
    });
    const message = (input: Record<string, unknown>) => {
      try {
        parsePeriod(input);
      } catch (e) {
        return (e as Error).message;
      }
      return 'no error';
    };
    expect(message({ startDate: '2026-01-01' })).toBe(PERIOD_MESSAGES.missingEnd);
    expect(message({ endDate: '2026-01-01' })).toBe(PERIOD_MESSAGES.missingEnd);
    expect(message({ startDate: '', endDate: '' })).toBe(PERIOD_MESSAGES.missingEnd);
    expect(message({ year: '', month: '3' })).toBe(PERIOD_MESSAGES.badMonth);
    expect(message({ startDate: '2026-02-01', endDate: '2026-01-31' })).toBe(PERIOD_MESSAGES.reversed);
    expect(message({ startDate: '2020-01-01', endDate: '2025-01-01' })).toBe(PERIOD_MESSAGES.tooLong);
    expect(message({ startDate: '2020-01-01', endDate: '2024-12-31' })).toBe('no error');
    expect(message({ startDate: '2026-02-30', endDate: '2026-03-01' })).toBe(PERIOD_MESSAGES.badDate);
    expect(message({ year: 2026, month: 13 })).toBe(PERIOD_MESSAGES.badMonth);
    expect(message({ year: 2026, month: 1, startDate: '2026-01-01', endDate: '2026-01-02' })).toBe(
      PERIOD_MESSAGES.both,
    );
    expect(previousPeriod({ mode: 'MONTH', start: '2026-01-01', end: '2026-01-31' })).toEqual({
      mode: 'MONTH',
      start: '2025-12-01',
      end: '2025-12-31',
    });
    expect(previousPeriod({ mode: 'RANGE', start: '2026-01-11', end: '2026-01-20' })).toEqual({
      mode: 'RANGE',
      start: '2026-01-01',
      end: '2026-01-10',
    });
  });

  it('on /api a missing end, a reversed or a too long range is a 400 with the message and code; GraphQL says the same', async () => {
    const missing = await api(w.p.url, 'GET', '/blogs/statistics?start_date=2026-01-01', { token: w.token.staff });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'BAD_USER_INPUT', error: '開始日と終了日を入力してください' });
    const reversed = await api(w.p.url, 'GET', '/blogs/statistics?start_date=2026-02-01&end_date=2026-01-01', {
      token: w.token.staff,
    });
    expect(reversed.status).toBe(400);
    const long = await api(w.p.url, 'GET', '/blogs/statistics?start_date=2019-01-01&end_date=2026-01-01', {
      token: w.token.staff,
    });
    expect(long.body.error).toBe(PERIOD_MESSAGES.tooLong);
    const g = await gql(w.p.url, STATS, { s: '2026-01-01' }, { token: w.token.staff });
    expect(g.body.errors[0]).toMatchObject({
      message: '開始日と終了日を入力してください',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const anonymous = await api(w.p.url, 'GET', '/blogs/statistics');
    expect(anonymous.status).toBe(401);
  });
});

describe('the figures', () => {
  it('this month for 管理者: posts by publish start, likes and first views and comments of the month, rankings, categories and a daily series', async () => {
    const s = await stats(w.token.admin, month(w.today));
    expect(s).toMatchObject({ mode: 'MONTH', step: 'DAY' });
    // The draft is never counted; last month's post is not a post of this month, and its like was last month's.
    expect(s.totals).toEqual({ posts: 2, likes: 3, views: 4, comments: 1 });
    expect(s.mostLiked.map((p: { title: string }) => p.title)).toEqual(['営業ニュース今月', '役員会の議事録']);
    expect(s.mostViewed[0]).toEqual({ title: '営業ニュース今月', viewCount: 3 });
    expect(s.mostCommented).toEqual([{ title: '営業ニュース今月', commentCount: 1 }]);
    const news = s.byCategory.find((c: { categoryName: string }) => c.categoryName === '営業ニュース');
    expect(news).toMatchObject({ totalPosts: 1, likes: 2, top: [{ title: '営業ニュース今月', likeCount: 2 }] });
    expect(s.categories.map((c: { name: string }) => c.name)).toEqual(['営業ニュース', '営業通達', '役員会']);
    const days = s.series.filter((x: { likes: number }) => x.likes > 0);
    expect(days).toEqual([{ date: w.today, posts: 2, likes: 3, views: 4, comments: 1 }]);
    expect(s.series.length).toBe(Number(s.endDate.slice(8, 10)));
    const colleague = s.employees.find((e: { employeeId: number }) => e.employeeId === w.id.colleague);
    expect(colleague).toMatchObject({ likeCount: 1, viewCount: 1, commentCount: 1, postCount: 0 });
    const staff = s.employees.find((e: { employeeId: number }) => e.employeeId === w.id.staff);
    expect(staff).toMatchObject({ postCount: 1, viewCount: 1, likeCount: 0 });
    expect(staff.byCategory).toEqual([
      { categoryName: '営業ニュース', count: 1 },
      { categoryName: '営業通達', count: 0 },
      { categoryName: '役員会', count: 0 },
    ]);
    // Last month: its post and its like, and this month compares with it.
    expect(s.previousTotals).toEqual({ posts: 1, likes: 1, views: 0, comments: 0 });
  });

  it('reach is the share of the category’s audience who opened the post', async () => {
    const s = await stats(w.token.admin, month(w.today));
    const news = s.posts.find((p: { postId: number }) => p.postId === posts.news);
    const [{ n }] = await w.sql(
      `select count(*)::int as n from employee e where e.status <> 'RETIRED' and (e.department_id = ? or e.id = ?)`,
      [w.id.sales, w.id.admin],
    );
    expect(news.audience).toBe(n);
    expect(news.reach).toBeCloseTo(3 / n, 6);
  });

  it('the months of a year add up to the totals on the posts; a reload, an unseen or a second open does not add a view', async () => {
    await must(w.token.staff, SEEN, { id: posts.news }); // toggles the mark off: the first view stays
    await must(w.token.staff, SEEN, { id: posts.news }); // and on again: still one view
    await rebuild();
    const year = w.today.slice(0, 4);
    const range = await stats(w.token.admin, { s: `${Number(year) - 1}-01-01`, e: `${year}-12-31` });
    expect(range.step).toBe('MONTH');
    const sumOf = (k: 'likes' | 'views' | 'comments') =>
      range.series.reduce((n: number, x: Record<string, number>) => n + x[k], 0);
    const [feed] = await w.sql(
      `select (select count(*)::int from blog_like l join blog_post p on p.id = l.post_id where not p.is_draft) as likes,
              (select count(*)::int from blog_comment c join blog_post p on p.id = c.post_id where not p.is_draft) as comments`,
    );
    expect(sumOf('likes')).toBe(feed.likes);
    expect(sumOf('comments')).toBe(feed.comments);
    expect(sumOf('views')).toBe(4);
    expect(range.totals.likes).toBe(feed.likes);
  });

  it('an unlike takes the like out of the period it was given in; a deleted comment out of its period', async () => {
    await must(w.token.staff, LIKE, { id: posts.old, on: false });
    const [{ id: comment }] = await w.sql(`select id from blog_comment where post_id = ?`, [posts.news]);
    await must(w.token.colleague, `mutation($id: Int!) { deleteBlogComment(id: $id) }`, { id: comment });
    await rebuild();
    const last = await stats(w.token.admin, month(lastMonth));
    expect(last.totals).toMatchObject({ posts: 1, likes: 0 });
    const now = await stats(w.token.admin, month(w.today));
    expect(now.totals.comments).toBe(0);
    expect(now.mostCommented).toEqual([]);
  });
});

describe('pages and filters', () => {
  it('the per-post table is a page of the ranking with its total; the per-employee table is filtered and cut in SQL', async () => {
    const q = `query($y: Int, $m: Int, $pf: Int, $ef: Int, $n: String, $c: Int) { blogStatistics(year: $y, month: $m, postsFirst: $pf, employeesFirst: $ef, employeeName: $n, employeeCategoryId: $c) {
      postCount posts { postId likeCount } employeeCount employees { employeeId employeeName postCount } } }`;
    const all = (await must(w.token.admin, q, month(w.today))).blogStatistics;
    expect(all.posts.length).toBe(all.postCount);
    const one = (await must(w.token.admin, q, { ...month(w.today), pf: 1 })).blogStatistics;
    expect(one.posts).toEqual([all.posts[0]]);
    expect(one.postCount).toBe(all.postCount);
    const top = (await must(w.token.admin, q, { ...month(w.today), ef: 1 })).blogStatistics;
    expect(top.employees).toEqual([all.employees[0]]);
    expect(top.employeeCount).toBe(all.employeeCount);
    const news = (await must(w.token.admin, q, { ...month(w.today), c: w.cat.news })).blogStatistics;
    expect(news.employees.map((e: { employeeId: number }) => e.employeeId)).toEqual([w.id.staff]);
    const bad = await gql(w.p.url, q, { ...month(w.today), pf: 0 }, { token: w.token.admin });
    expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const rest = await api(
      w.p.url,
      'GET',
      `/blogs/statistics?year=${w.today.slice(0, 4)}&month=${Number(w.today.slice(5, 7))}&posts_limit=1`,
      { token: w.token.admin },
    );
    expect(rest.body.aggregates.length).toBe(1);
    expect(rest.body.post_count).toBe(all.postCount);
  });
});

describe('who sees what', () => {
  it('an outsider (in no category) sees no post, category, title, name or count of the others, on GraphQL and /api', async () => {
    const s = await stats(w.token.outsider, month(w.today));
    expect(s.totals).toEqual({ posts: 0, likes: 0, views: 0, comments: 0 });
    expect(s.categories).toEqual([]);
    expect(s.posts).toEqual([]);
    expect(s.employees).toEqual([]);
    const r = await api(
      w.p.url,
      'GET',
      `/blogs/statistics?year=${w.today.slice(0, 4)}&month=${Number(w.today.slice(5, 7))}`,
      { token: w.token.outsider },
    );
    expect(r.status).toBe(200);
    expect(JSON.stringify(r.body)).not.toMatch(/役員会|営業ニュース|下書き/);
  });

  it('staff see their categories only: the board’s post and its like stay out of every table and total', async () => {
    const s = await stats(w.token.staff, month(w.today));
    expect(JSON.stringify(s)).not.toMatch(/役員会/);
    expect(s.totals.posts).toBe(1);
    const admin = s.employees.find((e: { employeeId: number }) => e.employeeId === w.id.admin);
    // The admin's like and view of the news count; those of the board's post do not.
    expect(admin).toMatchObject({ likeCount: 1, viewCount: 1, postCount: 0 });
  });

  it('/api answers the spec’s shape: by_category with top1..top5, most_*, aggregates, employee_stats with one count per category, categories', async () => {
    const r = await api(
      w.p.url,
      'GET',
      `/blogs/statistics?year=${w.today.slice(0, 4)}&month=${Number(w.today.slice(5, 7))}`,
      { token: w.token.admin },
    );
    expect(r.status).toBe(200);
    expect(r.body.by_category[0]).toMatchObject({
      category_name: '営業ニュース',
      total_blogs: 1,
      top1: '営業ニュース今月',
      top2: null,
      top5: null,
    });
    expect(r.body.most_liked[0]).toMatchObject({
      title: '営業ニュース今月',
      author_name: expect.any(String),
      like_count: 2,
    });
    expect(r.body.most_viewed[0]).toHaveProperty('view_count');
    expect(r.body.aggregates[0]).toMatchObject({
      blog_id: expect.any(Number),
      like_count: expect.any(Number),
      view_count: expect.any(Number),
      comment_count: expect.any(Number),
    });
    const staff = r.body.employee_stats.find((e: { employee_id: number }) => e.employee_id === w.id.staff);
    expect(staff).toMatchObject({
      total_post_count: 1,
      営業ニュース: 1,
      役員会: 0,
      like_count: expect.any(Number),
      comment_count: expect.any(Number),
      view_count: expect.any(Number),
    });
    expect(r.body.categories).toEqual(['営業ニュース', '営業通達', '役員会']);
    expect(r.body.period).toMatchObject({ mode: 'month' });
  });
});

describe('the export', () => {
  it('is one workbook: a summary and a sheet per table, each headed by the period; 社員別 by the filters as on screen', async () => {
    const ym = `year=${w.today.slice(0, 4)}&month=${Number(w.today.slice(5, 7))}`;
    const res = await fetch(`${w.p.url}/api/blogs/statistics/export?${ym}&name=${encodeURIComponent('田')}&top=1`, {
      headers: { authorization: `Bearer ${w.token.admin}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/filename\*=UTF-8''%E6%9C%88%E5%88%A5/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    expect(wb.worksheets.map((x) => x.name)).toEqual([
      '概要',
      'カテゴリ別',
      'いいねの多い投稿',
      '閲覧の多い投稿',
      'コメントの多い投稿',
      '投稿別',
      '社員別',
    ]);
    const rows = (name: string) =>
      Array.from(wb.getWorksheet(name)!.getSheetValues().slice(1), (r) => (Array.isArray(r) ? r.slice(1) : []));
    const summary = rows('概要');
    expect(summary[0]).toEqual(['月別ブログ統計']);
    expect(String(summary[1]![0])).toMatch(/^期間: \d{4}\/\d{2}\/01 〜 /);
    const g = await stats(w.token.admin, month(w.today));
    expect(summary.find((r) => r[0] === 'いいね')).toEqual([
      'いいね',
      g.totals.likes,
      g.previousTotals.likes,
      g.totals.likes - g.previousTotals.likes,
    ]);
    const posts = rows('投稿別');
    const header = posts.findIndex((r) => r[0] === 'タイトル');
    expect(posts[header]).toEqual([
      'タイトル',
      'カテゴリ',
      '投稿者',
      '公開開始日',
      'いいね',
      '閲覧',
      'コメント',
      'リーチ',
    ]);
    expect(posts[header + 1]![3]).toBeInstanceOf(Date);
    const people = rows('社員別');
    expect(people[2]).toEqual(['絞り込み: 氏名「田」、上位1件']);
    const first = people.findIndex((r) => r[0] === '社員');
    expect(people.length - first - 1).toBeLessThanOrEqual(1);
    for (const r of people.slice(first + 1)) expect(String(r[0])).toContain('田');
    const bad = await api(w.p.url, 'GET', `/blogs/statistics/export?${ym}&top=0`, { token: w.token.admin });
    expect(bad.status).toBe(400);
    const outsider = await fetch(`${w.p.url}/api/blogs/statistics/export?${ym}`, {
      headers: { authorization: `Bearer ${w.token.outsider}` },
    });
    const owb = new ExcelJS.Workbook();
    await owb.xlsx.load(Buffer.from(await outsider.arrayBuffer()) as never);
    const text = owb.worksheets.flatMap((x) => x.getSheetValues().flat()).join(' ');
    expect(text).not.toMatch(/役員会|営業ニュース/);
  });
});
