import { describe, expect, test } from 'vitest';
import type { ScheduleFieldsFragment } from '../../gql/graphql';
import { TIME_SLOTS } from './dates';
import {
  createDefaults,
  fromSchedule,
  hasGuests,
  movedOrRestaffed,
  sameForm,
  slotOptions,
  toInput,
  validate,
  withDate,
  withEndDate,
  withoutErrors,
  withPickedGuests,
  withStart,
} from './schedule-form';

const saved: ScheduleFieldsFragment = {
  id: 7,
  version: 4,
  busyOnly: false,
  canEdit: true,
  canRespond: false,
  myResponse: null,
  title: '朝会',
  date: '2026-11-27',
  endDate: '2026-11-27',
  isAllDay: false,
  startTime: '09:00:00',
  endTime: '09:30:00',
  type: 'REMOTE',
  meetLink: 'https://meet.google.com/abc',
  description: null,
  syncGoogle: true,
  isPrivate: false,
  externalGuests: ['guest@example.com'],
  owner: { id: 1, name: '山田 太郎' },
  guests: [{ id: 2, name: '佐藤 花子', response: 'ACCEPTED' }],
};

describe('the schedule form: defaults and conversions', () => {
  test('a new entry starts at the next slot for one hour, the end date following past midnight', () => {
    const morning = createDefaults('2026-11-27', undefined, new Date(2026, 10, 27, 9, 5));
    expect(morning).toMatchObject({
      date: '2026-11-27',
      endDate: '2026-11-27',
      startTime: '09:15',
      endTime: '10:15',
      autoEndDate: false,
      guests: [],
      type: 'TASK',
      syncGoogle: true,
    });
    const late = createDefaults('2026-11-27', { id: 3, name: '鈴木 一郎' }, new Date(2026, 10, 27, 23, 20));
    expect(late).toMatchObject({
      startTime: '23:30',
      endTime: '00:30',
      endDate: '2026-11-28',
      autoEndDate: true,
      guests: [{ id: 3, name: '鈴木 一郎' }],
    });
  });

  test('a saved entry fills the form (slot times, empty strings for nothing) and goes back unchanged', () => {
    const f = fromSchedule(saved);
    expect(f).toMatchObject({
      title: '朝会',
      startTime: '09:00',
      endTime: '09:30',
      description: '',
      guests: [{ id: 2, name: '佐藤 花子', response: 'ACCEPTED' }],
    });
    expect(toInput(f, 4)).toEqual({
      title: '朝会',
      date: '2026-11-27',
      endDate: '2026-11-27',
      isAllDay: false,
      startTime: '09:00',
      endTime: '09:30',
      type: 'REMOTE',
      meetLink: 'https://meet.google.com/abc',
      description: null,
      syncGoogle: true,
      isPrivate: false,
      guestIds: [2],
      externalGuests: ['guest@example.com'],
      version: 4,
    });
  });

  test('toInput trims, drops blank guest rows, sends no times for all-day and no link unless remote', () => {
    const f = {
      ...fromSchedule(saved),
      title: '  朝会  ',
      isAllDay: true,
      type: 'TASK' as const,
      externalGuests: [' a@example.com ', '  '],
      description: '  ',
    };
    const input = toInput(f);
    expect(input).toMatchObject({
      title: '朝会',
      startTime: null,
      endTime: null,
      meetLink: null,
      description: null,
      externalGuests: ['a@example.com'],
    });
    expect('version' in input).toBe(false);
  });

  test('sameForm compares what a save would send (whitespace and an answer are no change)', () => {
    const f = fromSchedule(saved);
    expect(
      sameForm(f, { ...f, title: '朝会 ', guests: f.guests.map((g) => ({ ...g, response: 'DECLINED' as const })) }),
    ).toBe(true);
    expect(sameForm(f, { ...f, title: '夕会' })).toBe(false);
  });
});

