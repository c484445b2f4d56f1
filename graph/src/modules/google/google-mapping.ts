import { addDays } from '@intranet/schema/calendar/tokyo';
import type { ScheduleSnapshot } from '@intranet/schema/events/schedule.events';
import type { GEvent } from './google-calendar.client.js';

/** Times are wall-clock Japan time (no DST): entries are written as +09:00 with time zone Asia/Tokyo. */
export const TIME_ZONE = 'Asia/Tokyo';
const JST_MS = 9 * 3_600_000;

/** The key in extendedProperties.private that marks an event as written by the intranet. */
export const INTRANET_ID = 'intranetId';

/**
 * The Google event id of a pushed entry: fixed per entry (base32hex: a–v, 0–9), so a retried
 * insert after a lost answer gets 409 instead of a duplicate, and a delete knows the id even if
 * the insert's answer was never stored.
 */
export const pushEventId = (scheduleId: number, generation = 0): string =>
  `intra${scheduleId}${generation ? `u${generation}` : ''}`;

/** Whether a Google event id is one we gave entry `scheduleId` (any generation: sync turned off and on again). */
export const isPushEventId = (eventId: string | null | undefined, scheduleId: number): boolean =>
  Boolean(eventId) && new RegExp(`^intra${scheduleId}(u\\d+)?$`).test(eventId!);

/**
 * SQL: whether schedule.google_event_id is one of the push ids of the row's entry (isPushEventId in
 * SQL). Written without a question mark: MikroORM's execute() takes every `?` in the text, inside
 * string literals too, for a parameter (a `(u[0-9]+)?$` here once swallowed the next parameter and
 * made the pattern match nothing).
 */
export const IS_PUSH_EVENT_ID_SQL = `google_event_id ~ ('^intra' || id || '(u[0-9]+){0,1}$')`;

/** Generation of the next id after unlinking (stored as google_etag 'unlinked:<n>' while unlinked). */
export const generationOf = (eventId: string | null, etag: string | null): number => {
  const m = eventId ? /u(\d+)$/.exec(eventId) : null;
  if (m && eventId!.startsWith('intra')) return Number(m[1]);
  return etag?.startsWith('unlinked:') ? Number(etag.slice(9)) : 0;
};

export { addDays };

/** An instant as Japan wall-clock date and time. */
export function toJst(instant: string | number | Date): { date: string; time: string } {
  const iso = new Date(new Date(instant).getTime() + JST_MS).toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 19) };
}

/** Month "YYYY-MM" → [first day, first day of next month) as instants in Japan time. */
export function monthRange(month: string): { timeMin: string; timeMax: string; from: string; to: string } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const from = `${month}-01`;
  const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
  return { timeMin: `${from}T00:00:00+09:00`, timeMax: `${next}T00:00:00+09:00`, from, to: addDays(next, -1) };
}

const RESPONSE_TO_GOOGLE = { PENDING: 'needsAction', ACCEPTED: 'accepted', DECLINED: 'declined' } as const;

type GAttendee = NonNullable<GEvent['attendees']>[number];

/** One of our guests as an attendee. `answer`: an internal guest's answer given here (null: not answered here). */
export interface OurAttendee {
  email: string;
  displayName?: string;
  answer: 'accepted' | 'declined' | null;
}

/** Our guest list as attendees: internal guests with an e-mail (and their answer here), then external guests. */
export function ourAttendees(s: ScheduleSnapshot, guestEmails: Map<number, string>): OurAttendee[] {
  const out = new Map<string, OurAttendee>();
  for (const g of s.guests) {
    const email = guestEmails.get(g.id)?.toLowerCase();
    if (!email || out.has(email)) continue;
    const answer = RESPONSE_TO_GOOGLE[g.response];
    out.set(email, { email, displayName: g.name, answer: answer === 'needsAction' ? null : answer });
  }
  for (const raw of s.externalGuests) {
    const email = raw.trim().toLowerCase();
    if (email && !out.has(email)) out.set(email, { email, answer: null });
  }
  return [...out.values()];
}

