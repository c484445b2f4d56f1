/**
 * Bench child: the schedule grid's bare baseline (bench/lib/bare.ts: node:http + pg, the same
 * session lookup), answering the /schedules page's ScheduleGrid query with the same JSON from the
 * same two SQL statements as ScheduleService.grid (people page, then their entries with guests),
 * and the same visibility rule (others' private entries as busy time only).
 */
import { BareError, bareCheckPage, serveBare } from '../lib/bare.js';

// Copies of ScheduleService.grid's statements (the people page, then SNAPSHOT_SQL with the grid's where) (graph/src/modules/schedules/schedule.service.ts);
// keep them the same, or the ratio measures SQL instead of the stack.
const PEOPLE_SQL = (where: string) => `select e.id, e.name, d.name as department_name, count(*) over() as total
         from employee e left join department d on d.id = e.department_id
        where ${where}
        order by (e.id = $VIEWER) desc, e.id limit $LIMIT offset $OFFSET`;
const ENTRIES_SQL = `
  select s.id, s.owner_id, o.name as owner_name, s.title,
         to_char(s.start_date, 'YYYY-MM-DD') as start_date, to_char(s.end_date, 'YYYY-MM-DD') as end_date,
         s.is_all_day, to_char(s.start_time, 'HH24:MI:SS') as start_time, to_char(s.end_time, 'HH24:MI:SS') as end_time,
         s.type, s.meet_link, s.description, s.sync_google, s.is_private, s.external_guests, s.google_event_id,
         s.version, s.updated_at, s.updated_by_id,
         coalesce((select json_agg(json_build_object('id', g.employee_id, 'name', ge.name, 'response', g.response) order by g.employee_id)
                     from schedule_guest g join employee ge on ge.id = g.employee_id where g.schedule_id = s.id), '[]') as guests
    from schedule s join employee o on o.id = s.owner_id
   where s.start_date <= $1::date and s.end_date >= $2::date and (s.owner_id = any($3::int[]) or exists (
             select 1 from schedule_guest g where g.schedule_id = s.id and g.employee_id = any($4::int[]) and g.response <> 'DECLINED'))
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
  const entries = people.length ? (await pool.query(ENTRIES_SQL, [to, from, ids, ids])).rows : [];
  const rows = new Map<number, unknown[]>(people.map((p) => [p.id, []]));
  for (const s of entries) {
    const guests = s.guests as Guest[];
    const owner = s.owner_id === viewer.id;
    const base = {
      id: s.id,
      version: s.version,
      date: s.start_date,
      endDate: s.end_date,
      isAllDay: s.is_all_day,
      startTime: s.start_time,
      endTime: s.end_time,
      isPrivate: s.is_private,
      owner: { id: s.owner_id, name: s.owner_name },
    };
    let view;
    if (s.is_private && !owner) {
      view = { ...base, busyOnly: true, canEdit: false, canRespond: false, myResponse: null, title: null, type: null, meetLink: null, description: null, syncGoogle: false, externalGuests: [], guests: [] };
    } else {
      const mine = guests.find((g) => g.id === viewer.id);
      view = {
        ...base,
        busyOnly: false,
        canEdit: owner,
        canRespond: Boolean(mine),
        myResponse: mine ? mine.response : null,
        title: s.title,
        type: s.type,
        meetLink: s.meet_link,
        description: s.description,
        syncGoogle: s.sync_google,
        externalGuests: s.external_guests ?? [],
        guests,
      };
    }
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
