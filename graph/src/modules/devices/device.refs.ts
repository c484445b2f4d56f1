import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput, type FieldError } from '../../platform/errors.js';

/** The references a device form may carry. */
export interface DeviceRefs {
  currentUserId?: number | null;
  previousUserId?: number | null;
  locationId?: number | null;
  departmentId?: number | null;
  officeAccountId?: number | null;
}

/**
 * Rejects, as field errors and in one round trip, references to employees, locations,
 * departments or Office accounts that do not exist; also a newly chosen current user who has
 * retired, the same person as current and previous user, and newly linking a suspended
 * (停止) Office account. References kept unchanged from `before` are not re-judged.
 */
export async function checkRefs(em: EntityManager, next: DeviceRefs, before: DeviceRefs | null): Promise<void> {
  const people = [next.currentUserId, next.previousUserId].filter((x): x is number => typeof x === 'number');
  const [r]: {
    employees: { id: number; status: string }[];
    location_ok: boolean;
    department_ok: boolean;
    office_status: string | null;
  }[] = await em.execute(
    `select (select coalesce(json_agg(json_build_object('id', id, 'status', status)), '[]'::json) from employee where id = any(?::int[])) as employees,
              exists (select 1 from location where id = ?) as location_ok,
              exists (select 1 from department where id = ?) as department_ok,
              (select status::text from office_account where id = ?) as office_status`,
    [`{${people.join(',')}}`, next.locationId ?? 0, next.departmentId ?? 0, next.officeAccountId ?? 0],
  );
  const status = (id: number) => r.employees.find((e) => e.id === id)?.status;
  const errors: FieldError[] = [];
  const changed = (k: keyof DeviceRefs) => before === null || before[k] !== next[k];
  for (const [k, label] of [
    ['currentUserId', '使用者'],
    ['previousUserId', '前使用者'],
  ] as const) {
    const id = next[k];
    if (id == null) continue;
    if (!status(id)) errors.push({ field: k, message: `${label}に指定した社員（ID: ${id}）は存在しません。` });
    else if (k === 'currentUserId' && changed(k) && status(id) === 'RETIRED')
      errors.push({ field: k, message: '退職した社員は使用者にできません。' });
  }
  if (next.currentUserId != null && next.currentUserId === next.previousUserId) {
    errors.push({ field: 'previousUserId', message: '使用者と前使用者に同じ社員は指定できません。' });
  }
  if (next.locationId != null && !r.location_ok) errors.push({ field: 'locationId', message: '存在しない拠点です。' });
  if (next.departmentId != null && !r.department_ok)
    errors.push({ field: 'departmentId', message: '存在しない部署です。' });
  if (next.officeAccountId != null) {
    if (!r.office_status)
      errors.push({ field: 'officeAccountId', message: '存在しない Microsoft Office アカウントです。' });
    else if (changed('officeAccountId') && r.office_status === 'SUSPENDED') {
      errors.push({ field: 'officeAccountId', message: '停止中の Microsoft Office アカウントは紐付けられません。' });
    }
  }
  if (errors.length) throw badInput('入力内容に誤りがあります。', errors);
}