/** Attendees that are not ours to manage: the calendar owner and resources (rooms). */
const foreign = (a: GAttendee, selfEmail: string) =>
  Boolean(a.self || a.resource || a.email?.toLowerCase() === selfEmail.toLowerCase());

/**
 * Google's guest list as we keep it (schedule.google_attendees): "email=responseStatus" of every
 * attendee but the owner and rooms, sorted. It is what Google had at the stored etag.
 */
export function attendeeView(attendees: GEvent['attendees'], selfEmail: string): string[] {
  return (attendees ?? [])
    .filter((a) => a.email && !foreign(a, selfEmail))
    .map((a) => `${a.email!.toLowerCase()}=${a.responseStatus ?? 'needsAction'}`)
    .sort();
}

/**
 * Whether Google's attendees must be rewritten to match ours: a guest added or removed, or an
 * internal guest whose answer given here is not the one Google shows. Answers of everyone else
 * (external guests' RSVPs) are Google's and never make a difference.
 */
export function attendeesDiffer(ours: OurAttendee[], view: string[]): boolean {
  const theirs = new Map(
    view.map((v) => {
      const i = v.lastIndexOf('=');
      return [v.slice(0, i), v.slice(i + 1)] as const;
    }),
  );
  if (theirs.size !== ours.length) return true;
  return ours.some((a) => !theirs.has(a.email) || (a.answer !== null && theirs.get(a.email) !== a.answer));
}

/**
 * The attendees to send when ours changed: Google's entry for every guest still invited is kept
 * as it is (responseStatus, comment, displayName, additionalGuests, …), new guests are added as
 * needsAction, removed guests are dropped, the owner and rooms stay. An internal guest who
 * answered here carries that answer.
 */
export function mergeAttendees(ours: OurAttendee[], current: GEvent['attendees'], selfEmail: string): GAttendee[] {
  const have = new Map(
    (current ?? []).filter((a) => a.email && !foreign(a, selfEmail)).map((a) => [a.email!.toLowerCase(), a]),
  );
  const kept = (current ?? []).filter((a) => foreign(a, selfEmail)).map(({ self: _s, ...a }) => a);
  const mine = ours.map((o): GAttendee => {
    const prev = have.get(o.email);
    if (prev) {
      const { self: _s, ...rest } = prev;
      return o.answer ? { ...rest, responseStatus: o.answer } : rest;
    }
    return {
      email: o.email,
      ...(o.displayName ? { displayName: o.displayName } : {}),
      responseStatus: o.answer ?? 'needsAction',
    };
  });
  return [...kept, ...mine];
}

/** Our entry as a Google event body (insert, or patch of every field we own; attendees: see mergeAttendees). */
export function toGoogleEvent(s: ScheduleSnapshot, guestEmails: Map<number, string>): GEvent {
  const timed = !s.isAllDay;
  const attendees = mergeAttendees(ourAttendees(s, guestEmails), [], '');
  return {
    summary: s.title,
    description: s.description ?? null,
    location: s.meetLink ?? null,
    start: timed ? { dateTime: `${s.startDate}T${s.startTime}+09:00`, timeZone: TIME_ZONE } : { date: s.startDate },
    end: timed ? { dateTime: `${s.endDate}T${s.endTime}+09:00`, timeZone: TIME_ZONE } : { date: addDays(s.endDate, 1) },
    visibility: s.isPrivate ? 'private' : 'default',
    attendees,
    extendedProperties: { private: { [INTRANET_ID]: String(s.id) } },
  };
}

/** The columns of an entry that Google can change. */
export interface PulledFields {
  title: string;
  startDate: string;
  endDate: string;
  isAllDay: boolean;
  startTime: string | null;
  endTime: string | null;
  description: string | null;
  meetLink: string | null;
  isPrivate: boolean;
  externalGuests: string[];
}

const URL_RE = /^https?:\/\/\S+$/i;

