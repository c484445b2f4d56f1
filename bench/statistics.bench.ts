/**
 * Blog statistics (issue 37): 月別ブログ統計 read from the rollups the statistics worker keeps,
 * against the same period's GROUP BY over the raw like, first-view and comment rows, in one run.
 *
 * Data (bench/statistics/data.ts): 100,000 posts over 900 days, 5,000 employees, about 2.2 million
 * likes, first views and comments between each post's publish start and today; rollups rebuilt.
 * Measured, sequentially, through the full stack (`GET /api/blogs/statistics` as 管理者, every
 * category, in-process graph server), as the page asks: the first 100 posts of the ranking and the
 * 20 most active employees (`--top`; `--top=0`: every employee, the route's default):
 *  - a month's report (the last 12 months, rounds × 12 requests) and a year's (the last 3 calendar
 *    years), p50/p99, against the raw GROUP BY of the same period (per-post and per-employee sums
 *    with the same visibility), on a pg client;
 *  - staleness: a like through the API, then the time until its post's rollup row shows it, with
 *    the worker running in-process (embedded transport), `samples` likes;
 *  - the like write rate (`concurrency` clients, `seconds` each) with the worker running and without.
 * Targets: month p99 ≤ 20 ms, year p99 ≤ 100 ms, each ≥ 10× faster than the raw query at p50;
 * staleness p99 < 1 s; like rate with the worker ≥ 0.9× without.
 *
 * Flags: --posts --employees --likes --views --comments --rounds=5 --top=20 --samples=50 --seconds=8 --concurrency=8 --quick
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { loadConfig, createLogger } from '@intranet/graph';
import { DEMO_PASSWORD } from '@intranet/graph/areas';
import { startGraph, type Graph } from '@intranet/graph/app';
import { StatisticsConsumer } from '../workers/src/statistics/statistics.consumer.js';
import { numArg, type Bench } from './lib/bench.js';
import { serverEnv, startBenchDatabase, type BenchDatabase } from './lib/database.js';
import { ms, table } from './lib/format.js';
import { prepareStatisticsData, VIEWER_LOGIN } from './statistics/data.js';

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

/** The raw peer: the report's per-post and per-employee sums of a period straight from the source rows. */
const RAW = `
  with f as (
    select post_id, employee_id, 1 as l, 0 as v, 0 as c from blog_like where created_at >= ($1::date)::timestamp at time zone 'Asia/Tokyo' and created_at < ($2::date + 1)::timestamp at time zone 'Asia/Tokyo'
    union all select post_id, employee_id, 0, 1, 0 from blog_view where viewed_at >= ($1::date)::timestamp at time zone 'Asia/Tokyo' and viewed_at < ($2::date + 1)::timestamp at time zone 'Asia/Tokyo'
    union all select post_id, author_id, 0, 0, 1 from blog_comment where created_at >= ($1::date)::timestamp at time zone 'Asia/Tokyo' and created_at < ($2::date + 1)::timestamp at time zone 'Asia/Tokyo'),
  v as (select f.* from f join blog_post p on p.id = f.post_id where not p.is_draft and p.publish_start <= $3::date)
  select (select count(*) from (select post_id, sum(l), sum(v), sum(c) from v group by post_id) a) as posts,
         (select count(*) from (select employee_id, sum(l), sum(v), sum(c) from v where employee_id is not null group by employee_id) b) as employees`;

async function start(db: BenchDatabase, consumers: boolean): Promise<Graph> {
  const config = loadConfig(serverEnv(db, { THROTTLE_LIKES_PER_MINUTE: '100000000', LOG_LEVEL: 'error' }));
  return startGraph(config, createLogger('error'), db.url, {
    port: 0,
    consumers: consumers ? [new StatisticsConsumer()] : [],
  });
}

async function login(url: string, loginId: string): Promise<string> {
  const r = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ loginId, password: DEMO_PASSWORD }),
  });
  const body = (await r.json()) as { token?: string };
  if (!body.token) throw new Error(`login ${loginId}: ${r.status}`);
  return body.token;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

