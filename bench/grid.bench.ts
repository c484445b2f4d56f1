/**
 * The schedule weekly grid (people × days, the /schedules page's ScheduleGrid query with its cell
 * fields, 25 people a page as the web app asks) through the full stack against a bare handler with the same SQL
 * (bench/lib/compare.ts: both servers, identical answers, open-loop rate search, common rate).
 *
 * One embedded PostgreSQL (temp dir): the demo company plus bench employees up to 500 active ones in
 * every department, and 20,000 entries in one week (2030-01-07 … 13, away from the demo's weeks),
 * generated set-based: timed entries on 15-minute steps, all-day and multi-day ones, private ones,
 * リモート with meet links, internal guests (accepted, pending, declined) and external guests.
 * The viewer is the demo admin. Requests: each page of the whole company and the first page of
 * each department.
 * Target: at the common rate, the full stack's p50 and p99 ≤ 1.5 × the bare handler's, p99 < 50 ms.
 *
 * Flags: --employees=500 --entries=20000 --page=25 --target=1.5, and those of lib/compare.ts.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { numArg, type Bench } from './lib/bench.js';
import { compareFullBare } from './lib/compare.js';
import { ensureActiveEmployees, startBenchDatabase, withClient } from './lib/database.js';
import { REPO_ROOT } from './lib/procs.js';

/**
 * The web app's ScheduleGrid document (web/src/features/schedules/operations.ts) with ScheduleCellFields
 * inlined, as Apollo Client sends it (__typename added to every selection). Cells only: the server
 * answers it from ScheduleService.grid's cell path (no guests, no content), the bare handler with a copy.
 */
export const GRID_QUERY = `query ScheduleGrid($from: String!, $to: String!, $departmentId: Int, $name: String, $offset: Int!, $limit: Int!) {
  scheduleGrid(from: $from, to: $to, departmentId: $departmentId, name: $name, offset: $offset, limit: $limit) {
    from to label totalPeople offset limit
    people { id name departmentName entries { ...ScheduleCellFields __typename } __typename }
    __typename
  }
}
fragment ScheduleCellFields on ScheduleView {
  id busyOnly title date endDate isAllDay startTime endTime type isPrivate myResponse __typename
}`;

const WEEK_FROM = '2030-01-07';
const WEEK_TO = '2030-01-13';

