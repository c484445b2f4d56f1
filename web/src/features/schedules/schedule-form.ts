import type { MessageKey } from '../../app/i18n';
import type { ScheduleFieldsFragment, ScheduleInput, ScheduleType } from '../../gql/graphql';
import type { Attendee } from './AttendeePicker';
import { addDays, daysBetween, hhmm, nextSlot, oneHourLater } from './dates';

/**
 * The schedule form's values and the rules between them (pure, no React): defaults, conversion from
 * and to the API, the edits that move other fields along (start → end, date → end date), validation.
 */

export type Guest = Attendee & { response?: ScheduleFieldsFragment['guests'][number]['response'] };

export interface ScheduleFormValues {
  title: string;
  date: string;
  endDate: string;
  isAllDay: boolean;
  startTime: string;
  endTime: string;
  /** The end date was moved to the next day by a start time near midnight (not by the user). */
  autoEndDate: boolean;
  guests: Guest[];
  externalGuests: string[];
  type: ScheduleType;
  meetLink: string;
  syncGoogle: boolean;
  isPrivate: boolean;
  description: string;
}

export type FieldErrors = Record<string, string>;

export function createDefaults(
  date: string,
  attendee?: { id: number; name: string },
  now = new Date(),
): ScheduleFormValues {
  const start = nextSlot(now);
  const end = oneHourLater(start);
  return {
    title: '',
    date,
    endDate: end.wraps ? addDays(date, 1) : date,
    isAllDay: false,
    startTime: start,
    endTime: end.time,
    autoEndDate: end.wraps,
    guests: attendee ? [{ id: attendee.id, name: attendee.name }] : [],
    externalGuests: [],
    type: 'TASK',
    meetLink: '',
    syncGoogle: true,
    isPrivate: false,
    description: '',
  };
}

export function fromSchedule(s: ScheduleFieldsFragment): ScheduleFormValues {
  return {
    title: s.title ?? '',
    date: s.date,
    endDate: s.endDate,
    isAllDay: s.isAllDay,
    startTime: hhmm(s.startTime) || '09:00',
    endTime: hhmm(s.endTime) || '10:00',
    autoEndDate: false,
    guests: s.guests.map((g) => ({ id: g.id, name: g.name, response: g.response })),
    externalGuests: [...s.externalGuests],
    type: s.type ?? 'TASK',
    meetLink: s.meetLink ?? '',
    syncGoogle: s.syncGoogle,
    isPrivate: s.isPrivate,
    description: s.description ?? '',
  };
}

export function toInput(f: ScheduleFormValues, version?: number): ScheduleInput {
  return {
    title: f.title.trim(),
    date: f.date,
    endDate: f.endDate || f.date,
    isAllDay: f.isAllDay,
    startTime: f.isAllDay ? null : f.startTime,
    endTime: f.isAllDay ? null : f.endTime,
    type: f.type,
    meetLink: f.type === 'REMOTE' ? f.meetLink.trim() || null : null,
    description: f.description.trim() || null,
    syncGoogle: f.syncGoogle,
    isPrivate: f.isPrivate,
    guestIds: f.guests.map((g) => g.id),
    // Extra-guest rows: trimmed, blank rows dropped.
    externalGuests: f.externalGuests.map((e) => e.trim()).filter(Boolean),
    ...(version !== undefined ? { version } : {}),
  };
}

/** Same entry as far as a save is concerned (what toInput sends). */
export const sameForm = (a: ScheduleFormValues, b: ScheduleFormValues) =>
  JSON.stringify(toInput(a)) === JSON.stringify(toInput(b));

/** A new start time moves the end one hour later (to the next day past midnight). */
export function withStart(f: ScheduleFormValues, start: string): ScheduleFormValues {
  const end = oneHourLater(start);
  return {
    ...f,
    startTime: start,
    endTime: end.time,
    endDate: end.wraps ? addDays(f.date, 1) : f.autoEndDate ? f.date : f.endDate,
    autoEndDate: end.wraps,
  };
}

/** A new date keeps the entry's length in days. An emptied date input changes nothing. */
export function withDate(f: ScheduleFormValues, date: string): ScheduleFormValues {
  if (!date) return f;
  return { ...f, date, endDate: addDays(date, Math.max(0, daysBetween(f.date, f.endDate))) };
}

/** The user's own end date; an emptied input means the start date. */
export function withEndDate(f: ScheduleFormValues, endDate: string): ScheduleFormValues {
  return { ...f, endDate: endDate || f.date, autoEndDate: false };
}

/** Which errors an edit of a field makes stale (the start time also moves the end). */
export const ERRORS_CLEARED_BY: Partial<Record<keyof ScheduleFormValues, string[]>> = {
  startTime: ['startTime', 'endTime', 'endDate'],
  date: ['date', 'endDate'],
};

export function withoutErrors(errors: FieldErrors, keys: string[]): FieldErrors {
  if (!keys.some((k) => k in errors)) return errors;
  const next = { ...errors };
  for (const k of keys) delete next[k];
  return next;
}

/** The checks the browser can make before asking the server: field → message key. */
export function validate(f: ScheduleFormValues): Partial<Record<keyof ScheduleFormValues, MessageKey>> {
  const e: Partial<Record<keyof ScheduleFormValues, MessageKey>> = {};
  if (!f.title.trim()) e.title = 'schedules.validation.title';
  if (!f.date) e.date = 'schedules.validation.date';
  if (f.endDate && f.endDate < f.date) e.endDate = 'schedules.validation.endDate';
  else if (!f.isAllDay && (f.endDate || f.date) === f.date && f.endTime <= f.startTime)
    e.endTime = 'schedules.validation.endTime';
  if (f.type === 'REMOTE' && f.meetLink.trim() && !/^https?:\/\/\S+$/.test(f.meetLink.trim()))
    e.meetLink = 'schedules.validation.meetLink';
  return e;
}

/** Has the owner moved the entry in time or changed who attends (the conflict hint then checks)? */
export function movedOrRestaffed(form: ScheduleFormValues, baseline: ScheduleFormValues): boolean {
  return (
    form.date !== baseline.date ||
    form.endDate !== baseline.endDate ||
    form.isAllDay !== baseline.isAllDay ||
    form.startTime !== baseline.startTime ||
    form.endTime !== baseline.endTime ||
    form.guests.map((g) => g.id).join() !== baseline.guests.map((g) => g.id).join()
  );
}

/** Private entries have no guests: the switch is offered only while nobody is invited. */
export const hasGuests = (f: ScheduleFormValues) => f.guests.length > 0 || f.externalGuests.some((x) => x.trim());

/** Picked attendees keep the answers the ones already invited gave. */
export function withPickedGuests(current: Guest[], picked: Attendee[]): Guest[] {
  const before = new Map(current.map((g) => [g.id, g]));
  return picked.map((a) => ({ ...a, response: before.get(a.id)?.response }));
}

/** The time choices: 15-minute slots, plus an off-slot value an entry already has. */
export function slotOptions(slots: readonly string[], value: string): readonly string[] {
  return slots.includes(value) ? slots : [...slots, value].sort();
}
