import { registerEnumType } from 'type-graphql';

export enum EmployeeRole {
  ADMIN = 'ADMIN',
  DEVICE_ADMIN = 'DEVICE_ADMIN',
  SYSTEM_ADMIN = 'SYSTEM_ADMIN',
  GENERAL = 'GENERAL',
}

export enum EmployeeStatus {
  ACTIVE = 'ACTIVE',
  RETIRED = 'RETIRED',
}

/** The labels the spec and its `/api` use. */
export const ROLE_LABEL: Record<EmployeeRole, string> = {
  ADMIN: '管理者',
  DEVICE_ADMIN: 'デバイス管理者',
  SYSTEM_ADMIN: 'システム管理者',
  GENERAL: '一般',
};
export const STATUS_LABEL: Record<EmployeeStatus, string> = {
  ACTIVE: '在籍',
  RETIRED: '退職',
};

export const roleFromLabel = (v: string): EmployeeRole | undefined =>
  (Object.keys(ROLE_LABEL) as EmployeeRole[]).find((k) => ROLE_LABEL[k] === v || k === v);
export const statusFromLabel = (v: string): EmployeeStatus | undefined =>
  (Object.keys(STATUS_LABEL) as EmployeeStatus[]).find((k) => STATUS_LABEL[k] === v || k === v);

/** Who manages what: the spec's menu table, enforced in services. */
export const MASTER_DATA_ROLES = [EmployeeRole.ADMIN, EmployeeRole.SYSTEM_ADMIN] as const;
export const DEVICE_ROLES = [EmployeeRole.ADMIN, EmployeeRole.DEVICE_ADMIN, EmployeeRole.SYSTEM_ADMIN] as const;

registerEnumType(EmployeeRole, {
  name: 'EmployeeRole',
  description: '管理者 / デバイス管理者 / システム管理者 / 一般',
});
registerEnumType(EmployeeStatus, { name: 'EmployeeStatus', description: '在籍 / 退職' });