/** The data set, set-based: active employees up to `employees`, `entries` entries in the week with their guests. */
export async function prepareGridData(url: string, employees: number, entries: number) {
  return withClient(url, async (c) => {
    const counts = await ensureActiveEmployees(c, employees);
    // Entry g belongs to active employee 1 + g % n; its k = g / n picks the day and the slot, so every
    // person has entries on every weekday (and a few at the weekend).
    await c.query(
      `with p as (select array_agg(id order by id) as ids, count(*)::int as n from employee where status = 'ACTIVE'),
            e as (select g, p.ids[1 + g % p.n] as owner_id, g / p.n as k from generate_series(0, $2::int - 1) g, p)
       insert into schedule (owner_id, title, start_date, end_date, is_all_day, start_time, end_time, type, meet_link,
                             description, sync_google, is_private, external_guests)
       select owner_id,
              (array['定例ミーティング','1on1','設計レビュー','顧客訪問','リモート作業','資料作成','採用面接','勉強会'])[1 + g % 8] || ' #' || g,
              $1::date + d.day, $1::date + d.day + (case when k % 10 = 9 and g % 3 = 0 then 1 + g % 2 else 0 end),
              k % 10 = 9,
              case when k % 10 = 9 then null else time '09:00' + make_interval(mins => (k / 5 % 8) * 60 + (g % 4) * 15) end,
              case when k % 10 = 9 then null else time '09:00' + make_interval(mins => (k / 5 % 8) * 60 + (g % 4) * 15 + 30 + (g % 3) * 15) end,
              (array['TASK','REMOTE','APPOINTMENT'])[1 + g % 3]::schedule_type,
              case when g % 3 = 1 then 'https://meet.google.com/abc-defg-' || lpad((g % 1000)::text, 3, '0') end,
              case when g % 2 = 0 then '議題と資料は共有フォルダを参照。' || g end,
              g % 5 = 0, g % 9 = 4,
              case when g % 17 = 0 then array['guest' || g || '@partner.example.com', 'info@client.example.jp'] else '{}' end
         from e, lateral (select case when k % 13 = 12 then 5 + g % 2 else k % 5 end as day) d
        order by g`,
      [WEEK_FROM, entries],
    );
    // Guests on a quarter of the shared entries: 1–3 other employees, some declined, most accepted or pending.
    await c.query(
      `with p as (select array_agg(id order by id) as ids, count(*)::int as n from employee where status = 'ACTIVE'),
            s as (select id, owner_id, row_number() over (order by id) - 1 as g from schedule where start_date between $1::date and $2::date)
       insert into schedule_guest (schedule_id, employee_id, response)
       select s.id, p.ids[1 + (array_position(p.ids, s.owner_id) + j * 37) % p.n],
              (case (s.g + j) % 5 when 0 then 'DECLINED' when 1 then 'ACCEPTED' when 2 then 'ACCEPTED' else 'PENDING' end)::guest_response
         from s, p, generate_series(0, 2) j
        where s.g % 4 = 1 and s.g % 9 <> 4 and j <= s.g % 3
       on conflict do nothing`,
      [WEEK_FROM, WEEK_TO],
    );
    const st = (
      await c.query<{
        entries: number;
        private: number;
        all_day: number;
        multi_day: number;
        guests: number;
        departments: number;
      }>(
        `select count(*)::int as entries, count(*) filter (where is_private)::int as private, count(*) filter (where is_all_day)::int as all_day,
                count(*) filter (where end_date > start_date)::int as multi_day,
                (select count(*)::int from schedule_guest g join schedule s2 on s2.id = g.schedule_id where s2.start_date between $1::date and $2::date) as guests,
                (select count(*)::int from department) as departments
           from schedule where start_date between $1::date and $2::date`,
        [WEEK_FROM, WEEK_TO],
      )
    ).rows[0];
    const departments = (
      await c.query<{ id: number }>(
        `select distinct department_id as id from employee where status = 'ACTIVE' and department_id is not null order by 1`,
      )
    ).rows.map((r) => r.id);
    return { ...counts, ...st, departmentIds: departments };
  });
}

const bench: Bench = {
  description:
    'Schedule week grid (500 people, 20,000 entries): full stack vs a bare node:http + pg handler with the same SQL',
  async run({ args, log }) {
    const employees = numArg(args, 'employees', 500);
    const entries = numArg(args, 'entries', 20000);
    const pageSize = numArg(args, 'page', 25);
    const t0 = performance.now();
    const db = await startBenchDatabase();
    const data = await prepareGridData(db.url, employees, entries);
    log(
      `database: ${data.active} active employees in ${data.departments} departments, ${data.entries} entries in ${WEEK_FROM} … ${WEEK_TO} ` +
        `(${data.private} private, ${data.all_day} all-day, ${data.multi_day} multi-day, ${data.guests} guest rows), prepared in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const body = (offset: number, departmentId: number | null) => ({
      query: GRID_QUERY,
      variables: { from: WEEK_FROM, to: WEEK_TO, departmentId, name: null, offset, limit: pageSize },
    });
    const pages = Math.ceil(data.active / pageSize);
    const bodies = [
      ...Array.from({ length: pages }, (_, i) => body(i * pageSize, null)),
      ...data.departmentIds.map((d) => body(0, d)),
    ];
    return compareFullBare({
      name: 'grid',
      args,
      log,
      db,
      bareFile: path.join(REPO_ROOT, 'bench/grid/bare-server.ts'),
      bareLabel: 'bare handler (node:http + pg, same SQL)',
      fullTimings: 'schedules.grid=scheduleGrid',
      loginId: 'admin',
      bodies,
      check: [...bodies, body(pages * pageSize, null)],
      okPrefix: '{"data":{"scheduleGrid":{',
      setup: {
        employees: data.total,
        active: data.active,
        entries: data.entries,
        private: data.private,
        allDay: data.all_day,
        multiDay: data.multi_day,
        guestRows: data.guests,
        departments: data.departments,
        week: [WEEK_FROM, WEEK_TO],
        pageSize,
        requests: bodies.length,
        query: GRID_QUERY,
      },
      verdict: { kind: 'latency', max: numArg(args, 'target', 1.5) },
      defaults: { start: 1, rounds: 3, rate: 2, common: 1 },
    });
  },
};

export default bench;
