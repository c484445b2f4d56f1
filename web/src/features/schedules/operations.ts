import { graphql } from '../../gql';

/** Everything a screen shows of an entry (others' private entries arrive as busyOnly, without content). */
export const ScheduleFieldsFragment = graphql(`
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
    }
    guests {
      id
      name
      response
    }
  }
`);

/**
 * What a grid cell (EntryChip, the month markers) shows of an entry: time, title, type, private and
 * busy marks, the viewer's answer. The grid asks for nothing more, so the server answers it without
 * guests or content (ScheduleService.grid's cell path); the detail dialog loads the whole entry by id.
 * No version: the cached entry's version stays the one its guests and content came with, so a form
 * built from a cached full entry is never newer-looking than its content (ScheduleDialog's receive).
 */
export const ScheduleCellFieldsFragment = graphql(`
  fragment ScheduleCellFields on ScheduleView {
    id
    busyOnly
    title
    date
    endDate
    isAllDay
    startTime
    endTime
    type
    isPrivate
    myResponse
  }
`);

export const ScheduleGridQuery = graphql(`
  query ScheduleGrid($from: String!, $to: String!, $departmentId: Int, $name: String, $offset: Int!, $limit: Int!) {
    scheduleGrid(from: $from, to: $to, departmentId: $departmentId, name: $name, offset: $offset, limit: $limit) {
      from
      to
      label
      totalPeople
      offset
      limit
      people {
        id
        name
        departmentName
        entries {
          ...ScheduleCellFields
        }
      }
    }
  }
`);

export const MySchedulesQuery = graphql(`
  query MySchedules($date: String!) {
    mySchedules(date: $date) {
      ...ScheduleFields
    }
  }
`);

export const ScheduleQuery = graphql(`
  query Schedule($id: Int!) {
    schedule(id: $id) {
      ...ScheduleFields
    }
  }
`);

export const ScheduleConflictsQuery = graphql(`
  query ScheduleConflicts(
    $employeeIds: [Int!]!
    $date: String!
    $endDate: String
    $startTime: String
    $endTime: String
    $isAllDay: Boolean!
    $excludeId: Int
  ) {
    scheduleConflicts(
      employeeIds: $employeeIds
      date: $date
      endDate: $endDate
      startTime: $startTime
      endTime: $endTime
      isAllDay: $isAllDay
      excludeId: $excludeId
    ) {
      employeeId
      employeeName
      scheduleId
      title
      date
      startTime
      endTime
    }
  }
`);

export const CreateScheduleMutation = graphql(`
  mutation CreateSchedule($input: ScheduleInput!) {
    createSchedule(input: $input) {
      ...ScheduleFields
    }
  }
`);

export const UpdateScheduleMutation = graphql(`
  mutation UpdateSchedule($id: Int!, $input: ScheduleInput!) {
    updateSchedule(id: $id, input: $input) {
      ...ScheduleFields
    }
  }
`);

export const DeleteScheduleMutation = graphql(`
  mutation DeleteSchedule($id: Int!) {
    deleteSchedule(id: $id)
  }
`);

export const RespondToScheduleMutation = graphql(`
  mutation RespondToSchedule($id: Int!, $accept: Boolean!) {
    respondToSchedule(id: $id, accept: $accept) {
      ...ScheduleFields
    }
  }
`);

export const ScheduleChangedSubscription = graphql(`
  subscription ScheduleChanged($from: String, $to: String) {
    scheduleChanged(from: $from, to: $to) {
      kind
      scheduleId
      from
      to
      employeeIds
      schedule {
        ...ScheduleFields
      }
    }
  }
`);

export const ScheduleDepartmentsQuery = graphql(`
  query ScheduleDepartments {
    departmentNames {
      id
      name
    }
  }
`);

/** The attendee picker's directory (active staff). */
export const AttendeeDirectoryQuery = graphql(`
  query AttendeeDirectory($filter: EmployeeFilter, $limit: Int!) {
    employees(filter: $filter, limit: $limit) {
      total
      items {
        id
        name
        roleLabel
        department {
          id
          name
        }
      }
    }
  }
`);

export const GoogleCalendarStatusFieldsFragment = graphql(`
  fragment GoogleCalendarStatusFields on GoogleCalendarStatus {
    enabled
    connected
    email
    connectedAt
    lastSuccessAt
    lastError
    lastErrorAt
    pending
    pendingChanges
  }
`);

export const GoogleCalendarStatusQuery = graphql(`
  query GoogleCalendarStatus {
    googleCalendarStatus {
      ...GoogleCalendarStatusFields
    }
    icsFeedEnabled
    icsFeedSettings {
      enabled
      showPrivateDetails
    }
  }
`);

export const GoogleCalendarConnectUrlQuery = graphql(`
  query GoogleCalendarConnectUrl {
    googleCalendarConnectUrl
  }
`);

export const SyncGoogleCalendarMutation = graphql(`
  mutation SyncGoogleCalendar($month: String!) {
    syncGoogleCalendar(month: $month) {
      ...GoogleCalendarStatusFields
    }
  }
`);

export const DisconnectGoogleCalendarMutation = graphql(`
  mutation DisconnectGoogleCalendar {
    disconnectGoogleCalendar {
      ...GoogleCalendarStatusFields
    }
  }
`);

export const RegenerateIcsFeedMutation = graphql(`
  mutation RegenerateIcsFeed {
    regenerateIcsFeed {
      url
    }
  }
`);

export const SetIcsFeedShowPrivateDetailsMutation = graphql(`
  mutation SetIcsFeedShowPrivateDetails($show: Boolean!) {
    setIcsFeedShowPrivateDetails(show: $show) {
      enabled
      showPrivateDetails
    }
  }
`);

export const RevokeIcsFeedMutation = graphql(`
  mutation RevokeIcsFeed {
    revokeIcsFeed
  }
`);