/** A Google event as our columns. `exclude`: e-mails that are not external guests (self, internal guests). */
export function fromGoogleEvent(e: GEvent, exclude: Set<string>): PulledFields | null {
  if (!e.start || !e.end) return null;
  let startDate: string, endDate: string, startTime: string | null, endTime: string | null;
  const isAllDay = Boolean(e.start.date && !e.start.dateTime);
  if (isAllDay) {
    startDate = e.start.date!;
    endDate = e.end.date ? addDays(e.end.date, -1) : startDate;
    if (endDate < startDate) endDate = startDate;
    startTime = endTime = null;
  } else {
    if (!e.start.dateTime || !e.end.dateTime) return null;
    const s = toJst(e.start.dateTime);
    const en = toJst(e.end.dateTime);
    startDate = s.date;
    startTime = s.time;
    endDate = en.date < s.date ? s.date : en.date;
    endTime = en.date < s.date ? s.time : en.time;
  }
  const location = e.location?.trim() || null;
  return {
    title: (e.summary ?? '').trim().slice(0, 200) || '(無題)',
    startDate,
    endDate,
    isAllDay,
    startTime,
    endTime,
    description: e.description ?? null,
    meetLink: (e.hangoutLink ?? (location && URL_RE.test(location) ? location : null))?.slice(0, 500) ?? null,
    isPrivate: e.visibility === 'private' || e.visibility === 'confidential',
    externalGuests: (e.attendees ?? [])
      .filter((a) => a.email && !a.self && !a.resource && !exclude.has(a.email.toLowerCase()))
      .map((a) => a.email!.toLowerCase())
      .sort(),
  };
}

export function sameFields(a: PulledFields, b: PulledFields): boolean {
  return (
    a.title === b.title &&
    a.startDate === b.startDate &&
    a.endDate === b.endDate &&
    a.isAllDay === b.isAllDay &&
    a.startTime === b.startTime &&
    a.endTime === b.endTime &&
    (a.description ?? '') === (b.description ?? '') &&
    (a.meetLink ?? '') === (b.meetLink ?? '') &&
    a.isPrivate === b.isPrivate &&
    [...a.externalGuests].sort().join(',') === [...b.externalGuests].sort().join(',')
  );
}

export const fieldsOf = (s: ScheduleSnapshot): PulledFields => ({
  title: s.title,
  startDate: s.startDate,
  endDate: s.endDate,
  isAllDay: s.isAllDay,
  startTime: s.startTime,
  endTime: s.endTime,
  description: s.description,
  meetLink: s.meetLink,
  isPrivate: s.isPrivate,
  externalGuests: s.externalGuests.map((x) => x.toLowerCase()),
});

/** The answer of the calendar's owner on an event (attendee with self: true). */
export function selfResponse(e: GEvent): string | null {
  return e.attendees?.find((a) => a.self)?.responseStatus ?? null;
}

/** The spec's `/api/schedules/google` item: an external event in the shape of a schedule. */
export function toApiGoogleItem(e: GEvent) {
  const f = fromGoogleEvent(e, new Set());
  const me = selfResponse(e);
  return {
    google_event_id: e.id,
    title: f?.title ?? '(無題)',
    date: f?.startDate ?? null,
    end_date: f?.endDate ?? null,
    is_all_day: f?.isAllDay ?? false,
    start_time: f?.startTime ?? null,
    end_time: f?.endTime ?? null,
    description: f?.description ?? null,
    meetLink: f?.meetLink ?? null,
    other_guest: (f?.externalGuests ?? []).join(','),
    organizer: e.organizer?.email ?? null,
    is_organizer: Boolean(e.organizer?.self),
    type: f?.meetLink ? 'remote' : 'appointment',
    syncGoogle: false,
    is_my_self: f?.isPrivate ? 1 : 0,
    is_joined: me === 'accepted' ? 1 : me === 'declined' ? 0 : null,
    recurring_event_id: e.recurringEventId ?? null,
    html_link: e.htmlLink ?? null,
  };
}
