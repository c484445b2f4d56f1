import { badInput } from '../../platform/errors.js';
import { Where } from '../../platform/list-query.js';
import { STATUS_LABEL, type EmployeeStatus } from '../employees/employee.enums.js';
import type { NamedRef } from '../employees/employee.types.js';
import { DEVICE_STATUS_LABEL, DISCARDED_STATUSES, DeviceStatus } from './device.enums.js';
import type { DeviceHolder, HeldDeviceFilter, HeldDeviceView } from './device.types.js';

// ---- what computers and smartphones share --------------------------------------------------

export interface HeldRow {
  id: number;
  current_user_id: number | null;
  current_user_name: string | null;
  current_user_status: EmployeeStatus | null;
  previous_user_id: number | null;
  previous_user_name: string | null;
  previous_user_status: EmployeeStatus | null;
  location_id: number | null;
  location_name: string | null;
  department_id: number | null;
  department_name: string | null;
  status: DeviceStatus;
  version: number;
  updated_at: string;
}

export const heldSelect = (a: string) =>
  `${a}.id, ${a}.current_user_id, cu.name as current_user_name, cu.status as current_user_status,
   ${a}.previous_user_id, pu.name as previous_user_name, pu.status as previous_user_status,
   ${a}.location_id, l.name as location_name, ${a}.department_id, d.name as department_name,
   ${a}.status, ${a}.version, ${a}.updated_at`;

export const heldJoins = (a: string) =>
  `left join employee cu on cu.id = ${a}.current_user_id
   left join employee pu on pu.id = ${a}.previous_user_id
   left join location l on l.id = ${a}.location_id
   left join department d on d.id = ${a}.department_id`;

export function holder(id: number | null, name: string | null, status: EmployeeStatus | null): DeviceHolder | null {
  if (id === null || name === null || status === null) return null;
  return { id, name, status, statusLabel: STATUS_LABEL[status], retired: status === 'RETIRED' };
}

export const named = (id: number | null, name: string | null): NamedRef | null =>
  id === null || name === null ? null : { id, name };

export function heldView(r: HeldRow): HeldDeviceView {
  const currentUser = holder(r.current_user_id, r.current_user_name, r.current_user_status);
  return {
    id: r.id,
    currentUser,
    previousUser: holder(r.previous_user_id, r.previous_user_name, r.previous_user_status),
    location: named(r.location_id, r.location_name),
    department: named(r.department_id, r.department_name),
    status: r.status,
    statusLabel: DEVICE_STATUS_LABEL[r.status],
    currentUserStatus: currentUser?.statusLabel ?? null,
    isDiscarded: DISCARDED_STATUSES.includes(r.status),
    isBroken: r.status === DeviceStatus.BROKEN,
    currentUserRetired: currentUser?.retired ?? false,
    version: r.version,
    updatedAt: new Date(r.updated_at),
  };
}

/** The screen's filters, plus an internal one: exactly these ids. */
export type HeldQuery = Partial<HeldDeviceFilter> & { ids?: number[] };

/**
 * The filters both device lists have. An explicit status shows exactly that status; without one,
 * 廃棄 and 処分済み stay hidden unless showDiscarded is set.
 */
export function heldWhere(a: string, f: HeldQuery, statuses: readonly DeviceStatus[]): Where {
  const w = new Where();
  if (f.ids) w.add(`${a}.id = any(?::int[])`, `{${f.ids.join(',')}}`);
  w.equals(`${a}.department_id`, f.departmentId, 'departmentId');
  w.equals(`${a}.location_id`, f.locationId, 'locationId');
  w.equals(`${a}.current_user_id`, f.currentUserId, 'currentUserId');
  if (f.status) {
    if (!statuses.includes(f.status))
      throw badInput('状態の指定が正しくありません。', [
        { field: 'status', message: statuses.map((s) => DEVICE_STATUS_LABEL[s]).join(' / ') },
      ]);
    w.add(`${a}.status = ?`, f.status);
  } else if (!f.showDiscarded) {
    w.add(`${a}.status <> all(?::device_status[])`, `{${DISCARDED_STATUSES.join(',')}}`);
  }
  return w;
}
