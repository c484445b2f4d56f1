/**
 * What the soak's virtual users send: the demo logins and which of them do what, and the web app's
 * GraphQL documents (lists, details, edits, subscriptions) as Apollo Client sends them.
 */
export { GRID_QUERY } from '../grid.bench.js';

/** Our own API's JSON, read loosely by the load generator (the answers were checked by the tests). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type Loose = Record<string, any>;

export const LOGINS = ['admin', 'sysadmin', 'devadmin', 'staff'] as const;
export type Login = (typeof LOGINS)[number];
export const DEVICE_LOGINS: Login[] = ['admin', 'sysadmin', 'devadmin'];
export const MASTER_LOGINS: Login[] = ['admin', 'sysadmin'];

// --- documents (the web app's, web/src/features/*/operations.ts)
export const EMPLOYEES_LIST = `query EmployeesList($filter: EmployeeFilter, $offset: Int!, $limit: Int!) {
  employees(filter: $filter, offset: $offset, limit: $limit) {
    total offset limit
    items { id name email status statusLabel department { refId: id name __typename } location { refId: id name __typename } __typename }
    __typename
  }
}`;
export const EMPLOYEE_FIELDS = `fragment EmployeeDetailFields on EmployeeView {
  id name loginId email role status statusLabel version
  department { refId: id name __typename } location { refId: id name __typename } __typename
}`;
export const EMPLOYEE_DETAIL = `query EmployeeDetail($id: Int!) { employee(id: $id) { ...EmployeeDetailFields __typename } }\n${EMPLOYEE_FIELDS}`;
export const UPDATE_EMPLOYEE = `mutation UpdateEmployee($id: Int!, $input: EmployeeInput!) { updateEmployee(id: $id, input: $input) { ...EmployeeDetailFields __typename } }\n${EMPLOYEE_FIELDS}`;
export const HOLDER = `fragment HolderFields on DeviceHolder { id name retired statusLabel __typename }`;
export const COMPUTERS_LIST = `query ComputersList($filter: ComputerFilter, $offset: Int!, $limit: Int!) {
  computers(filter: $filter, offset: $offset, limit: $limit) {
    total offset limit
    items {
      id assetNumber maker deviceType model status statusLabel introductionDate isBroken isDiscarded currentUserRetired
      currentUser { ...HolderFields __typename } department { refId: id name __typename } location { refId: id name __typename }
      officeAccount { id account __typename } __typename
    }
    __typename
  }
}\n${HOLDER}`;
export const COMPUTER_FIELDS = `fragment ComputerDetailFields on ComputerView {
  id assetNumber maker deviceType model status statusLabel reason purchaseDate introductionDate pinCode pass acAdapter powerCable version updatedAt
  currentUser { ...HolderFields __typename } previousUser { ...HolderFields __typename }
  department { refId: id name __typename } location { refId: id name __typename } officeAccount { id account __typename } __typename
}\n${HOLDER}`;
export const COMPUTER_DETAIL = `query ComputerDetail($id: Int!) { computer(id: $id) { ...ComputerDetailFields __typename } }\n${COMPUTER_FIELDS}`;
export const UPDATE_COMPUTER = `mutation UpdateComputer($id: Int!, $input: ComputerInput!) { updateComputer(id: $id, input: $input) { ...ComputerDetailFields __typename } }\n${COMPUTER_FIELDS}`;
export const SCHEDULE_FIELDS = `fragment ScheduleFields on ScheduleView {
  id version busyOnly canEdit canRespond myResponse title date endDate isAllDay startTime endTime type meetLink description syncGoogle isPrivate externalGuests
  owner { id name __typename } guests { id name response __typename } __typename
}`;
export const SCHEDULE_DETAIL = `query Schedule($id: Int!) { schedule(id: $id) { ...ScheduleFields __typename } }\n${SCHEDULE_FIELDS}`;
export const CREATE_SCHEDULE = `mutation CreateSchedule($input: ScheduleInput!) { createSchedule(input: $input) { id version } }`;
export const UPDATE_SCHEDULE = `mutation UpdateSchedule($id: Int!, $input: ScheduleInput!) { updateSchedule(id: $id, input: $input) { ...ScheduleFields __typename } }\n${SCHEDULE_FIELDS}`;
export const SCHEDULE_CHANGED = `subscription ScheduleChanged($from: String, $to: String) {
  scheduleChanged(from: $from, to: $to) { kind scheduleId from to employeeIds schedule { ...ScheduleFields __typename } __typename }
}\n${SCHEDULE_FIELDS}`;
export const EMPLOYEE_CHANGED = `subscription EmployeeChanged { employeeChanged { employeeId type __typename } }`;
