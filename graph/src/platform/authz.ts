import type { AuthChecker } from 'type-graphql';
import type { AppContext } from './context.js';
import { forbidden, unauthenticated } from './errors.js';
import type { EmployeeRole } from '../modules/employees/employee.enums.js';
import type { CurrentUser } from '../modules/auth/session.service.js';

/** Marks a root field that anonymous callers may use (sign-in, the public auth settings). */
export const PUBLIC = 'PUBLIC';

/**
 * type-graphql's auth checker. Every root field carries @Authorized: no roles means any signed-in
 * employee, PUBLIC means anyone, otherwise one of the listed roles. Services check again, so REST
 * and workers get the same rules.
 */
export const authChecker: AuthChecker<AppContext, string> = ({ context }, roles) => {
  if (roles.includes(PUBLIC)) return true;
  if (!context.user) throw unauthenticated();
  if (roles.length === 0 || roles.includes(context.user.role)) return true;
  throw forbidden();
};

/** Service-level guard: returns the signed-in user or throws the typed error. */
export function requireUser(ctx: Pick<AppContext, 'user'>, roles?: readonly EmployeeRole[]): CurrentUser {
  if (!ctx.user) throw unauthenticated();
  if (roles && roles.length > 0 && !roles.includes(ctx.user.role)) throw forbidden();
  return ctx.user;
}
