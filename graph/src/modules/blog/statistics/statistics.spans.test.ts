import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../../platform/context.js';
import { blogWorld, type BlogWorld } from '../blog.test-support.js';
import { monthPeriod } from './statistics.period.js';
import { employeeActivity, employeeRows, postFigures, seriesRows, totalsOf } from './statistics.queries.js';
import { rebuildAll } from './statistics.rollup.js';
import { employeeActivityOfSpan, postFiguresOfSpan, spanOf } from './statistics.spans.js';
import { statisticsViewer } from './statistics.visibility.js';

// A month's or a year's report read from the span rollups (sums per category corrected for what the
// viewer may not see, rankings walked in index order) equals the same report summed from the day
// rows joined with the visibility rule, for every kind of viewer and every kind of hidden post.

let w: BlogWorld;
const rebuild = () => w.p.db.orm.em.fork().transactional((tx) => rebuildAll(tx));

beforeAll(async () => {
  w = await blogWorld();
  const lastMonth = `${w.day(-Number(w.today.slice(8, 10))).slice(0, 7)}-01`;
  const made: number[] = [];
  const post = async (who: string, categoryId: number, publishStart: string, extra: Record<string, unknown> = {}) =>
    made.push((await w.post(who, { title: `投稿${made.length}`, categoryId, publishStart, ...extra })).id);
  for (let i = 0; i < 6; i++)
    await post(w.token.admin, [w.cat.news, w.cat.notice, w.cat.board][i % 3]!, i % 2 ? w.today : lastMonth);
  await post(w.token.staff, w.cat.news, w.today);
  await post(w.token.colleague, w.cat.news, lastMonth);
  await post(w.token.staff, w.cat.news, w.today, { isDraft: true }); // a draft: no one's
  await post(w.token.admin, w.cat.news, w.day(1)); // not yet published
  await post(w.token.admin, w.cat.news, lastMonth, { publishEnd: w.day(-1) }); // out of its window for staff
  await post(w.token.staff, w.cat.news, lastMonth, { publishEnd: w.day(-1) }); // out of its window, but staff's own
  // Staff's own post in 役員会, which staff does not read: theirs alone (the rule's author clause).
  await w.sql(`update blog_post set author_id = ? where id = ?`, [w.id.staff, made[2]]);
  // Likes, first views and comments by everyone on every post, spread over this month and the last.
  const people = [w.id.staff, w.id.colleague, w.id.admin];
  for (const [i, id] of made.entries()) {
    for (const [j, who] of people.entries()) {
      const at = (i + j) % 3 ? w.today : lastMonth;
      if ((i + j) % 2 === 0)
        await w.sql(`insert into blog_like (post_id, employee_id, created_at) values (?, ?, ?::date + time '10:00')`, [
          id,
          who,
          at,
        ]);
      await w.sql(`insert into blog_view (post_id, employee_id, viewed_at) values (?, ?, ?::date + time '11:00')`, [
        id,
        who,
        at,
      ]);
      if ((i * j) % 4 === 1)
        await w.sql(
          `insert into blog_comment (post_id, author_id, content, created_at) values (?, ?, 'ok', ?::date + time '12:00')`,
          [id, who, at],
        );
    }
  }
  await rebuild();
});
afterAll(async () => w?.p.close());

async function ruleOf(login: string) {
  const [u] = await w.sql(
    `select id, name, role, department_id as "departmentId" from employee where login_id = ? or id::text = ?`,
    [login, login],
  );
  const ctx = createContext(
    w.p.graph.services,
    w.p.db.orm.em,
    { ...u, sessionId: 'test', mustChangePassword: false },
    { ip: '127.0.0.1' },
  );
  return { ctx, rule: await statisticsViewer(ctx.em, await w.p.graph.services.blog.posts.statisticsRule(ctx)) };
}

describe('the span rollups', () => {
  it('give each viewer the figures the day rows give: this month, last month, this year', async () => {
    const [ty, tm] = [Number(w.today.slice(0, 4)), Number(w.today.slice(5, 7))];
    const periods = [
      monthPeriod(ty, tm),
      monthPeriod(tm === 1 ? ty - 1 : ty, tm === 1 ? 12 : tm - 1),
      { mode: 'RANGE' as const, start: `${ty}-01-01`, end: `${ty}-12-31` },
    ];
    for (const login of ['admin', 'sysadmin', 'staff', String(w.id.colleague), 'devadmin']) {
      const { ctx, rule } = await ruleOf(login);
      for (const p of periods) {
        const span = spanOf(p)!;
        expect(span).not.toBeNull();
        for (const first of [3, null]) {
          const bySpan = await postFiguresOfSpan(ctx.em, rule, span, first);
          const byDay = await postFigures(ctx.em, rule, p, first);
          // The report shows the categories the viewer reads (the day rows also sum their own posts' other categories).
          const read = (c: number | null) => c !== null && rule.categoryIds.includes(c);
          const sort = (f: typeof bySpan) => ({
            ...f,
            categories: f.categories.filter((c) => read(c.category_id)).sort((a, b) => a.category_id - b.category_id),
            top: f.top.filter((t) => read(t.category_id)),
          });
          expect(sort(bySpan), `${login} ${p.start}…${p.end} first ${first}`).toEqual(sort(byDay));
        }
        // The sums per day from the per-category rows and the two sets, against the day rows joined with the rule.
        const joined = await w.sql(
          `select d.day::text as date, sum(d.published)::int as posts, sum(d.likes)::int as likes, sum(d.views)::int as views, sum(d.comments)::int as comments
             from blog_stat_post_day d join blog_post p on p.id = d.post_id where d.day between ?::date and ?::date and ${rule.sql} group by 1 order by 1`,
          [p.start, p.end, ...rule.params],
        );
        const nonzero = (xs: { posts: number; likes: number; views: number; comments: number }[]) =>
          xs.filter((x) => x.posts || x.likes || x.views || x.comments);
        expect(nonzero(await seriesRows(ctx.em, rule, p, 'DAY')), `${login} ${p.start} series`).toEqual(
          nonzero(joined),
        );
        const sum = (k: 'posts' | 'likes' | 'views' | 'comments') => joined.reduce((n, x) => n + x[k], 0);
        expect(await totalsOf(ctx.em, rule, p)).toEqual({
          date: '',
          posts: sum('posts'),
          likes: sum('likes'),
          views: sum('views'),
          comments: sum('comments'),
        });
        const query = { top: null };
        expect(
          await employeeRows(ctx.em, rule, p, query, employeeActivityOfSpan(rule, span, p)),
          `${login} ${p.start}`,
        ).toEqual(await employeeRows(ctx.em, rule, p, query, employeeActivity(rule, p)));
      }
    }
  });

  it('are the path of exactly a month or a calendar year, and of nothing else', () => {
    expect(spanOf({ start: '2026-02-01', end: '2026-02-28' })).toEqual({ span: 'M', at: '2026-02-01' });
    expect(spanOf({ start: '2028-02-01', end: '2028-02-29' })).toEqual({ span: 'M', at: '2028-02-01' });
    expect(spanOf({ start: '2026-01-01', end: '2026-12-31' })).toEqual({ span: 'Y', at: '2026-01-01' });
    for (const [start, end] of [
      ['2026-02-01', '2026-02-27'],
      ['2026-02-02', '2026-02-28'],
      ['2026-01-01', '2026-02-28'],
      ['2026-01-02', '2026-12-31'],
      ['2026-01-01', '2027-12-31'],
    ])
      expect(spanOf({ start: start!, end: end! }), `${start}…${end}`).toBeNull();
  });
});
