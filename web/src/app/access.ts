import type { EmployeeRole } from '../gql/graphql';

/**
 * Who may use which area (spec section 6):
 *  - admin:  staff list, departments, blog settings — 管理者 and システム管理者
 *  - device: computers, smartphones, Microsoft Office — everyone except 一般
 *  - all:    schedule, blog, profile
 * The server enforces the same rules in its services; this only shapes the menu and the routes.
 */
export type Access = 'all' | 'admin' | 'device';

export function canAccess(role: EmployeeRole, access: Access): boolean {
  switch (access) {
    case 'all':
      return true;
    case 'admin':
      return role === 'ADMIN' || role === 'SYSTEM_ADMIN';
    case 'device':
      return role !== 'GENERAL';
  }
}
