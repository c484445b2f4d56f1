import type { ScheduleSnapshot } from '@intranet/schema/events/schedule.events';
import type { GuestResponse } from './schedule.enums.js';
import type { ScheduleView } from './schedule.types.js';
import { viewFor, type ViewSource } from './schedule.visibility.js';

// The schedule's main reads (docs/data-access.md): the SQL of an entry's snapshot and of the week
// grid, the types of their rows, and the functions that make rows into views. The service runs
// them; short look-ups stay in the service method that needs them.

/** Selects full snapshots (owner name, guests) of the entries matching `where`. */
export const SNAPSHOT_SQL = (where: string, tail = '') => `
  select s.id, s.owner_id, o.name as owner_name, s.title,
         to_char(s.start_date, 'YYYY-MM-DD') as start_date, to_char(s.end_date, 'YYYY-MM-DD') as end_date,
         s.is_all_day, to_char(s.start_time, 'HH24:MI:SS') as start_time, to_char(s.end_time, 'HH24:MI:SS') as end_time,
         s.type, s.meet_link, s.description, s.sync_google, s.is_private, s.external_guests, s.google_event_id,
         s.version, s.updated_at, s.updated_by_id,
         coalesce((select json_agg(json_build_object('id', g.employee_id, 'name', ge.name, 'response', g.response) order by g.employee_id)
                     from schedule_guest g join employee ge on ge.id = g.employee_id where g.schedule_id = s.id), '[]') as guests
    from schedule s join employee o on o.id = s.owner_id
   where ${where}
   ${tail}`;

/**
 * The grid's page of people: `where` (fixed conditions on `e`, values as parameters), then the
 * viewer's own row first and everyone else by id; parameters: the where's, viewer id, limit, offset.
 */
export const GRID_PEOPLE_SQL = (where: string) => `
  select e.id, e.name, d.name as department_name, count(*) over() as total
    from employee e left join department d on d.id = e.department_id
   where ${where}
   order by (e.id = ?) desc, e.id limit ? offset ?`;

export interface PersonRow {
  id: number;
  name: string;
  department_name: string | null;
  total: string;
}

/**
 * The grid's entries: those the page's people own or are invited to (not declined; the viewer's own
 * declined invitations stay in the viewer's row, where the web app dims them), found through the
 * owner and guest indexes (so the cost follows the page, not the whole company's week), guests
 * aggregated once for the found set, and only what a view shows (no timestamps to parse; extra guests
 * as JSON, which the driver parses natively, not as a text[] literal parsed in JavaScript).
 */
