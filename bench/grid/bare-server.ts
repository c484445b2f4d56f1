/**
 * Bench child: the schedule grid's bare baseline (bench/lib/bare.ts: node:http + pg, the same
 * session lookup), answering the /schedules page's ScheduleGrid query with the same JSON from the
 * same two SQL statements as ScheduleService.grid (people page, then their entries with guests),
 * and the same visibility rule (others' private entries as busy time only).
 */
import { BareError, bareCheckPage, serveBare } from '../lib/bare.js';

// Copies of ScheduleService.grid's statements (the people page, GRID_ENTRIES_SQL) (graph/src/modules/schedules/schedule.service.ts);
// keep them the same, or the ratio measures SQL instead of the stack.
const PEOPLE_SQL = (where: string) => `select e.id, e.name, d.name as department_name, count(*) over() as total
         from employee e left join department d on d.id = e.department_id
        where ${where}
        order by (e.id = $VIEWER) desc, e.id limit $LIMIT offset $OFFSET`;
const ENTRIES_SQL = `
  with hit as (
    select s.id from schedule s
     where s.owner_id = any($1::int[]) and s.start_date <= $2::date and s.end_date >= $3::date
    union
    select g.schedule_id from schedule_guest g join schedule s on s.id = g.schedule_id
     where g.employee_id = any($4::int[]) and g.response <> 'DECLINED' and s.start_date <= $5::date and s.end_date >= $6::date
  ), gs as (
    select g.schedule_id, json_agg(json_build_object('id', g.employee_id, 'name', ge.name, 'response', g.response) order by g.employee_id) as guests
      from hit join schedule_guest g on g.schedule_id = hit.id join employee ge on ge.id = g.employee_id
     group by g.schedule_id
  )
  select s.id, s.owner_id, o.name as owner_name, s.title,
         to_char(s.start_date, 'YYYY-MM-DD') as start_date, to_char(s.end_date, 'YYYY-MM-DD') as end_date,
         s.is_all_day, to_char(s.start_time, 'HH24:MI:SS') as start_time, to_char(s.end_time, 'HH24:MI:SS') as end_time,
         s.type, s.meet_link, s.description, s.sync_google, s.is_private, to_json(s.external_guests) as external_guests, s.version, coalesce(gs.guests, '[]') as guests
    from hit join schedule s on s.id = hit.id join employee o on o.id = s.owner_id left join gs on gs.schedule_id = s.id
   order by s.start_date, s.is_all_day desc, s.start_time nulls first, s.id`;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const label = (from: string, to: string) => {
  const f = (s: string) => `${s.slice(5, 7)}月${s.slice(8, 10)}日`;
  return `${f(from)} 〜 ${f(to)}`;
};

interface Guest {
  id: number;
  name: string;
  response: string;
}

await serveBare('grid', async (pool, viewer, v) => {
  const from = String(v.from);
  const to = String(v.to);
  if (!DATE.test(from) || !DATE.test(to) || to < from) throw new BareError('期間の指定が正しくありません。', 'BAD_USER_INPUT');
  const page = bareCheckPage(v.offset, v.limit ?? 500);
  if (page.limit > 500) page.limit = 500;
  const where = [`e.status = 'ACTIVE'`];
  const params: unknown[] = [];
  if (v.departmentId != null) params.push(v.departmentId), where.push(`e.department_id = $${params.length}`);
  const name = typeof v.name === 'string' ? v.name.trim() : '';
  if (name) params.push(`%${name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`), where.push(`e.name ilike $${params.length}`);
  const n = params.length;
  const people = (
    await pool.query(PEOPLE_SQL(where.join(' and ')).replace('$VIEWER', `$${n + 1}`).replace('$LIMIT', `$${n + 2}`).replace('$OFFSET', `$${n + 3}`), [
      ...params,
      viewer.id,
      page.limit,
      page.offset,
    ])
  ).rows;
  const ids = `{${people.map((p) => p.id).join(',')}}`;
  const entries = people.length ? (await pool.query(ENTRIES_SQL, [ids, to, from, ids, to, from])).rows : [];
  const rows = new Map<number, unknown[]>(people.map((p) => [p.id, []]));
  for (const s of entries) {
    const guests = s.guests as Guest[];
    const owner = s.owner_id === viewer.id;
    const busy = s.is_private && !owner;
    const mine = busy ? undefined : guests.find((g) => g.id === viewer.id);
    const view = {
      id: s.id,
      version: s.version,
      busyOnly: busy,
      canEdit: owner,
      canRespond: mine !== undefined,
      myResponse: mine ? mine.response : null,
      title: busy ? null : s.title,
      date: s.start_date,
      endDate: s.end_date,
      isAllDay: s.is_all_day,
      startTime: s.start_time,
      endTime: s.end_time,
      type: busy ? null : s.type,
      meetLink: busy ? null : s.meet_link,
      description: busy ? null : s.description,
      syncGoogle: busy ? false : s.sync_google,
      isPrivate: s.is_private,
      externalGuests: busy ? [] : (s.external_guests ?? []),
      owner: { id: s.owner_id, name: s.owner_name },
      guests: busy ? [] : guests,
    };
    rows.get(s.owner_id)?.push(view);
    for (const g of guests) if (g.response !== 'DECLINED' && g.id !== s.owner_id) rows.get(g.id)?.push(view);
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
        people: people.map((p) => ({ id: p.id, name: p.name, departmentName: p.department_name, entries: rows.get(p.id) })),
      },
    },
  });
});
