import type { AuthChecker } from 'type-graphql';
import type { AppContext } from './context.js';
import { AppError, forbidden, unauthenticated } from './errors.js';
import type { EmployeeRole } from '../modules/employees/employee.enums.js';
import type { CurrentUser } from '../modules/auth/session.service.js';

/** Marks a root field that anonymous callers may use (sign-in, the public auth settings). */
export const PUBLIC = 'PUBLIC';
/** Marks a root field a session with a one-time password may use (changing it). */
export const PASSWORD_PENDING = 'PASSWORD_PENDING';

export const PASSWORD_CHANGE_MESSAGE =
  '初回ログインのため、パスワードの変更が必要です。新しいパスワードを設定してください。';
/** A read-only API key asked to change something. */
export const readOnlyKey = () =>
  new AppError('FORBIDDEN', 'この API キーは読み取り専用です。変更には読み書きできるキーを使ってください。', {
    reason: 'API_KEY_READ_ONLY',
  });

/** A session signed in with a one-time password asked for anything but changing it. */
export const passwordChangeRequired = () =>
  new AppError('FORBIDDEN', PASSWORD_CHANGE_MESSAGE, { reason: 'PASSWORD_CHANGE_REQUIRED' });

/**
 * type-graphql's auth checker. Every root field carries @Authorized: no roles means any signed-in
 * employee, PUBLIC means anyone, otherwise one of the listed roles. Services check again, so REST
 * and workers get the same rules.
 */
export const authChecker: AuthChecker<AppContext, string> = ({ context }, roles) => {
  if (roles.includes(PUBLIC)) return true;
  if (!context.user) throw unauthenticated();
  if (roles.includes(PASSWORD_PENDING)) return true;
  if (context.user.mustChangePassword) throw passwordChangeRequired();
  if (roles.length === 0 || roles.includes(context.user.role)) return true;
  throw forbidden();
};

/** Service-level guard: returns the signed-in user or throws the typed error. */
export function requireUser(ctx: Pick<AppContext, 'user'>, roles?: readonly EmployeeRole[]): CurrentUser {
  if (!ctx.user) throw unauthenticated();
  if (ctx.user.mustChangePassword) throw passwordChangeRequired();
  if (roles && roles.length > 0 && !roles.includes(ctx.user.role)) throw forbidden();
  return ctx.user;
}
