/**
 * Bench child: the schedule grid's bare baseline (bench/lib/bare.ts: node:http + pg, the same
 * session lookup), answering the /schedules page's ScheduleGrid query (cell fields only) with the same
 * JSON from the same two SQL statements as ScheduleService.grid's cell path (people page, then their
 * entries with the page people they are guests of and the viewer's answer), and the same visibility
 * rule as cellFor/viewFor (others' private entries as busy time only).
 */
import { BareError, bareCheckPage, serveBare } from '../lib/bare.js';

// Copies of ScheduleService.grid's statements for a cell-only query like the web grid's (GRID_PEOPLE_SQL,
// GRID_CELLS_SQL in graph/src/modules/schedules/schedule.queries.ts);
// keep them the same, or the ratio measures SQL instead of the stack.
const PEOPLE_SQL = (where: string) => `select e.id, e.name, d.name as department_name, count(*) over() as total
         from employee e left join department d on d.id = e.department_id
        where ${where}
        order by (e.id = $VIEWER) desc, e.id limit $LIMIT offset $OFFSET`;
const ENTRIES_SQL = `
  with own as materialized (
    select s.id from schedule s
     where s.owner_id = any($1::int[]) and s.start_date <= $2::date and s.end_date >= $3::date
  ), inv as materialized (
    select g.schedule_id as id, array_agg(g.employee_id) as guest_rows from schedule_guest g
     where g.employee_id = any($4::int[]) and (g.response <> 'DECLINED' or g.employee_id = $5) group by g.schedule_id
  )
  select s.id, s.owner_id, s.title,
         to_char(s.start_date, 'YYYY-MM-DD') as start_date, to_char(s.end_date, 'YYYY-MM-DD') as end_date,
         s.is_all_day, to_char(s.start_time, 'HH24:MI:SS') as start_time, to_char(s.end_time, 'HH24:MI:SS') as end_time,
         s.type, s.is_private, s.version, inv.guest_rows, mine.response as my_response
    from schedule s
    left join inv on inv.id = s.id
    left join schedule_guest mine on mine.schedule_id = s.id and mine.employee_id = $5
   where s.id = any(array(select id from own union select id from inv)) and s.start_date <= $6::date and s.end_date >= $7::date
   order by s.start_date, s.is_all_day desc, s.start_time nulls first, s.id`;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const label = (from: string, to: string) => {
  const f = (s: string) => `${s.slice(5, 7)}月${s.slice(8, 10)}日`;
  return `${f(from)} 〜 ${f(to)}`;
};

await serveBare('grid', async (pool, viewer, v) => {
  const from = String(v.from);
  const to = String(v.to);
  if (!DATE.test(from) || !DATE.test(to) || to < from)
    throw new BareError('期間の指定が正しくありません。', 'BAD_USER_INPUT');
  const page = bareCheckPage(v.offset, v.limit ?? 500);
  if (page.limit > 500) page.limit = 500;
  const where = [`e.status = 'ACTIVE'`];
  const params: unknown[] = [];
  if (v.departmentId != null) {
    params.push(v.departmentId);
    where.push(`e.department_id = $${params.length}`);
  }
  const name = typeof v.name === 'string' ? v.name.trim() : '';
  if (name) {
    params.push(`%${name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(`e.name ilike $${params.length}`);
  }
  const n = params.length;
  const people = (
    await pool.query(
      PEOPLE_SQL(where.join(' and '))
        .replace('$VIEWER', `$${n + 1}`)
        .replace('$LIMIT', `$${n + 2}`)
        .replace('$OFFSET', `$${n + 3}`),
      [...params, viewer.id, page.limit, page.offset],
    )
  ).rows;
  const ids = `{${people.map((p) => p.id).join(',')}}`;
  const entries = people.length ? (await pool.query(ENTRIES_SQL, [ids, to, from, ids, viewer.id, to, from])).rows : [];
  const rows = new Map<number, unknown[]>(people.map((p) => [p.id, []]));
  for (const s of entries) {
    const busy = s.is_private && s.owner_id !== viewer.id;
    const view = {
      id: s.id,
      busyOnly: busy,
      title: busy ? null : s.title,
      date: s.start_date,
      endDate: s.end_date,
      isAllDay: s.is_all_day,
      startTime: s.start_time,
      endTime: s.end_time,
      type: busy ? null : s.type,
      isPrivate: s.is_private,
      myResponse: busy ? null : s.my_response,
      __typename: 'ScheduleView',
    };
    rows.get(s.owner_id)?.push(view);
    if (s.guest_rows) for (const g of s.guest_rows as number[]) if (g !== s.owner_id) rows.get(g)?.push(view);
  }
  return JSON.stringify({
    data: {
      scheduleGrid: {
        from,
        to,
        label: label(from, to),
        totalPeople: people.length ? Number(people[0].total) : 0,
        offset: page.offset,
        limit: page.limit,
        people: people.map((p) => ({
          id: p.id,
          name: p.name,
          departmentName: p.department_name,
          entries: rows.get(p.id),
          __typename: 'SchedulePerson',
        })),
        __typename: 'ScheduleGrid',
      },
    },
  });
});