const bench: Bench = {
  description:
    'Blog statistics from the rollups (month, year) against GROUP BY over the raw rows; rollup staleness; like write rate with the worker running and without',
  async run({ args, log }) {
    const quick = args.quick === true;
    const scale = quick ? 0.1 : 1;
    const db = await startBenchDatabase();
    const t0 = performance.now();
    const data = await prepareStatisticsData(db, {
      employees: numArg(args, 'employees', quick ? 1000 : 5000),
      posts: numArg(args, 'posts', 100_000 * scale),
      likes: numArg(args, 'likes', 800_000 * scale),
      views: numArg(args, 'views', 1_000_000 * scale),
      comments: numArg(args, 'comments', 400_000 * scale),
    });
    log(
      `database: ${data.employees} employees, ${data.posts} posts, ${data.likes} likes, ${data.views} first views, ${data.comments} comments ` +
        `(${data.likes + data.views + data.comments} events); rollups ${data.postDays} post-day and ${data.actorDays} employee-post-day rows rebuilt in ${(data.rebuildMs / 1000).toFixed(1)} s; prepared in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );

    // --- reports: rollups through the full stack against the raw GROUP BY
    const rounds = numArg(args, 'rounds', quick ? 2 : 5);
    // The page's own default (EmployeeStatsTable's NO_EMPLOYEE_FILTER) unless told otherwise.
    const top = numArg(args, 'top', 20);
    const bytes: number[] = [];
    const graph = await start(db, false);
    const url = graph.server.url;
    const admin = await login(url, 'admin');
    const raw = new pg.Client({ connectionString: db.url });
    await raw.connect();
    const months = Array.from({ length: 12 }, (_, i) => {
      const d = new Date(`${data.today.slice(0, 7)}-01T00:00:00Z`);
      d.setUTCMonth(d.getUTCMonth() - i);
      return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1 };
    });
    const thisYear = Number(data.today.slice(0, 4));
    const years = [thisYear, thisYear - 1, thisYear - 2];
    const report = (q: string) =>
      timed(async () => {
        const r = await fetch(`${url}/api/blogs/statistics?${q}${top ? `&top=${top}` : ''}`, {
          headers: { authorization: `Bearer ${admin}` },
        });
        if (r.status !== 200) throw new Error(`statistics answered ${r.status}: ${(await r.text()).slice(0, 200)}`);
        bytes.push((await r.arrayBuffer()).byteLength);
      });
    const lastDay = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
    const sample = {
      month: { full: [] as number[], raw: [] as number[] },
      year: { full: [] as number[], raw: [] as number[] },
    };
    for (const m of months.slice(0, 2)) await report(`year=${m.year}&month=${m.month}`); // warm-up
    for (let r = 0; r < rounds; r++) {
      for (const m of months) {
        sample.month.full.push(await report(`year=${m.year}&month=${m.month}`));
        const start = `${m.year}-${String(m.month).padStart(2, '0')}-01`;
        sample.month.raw.push(await timed(() => raw.query(RAW, [start, lastDay(m.year, m.month), data.today])));
      }
      for (const y of years) {
        sample.year.full.push(await report(`start_date=${y}-01-01&end_date=${y}-12-31`));
        sample.year.raw.push(await timed(() => raw.query(RAW, [`${y}-01-01`, `${y}-12-31`, data.today])));
      }
    }
    await raw.end();
    await graph.stop();
    const line = (name: string, s: { full: number[]; raw: number[] }) => ({
      name,
      n: s.full.length,
      full: { p50: pct(s.full, 50), p99: pct(s.full, 99) },
      raw: { p50: pct(s.raw, 50), p99: pct(s.raw, 99) },
      speedup: pct(s.raw, 50) / pct(s.full, 50),
    });
    const month = line('month', sample.month);
    const year = line('year', sample.year);
    log(
      `answers: ${top ? `top ${top} employees` : 'every employee'}, ${Math.round(Math.min(...bytes) / 1024)}–${Math.round(Math.max(...bytes) / 1024)} KB`,
    );
    log(
      table(
        ['period', 'n', 'rollup p50', 'rollup p99', 'raw p50', 'raw p99', 'raw/rollup p50'],
        [month, year].map((x) => [
          x.name,
          x.n,
          ms(x.full.p50),
          ms(x.full.p99),
          ms(x.raw.p50),
          ms(x.raw.p99),
          `${x.speedup.toFixed(1)}×`,
        ]),
      ),
    );

    // --- staleness and write rate, with the worker in-process
    const samples = numArg(args, 'samples', 50);
    const seconds = numArg(args, 'seconds', quick ? 3 : 8);
    const concurrency = numArg(args, 'concurrency', 8);
    const posts = (await (async () => {
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      try {
        const r = await c.query(
          `select id from blog_post where category_id = any($1::int[]) and not is_draft and publish_start <= $2::date and (publish_end is null or publish_end >= $2::date) and allow_likes order by id limit 2000`,
          [`{${data.readable.join(',')}}`, data.today],
        );
        return r.rows.map((x) => x.id as number);
      } finally {
        await c.end();
      }
    })()) as number[];
    const likeRate = async (g: Graph): Promise<number> => {
      const token = await login(g.server.url, VIEWER_LOGIN);
      let done = 0;
      let next = 0;
      const until = performance.now() + seconds * 1000;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (performance.now() < until) {
            const id = posts[next++ % posts.length]!;
            const r = await fetch(`${g.server.url}/graphql`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
              body: JSON.stringify({
                query: 'mutation($id: Int!, $on: Boolean!) { likeBlogPost(id: $id, liked: $on) { id } }',
                variables: { id, on: Math.floor(next / posts.length) % 2 === 0 },
              }),
            });
            await r.arrayBuffer();
            if (r.status === 200) done++;
          }
        }),
      );
      return done / seconds;
    };
    const without = await start(db, false);
    const rateWithout = await likeRate(without);
    await without.stop();
    const withWorker = await start(db, true);
    const rateWith = await likeRate(withWorker);
    // Staleness: a like, then its post's rollup row for today.
    const token = await login(withWorker.server.url, VIEWER_LOGIN);
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    const stale: number[] = [];
    for (let i = 0; i < samples; i++) {
      const id = posts[posts.length - 1 - i]!;
      const count = async () =>
        Number(
          (await c.query(`select coalesce(sum(likes), 0) n from blog_stat_post_day where post_id = $1`, [id])).rows[0]
            .n,
        );
      const before = await count();
      // Flip the viewer's like (the rate phase may have left it either way): the rollup moves by one.
      const state = await c.query(
        `select exists (select 1 from blog_like where post_id = $1 and employee_id = $2) as liked`,
        [id, data.viewerId],
      );
      const on = !state.rows[0].liked;
      const liked = await fetch(`${withWorker.server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({
          query: 'mutation($id: Int!, $on: Boolean!) { likeBlogPost(id: $id, liked: $on) { likeCount } }',
          variables: { id, on },
        }),
      });
      await liked.arrayBuffer();
      const t = performance.now();
      for (;;) {
        const n = await count();
        if (on ? n > before : n < before) break;
        if (performance.now() - t > 10_000) throw new Error(`the rollup of post ${id} did not show the change in 10 s`);
        await new Promise((r) => setTimeout(r, 2));
      }
      stale.push(performance.now() - t);
    }
    await c.end();
    await withWorker.stop();
    const staleness = { p50: pct(stale, 50), p99: pct(stale, 99) };
    const writeRatio = rateWith / rateWithout;
    log(
      table(
        ['measure', 'value', 'target'],
        [
          [
            'staleness p50 / p99 (like committed → rollup row)',
            `${ms(staleness.p50)} / ${ms(staleness.p99)} ms`,
            'p99 < 1000 ms',
          ],
          [
            'like rate without / with the worker',
            `${rateWithout.toFixed(0)} / ${rateWith.toFixed(0)} likes/s (${writeRatio.toFixed(2)}×)`,
            '≥ 0.9×',
          ],
        ],
      ),
    );
    const checks = {
      monthP99: month.full.p99 <= 20,
      yearP99: year.full.p99 <= 100,
      monthSpeedup: month.speedup >= 10,
      yearSpeedup: year.speedup >= 10,
      staleness: staleness.p99 < 1000,
      writes: writeRatio >= 0.9,
    };
    const pass = Object.values(checks).every(Boolean);
    const failed = Object.entries(checks)
      .filter(([, ok]) => !ok)
      .map(([k]) => k);
    return {
      pass,
      headline:
        `month p50/p99 ${ms(month.full.p50)}/${ms(month.full.p99)} ms (raw ${ms(month.raw.p50)}/${ms(month.raw.p99)}, ${month.speedup.toFixed(1)}×), ` +
        `year ${ms(year.full.p50)}/${ms(year.full.p99)} ms (raw ${ms(year.raw.p50)}/${ms(year.raw.p99)}, ${year.speedup.toFixed(1)}×); staleness p99 ${ms(staleness.p99)} ms; ` +
        `likes with/without the worker ${rateWith.toFixed(0)}/${rateWithout.toFixed(0)}/s = ${writeRatio.toFixed(2)}×; ${pass ? 'PASS' : `FAIL (${failed.join(', ')})`}; ` +
        `${data.likes + data.views + data.comments} events, load ${os
          .loadavg()
          .map((x) => x.toFixed(2))
          .join(' ')}`,
      results: { data, top, month, year, staleness, rateWith, rateWithout, checks },
    };
  },
};

export default bench;