describe('the schedule form: edits that move other fields', () => {
  const f = fromSchedule(saved);

  test('a new start moves the end an hour on; past midnight the end date is the next day, and back again', () => {
    expect(withStart(f, '13:00')).toMatchObject({
      startTime: '13:00',
      endTime: '14:00',
      endDate: '2026-11-27',
      autoEndDate: false,
    });
    const late = withStart(f, '23:30');
    expect(late).toMatchObject({ endTime: '00:30', endDate: '2026-11-28', autoEndDate: true });
    expect(withStart(late, '10:00')).toMatchObject({ endDate: '2026-11-27', autoEndDate: false });
  });

  test('a start change keeps an end date the user chose', () => {
    const chosen = withEndDate(f, '2026-11-30');
    expect(withStart(chosen, '10:00').endDate).toBe('2026-11-30');
    expect(withEndDate(f, '').endDate).toBe('2026-11-27');
  });

  test('a new date keeps the length in days; an emptied date input changes nothing', () => {
    const three = { ...f, endDate: '2026-11-29' };
    expect(withDate(three, '2026-12-01')).toMatchObject({ date: '2026-12-01', endDate: '2026-12-03' });
    expect(withDate(three, '')).toBe(three);
  });

  test('picked attendees keep the answers already given; new ones have none', () => {
    expect(
      withPickedGuests(f.guests, [
        { id: 2, name: '佐藤 花子' },
        { id: 9, name: '高橋 次郎' },
      ]),
    ).toEqual([
      { id: 2, name: '佐藤 花子', response: 'ACCEPTED' },
      { id: 9, name: '高橋 次郎', response: undefined },
    ]);
  });

  test('an edit clears the errors of the fields it touched and keeps the object when none', () => {
    const errors = { startTime: 'x', endTime: 'y', title: 'z' };
    expect(withoutErrors(errors, ['startTime', 'endTime', 'endDate'])).toEqual({ title: 'z' });
    expect(withoutErrors(errors, ['date'])).toBe(errors);
  });

  test('time choices add an off-slot value in order', () => {
    expect(slotOptions(TIME_SLOTS, '09:15')).toBe(TIME_SLOTS);
    const withOdd = slotOptions(TIME_SLOTS, '09:10');
    expect(withOdd).toHaveLength(97);
    expect(withOdd.indexOf('09:10')).toBe(withOdd.indexOf('09:00') + 1);
  });
});

describe('the schedule form: checks and hints', () => {
  const f = fromSchedule(saved);

  test('validation names each field with its message', () => {
    expect(validate(f)).toEqual({});
    expect(validate({ ...f, title: '  ', date: '' })).toMatchObject({
      title: 'schedules.validation.title',
      date: 'schedules.validation.date',
    });
    expect(validate({ ...f, endDate: '2026-11-26' })).toEqual({ endDate: 'schedules.validation.endDate' });
    expect(validate({ ...f, endTime: '09:00' })).toEqual({ endTime: 'schedules.validation.endTime' });
    expect(validate({ ...f, endTime: '08:00', endDate: '2026-11-28' })).toEqual({});
    expect(validate({ ...f, endTime: '08:00', isAllDay: true })).toEqual({});
    expect(validate({ ...f, meetLink: 'meet.google.com/abc' })).toEqual({ meetLink: 'schedules.validation.meetLink' });
    expect(validate({ ...f, type: 'TASK', meetLink: 'not a link' })).toEqual({});
  });

  test('moving the entry or changing who attends asks for the conflict hint; other edits do not', () => {
    expect(movedOrRestaffed({ ...f, title: '別件' }, f)).toBe(false);
    expect(movedOrRestaffed({ ...f, startTime: '10:00' }, f)).toBe(true);
    expect(movedOrRestaffed({ ...f, guests: [] }, f)).toBe(true);
  });

  test('an entry has guests with a colleague or a non-blank outside row', () => {
    expect(hasGuests(f)).toBe(true);
    expect(hasGuests({ ...f, guests: [], externalGuests: [' '] })).toBe(false);
  });
});
