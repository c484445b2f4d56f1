/**
 * What the live bench subscribes to and what it changes: the web app's ScheduleChanged document,
 * the mutations that create and edit the entries, and an entry's input for change n (private ones
 * carry a SECRET title and notes that must never reach anyone but the owner).
 */

/** The web app's document (web/src/features/schedules/operations.ts) as Apollo Client sends it (with __typename). */
export const SUBSCRIPTION = `subscription ScheduleChanged($from: String, $to: String) {
  scheduleChanged(from: $from, to: $to) {
    kind
    scheduleId
    from
    to
    employeeIds
    schedule {
      ...ScheduleFields
      __typename
    }
    __typename
  }
}

fragment ScheduleFields on ScheduleView {
  id
  version
  busyOnly
  canEdit
  canRespond
  myResponse
  title
  date
  endDate
  isAllDay
  startTime
  endTime
  type
  meetLink
  description
  syncGoogle
  isPrivate
  externalGuests
  owner {
    id
    name
    __typename
  }
  guests {
    id
    name
    response
    __typename
  }
  __typename
}`;

export const UPDATE = `mutation UpdateSchedule($id: Int!, $input: ScheduleInput!) { updateSchedule(id: $id, input: $input) { id version } }`;
export const CREATE = `mutation CreateSchedule($input: ScheduleInput!) { createSchedule(input: $input) { id version } }`;

export function inputFor(isPrivate: boolean, n: number, guestIds: number[], date: string) {
  const minutes = 9 * 60 + (n % 16) * 15;
  const hh = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  return {
    title: isPrivate ? `SECRET 通院 ${n}` : `定例ミーティング ${n}`,
    date,
    endDate: date,
    isAllDay: false,
    startTime: hh(minutes),
    endTime: hh(minutes + 60),
    type: 'APPOINTMENT',
    description: isPrivate ? 'SECRET notes' : '議題: 進捗共有と来週の予定',
    syncGoogle: false,
    isPrivate,
    guestIds,
    externalGuests: isPrivate ? [] : ['partner@example.com'],
  };
}