export const GRID_ENTRIES_SQL = `
  with hit as (
    select s.id from schedule s
     where s.owner_id = any(?::int[]) and s.start_date <= ?::date and s.end_date >= ?::date
    union
    select g.schedule_id from schedule_guest g join schedule s on s.id = g.schedule_id
     where g.employee_id = any(?::int[]) and (g.response <> 'DECLINED' or g.employee_id = ?) and s.start_date <= ?::date and s.end_date >= ?::date
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

/**
 * The grid's cells when the query asks for nothing a cell does not show (CELL_FIELDS): the same
 * entries, but no guest list, owner name, description, link or extra guests. The page's own entries
 * (owner index) and the entries they are invited to (guest index, grouped per entry: the rows the
 * entry also shows in) are each found once and materialized, then joined to the week's entries with
 * the viewer's own answer, by primary key (`= any(array(…))`: with `in (…)` the planner hashed the
 * whole week's entries for every page, and joining guests to schedule before grouping did too; at
 * 25 people of a 20,000-entry week that was 36 ms against 8 ms now).
 */
export const GRID_CELLS_SQL = `
  with own as materialized (
    select s.id from schedule s
     where s.owner_id = any(?::int[]) and s.start_date <= ?::date and s.end_date >= ?::date
  ), inv as materialized (
    select g.schedule_id as id, array_agg(g.employee_id) as guest_rows from schedule_guest g
     where g.employee_id = any(?::int[]) and (g.response <> 'DECLINED' or g.employee_id = ?) group by g.schedule_id
  )
  select s.id, s.owner_id, s.title,
         to_char(s.start_date, 'YYYY-MM-DD') as start_date, to_char(s.end_date, 'YYYY-MM-DD') as end_date,
         s.is_all_day, to_char(s.start_time, 'HH24:MI:SS') as start_time, to_char(s.end_time, 'HH24:MI:SS') as end_time,
         s.type, s.is_private, s.version, inv.guest_rows, mine.response as my_response
    from schedule s
    left join inv on inv.id = s.id
    left join schedule_guest mine on mine.schedule_id = s.id and mine.employee_id = ?
   where s.id = any(array(select id from own union select id from inv)) and s.start_date <= ?::date and s.end_date >= ?::date
   order by s.start_date, s.is_all_day desc, s.start_time nulls first, s.id`;

/**
 * What a grid cell may ask for (web: ScheduleCellFields). A grid query that selects only these is
 * answered from GRID_CELLS_SQL; any other field (guests, description, owner name…) takes the full path.
 */
export const CELL_FIELDS: ReadonlySet<string> = new Set([
  '__typename',
  'id',
  'version',
  'busyOnly',
  'title',
  'date',
  'endDate',
  'isAllDay',
  'startTime',
  'endTime',
  'type',
  'isPrivate',
  'myResponse',
  'canRespond',
  'canEdit',
  'owner',
  'owner.id',
  'owner.__typename',
]);

export interface CellRow {
  id: number;
  owner_id: number;
  title: string;
  start_date: string;
  end_date: string;
  is_all_day: boolean;
  start_time: string | null;
  end_time: string | null;
  type: ScheduleSnapshot['type'];
  is_private: boolean;
  version: number;
  guest_rows: number[] | null;
  my_response: GuestResponse | null;
}

/**
 * A cell's view: viewFor (the one visibility rule) over what the cell row carries. The viewer's own
 * answer stands in for the guest list (it is all viewFor reads of it for myResponse / canRespond).
 * What a cell query cannot select (CELL_FIELDS: the guest list, content, owner name) is left empty
 * or partial: this view is only served to a selection that does not read it.
 */
export function cellFor(viewerId: number, r: CellRow): ScheduleView {
  return viewFor(viewerId, {
    id: r.id,
    ownerId: r.owner_id,
    ownerName: '',
    title: r.title,
    startDate: r.start_date,
    endDate: r.end_date,
    isAllDay: r.is_all_day,
    startTime: r.start_time,
    endTime: r.end_time,
    type: r.type,
    meetLink: null,
    description: null,
    syncGoogle: false,
    isPrivate: r.is_private,
    externalGuests: [],
    guests: r.my_response ? [{ id: viewerId, name: '', response: r.my_response }] : [],
    version: r.version,
  });
}

export interface SnapshotRow {
  id: number;
  owner_id: number;
  owner_name: string;
  title: string;
  start_date: string;
  end_date: string;
  is_all_day: boolean;
  start_time: string | null;
  end_time: string | null;
  type: ScheduleSnapshot['type'];
  meet_link: string | null;
  description: string | null;
  sync_google: boolean;
  is_private: boolean;
  external_guests: string[];
  google_event_id: string | null;
  version: number;
  updated_at: Date;
  updated_by_id: number | null;
  guests: ScheduleSnapshot['guests'];
  total?: string;
}

export type GridRow = Omit<SnapshotRow, 'google_event_id' | 'updated_at' | 'updated_by_id' | 'total'>;

/** What viewFor needs of a grid row (the same fields as toSnapshot, without the timestamps). */
export const gridSource = (r: GridRow): ViewSource => ({
  id: r.id,
  ownerId: r.owner_id,
  ownerName: r.owner_name,
  title: r.title,
  startDate: r.start_date,
  endDate: r.end_date,
  isAllDay: r.is_all_day,
  startTime: r.start_time,
  endTime: r.end_time,
  type: r.type,
  meetLink: r.meet_link,
  description: r.description,
  syncGoogle: r.sync_google,
  isPrivate: r.is_private,
  externalGuests: r.external_guests ?? [],
  guests: r.guests,
  version: r.version,
});

/** A whole entry as services and events carry it: the grid's fields plus the Google link and the timestamp. */
export const toSnapshot = (r: SnapshotRow): ScheduleSnapshot =>
  Object.assign(gridSource(r), { googleEventId: r.google_event_id, updatedAt: new Date(r.updated_at).toISOString() });
