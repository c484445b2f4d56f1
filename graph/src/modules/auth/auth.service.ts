import type { AppContext } from '../../platform/context.js';
import { noteRateLimit } from '../../platform/rate-limit.js';
import { AppError, badInput, tooManyRequests, unauthenticated } from '../../platform/errors.js';
import { requireUser } from '../../platform/authz.js';
import { type EmployeeRole, EmployeeStatus, MASTER_DATA_ROLES } from '../employees/employee.enums.js';
import type { EmployeeService } from '../employees/employee.service.js';
import type { EmployeeView } from '../employees/employee.types.js';
import type { GoogleVerifier } from './google-verifier.js';
import type { LoginThrottler } from './login-throttle.js';
import { hashPassword, needsRehash, verifyPassword } from './password.js';
import { z } from 'zod';
import { parseInput } from '../../platform/validation.js';
import { passwordRule } from '../employees/employee.admin.js';
import type { SessionService } from './session.service.js';

export interface LoginInput {
  loginId: string;
  password: string;
  rememberMe?: boolean;
}

export interface LoginResult {
  employee: EmployeeView;
  token: string;
  expiresAt: Date;
}

const WRONG = 'ログインIDまたはパスワードが正しくありません。';
const RETIRED = 'このアカウントは退職済みのため利用できません。';

export class AuthService {
  constructor(
    private readonly sessions: SessionService,
    private readonly throttle: LoginThrottler,
    private readonly google: GoogleVerifier,
    private readonly employees: EmployeeService,
  ) {}

  get googleEnabled(): boolean {
    return this.google.enabled;
  }

  async login(ctx: AppContext, input: LoginInput): Promise<LoginResult> {
    const loginId = typeof input.loginId === 'string' ? input.loginId.trim() : '';
    const password = typeof input.password === 'string' ? input.password : '';
    const fieldErrors = [];
    if (!loginId) fieldErrors.push({ field: 'loginId', message: 'IDを入力してください。' });
    if (!password) fieldErrors.push({ field: 'password', message: 'パスワードを入力してください。' });
    if (loginId.length > 64) fieldErrors.push({ field: 'loginId', message: 'IDは64文字以内です。' });
    if (password.length > 256) fieldErrors.push({ field: 'password', message: 'パスワードは256文字以内です。' });
    if (fieldErrors.length) throw badInput('ログインIDとパスワードを入力してください。', fieldErrors);

    const em = ctx.em;
    const known = this.sessions.isKnownDevice(ctx.meta.deviceCookie, loginId);
    const verdict = await this.throttle.attempt(em, loginId, ctx.meta.ip, known);
    noteRateLimit(ctx.meta, verdict.state);
    if (!verdict.allowed) {
      const minutes = Math.ceil(verdict.retryAfterSeconds / 60);
      throw tooManyRequests(
        `ログインの失敗が続いたため、一時的にログインできません。${minutes}分後にもう一度お試しください。`,
        verdict.retryAfterSeconds,
      );
    }
    const rows: { id: number; password_hash: string; status: EmployeeStatus }[] = await em.execute(
      `select id, password_hash, status from employee where lower(login_id) = lower(?)`,
      [loginId],
    );
    const row = rows[0];
    const ok = await verifyPassword(row?.password_hash, password);
    if (!row || !ok) throw unauthenticated(WRONG);
    await this.throttle.succeeded(em, loginId, ctx.meta.ip);
    if (row.status !== EmployeeStatus.ACTIVE) throw new AppError('FORBIDDEN', RETIRED);
    if (needsRehash(row.password_hash)) {
      await em.execute(`update employee set password_hash = ? where id = ?`, [await hashPassword(password), row.id]);
    }
    return this.startSession(ctx, row.id, loginId, input.rememberMe === true);
  }

  /** Sign-in with a Google ID token: linked by `sub`, or first matched by a verified e-mail. */
  async loginWithGoogle(ctx: AppContext, credential: string, rememberMe: boolean): Promise<LoginResult> {
    if (typeof credential !== 'string' || credential.length < 20 || credential.length > 8192) {
      throw badInput('Googleの認証情報が正しくありません。', [{ field: 'credential', message: '不正な形式' }]);
    }
    const identity = await this.google.verify(credential);
    const conn = ctx.em;
    let rows: { id: number; login_id: string; status: EmployeeStatus }[] = await conn.execute(
      `select id, login_id, status from employee where google_sub = ?`,
      [identity.sub],
    );
    if (!rows[0] && identity.email && identity.emailVerified) {
      rows = await conn.execute(
        `update employee set google_sub = ?, updated_at = now() where lower(email) = lower(?) and google_sub is null returning id, login_id, status`,
        [identity.sub, identity.email],
      );
    }
    const row = rows[0];
    if (!row)
      throw unauthenticated('このGoogleアカウントに対応する社員が見つかりません。管理者にお問い合わせください。');
    if (row.status !== EmployeeStatus.ACTIVE) throw new AppError('FORBIDDEN', RETIRED);
    return this.startSession(ctx, row.id, row.login_id, rememberMe);
  }

  async logout(ctx: AppContext): Promise<boolean> {
    if (ctx.meta.token) await this.sessions.revoke(ctx.em, ctx.meta.token, 'logout');
    ctx.cookies.clear = true;
    return true;
  }

  /**
   * The signed-in employee replaces their password (a one-time one must be, before anything else):
   * the current one is checked (counted by the sign-in throttle), every session ends, and this
   * browser gets a new one.
   */
  async changeOwnPassword(
    ctx: AppContext,
    input: { currentPassword?: unknown; newPassword?: unknown },
  ): Promise<LoginResult> {
    const user = ctx.user;
    if (!user) throw unauthenticated();
    const current = typeof input.currentPassword === 'string' ? input.currentPassword : '';
    const refuse = (field: string, message: string) => badInput(message, [{ field, message }]);
    if (!current) throw refuse('currentPassword', '今のパスワードを入力してください。');
    const next = parseInput(z.object({ newPassword: passwordRule }), { newPassword: input.newPassword }).newPassword;
    if (next === current) throw refuse('newPassword', '新しいパスワードは今のパスワードと別のものにしてください。');
    const em = ctx.em;
    const [row]: { login_id: string; password_hash: string }[] = await em.execute(
      `select login_id, password_hash from employee where id = ?`,
      [user.id],
    );
    const verdict = await this.throttle.attempt(em, row!.login_id, ctx.meta.ip, true);
    noteRateLimit(ctx.meta, verdict.state);
    if (!verdict.allowed)
      throw tooManyRequests(
        'パスワードの確認に続けて失敗したため、しばらく変更できません。',
        verdict.retryAfterSeconds,
      );
    if (!(await verifyPassword(row!.password_hash, current))) {
      throw refuse('currentPassword', '今のパスワードが正しくありません。');
    }
    await this.throttle.succeeded(em, row!.login_id, ctx.meta.ip);
    const [session]: { remember: boolean }[] = await em.execute(`select remember from session where id = ?`, [
      user.sessionId,
    ]);
    const hash = await hashPassword(next);
    await em.transactional(async (tx) => {
      await tx.execute(
        `update employee set password_hash = ?, must_change_password = false, updated_at = now() where id = ?`,
        [hash, user.id],
      );
      await this.sessions.revokeAllFor(tx, user.id, 'password_changed', user.id);
    });
    ctx.meta.token = undefined; // ended above: nothing left to replace
    return this.startSession(ctx, user.id, row!.login_id, session?.remember === true);
  }

  /** Ends every session of an employee (admins: forced sign-out, e.g. a lost laptop). */
  async revokeEmployeeSessions(ctx: AppContext, employeeId: number): Promise<number> {
    requireUser(ctx, MASTER_DATA_ROLES);
    await this.employees.get(ctx, employeeId); // NOT_FOUND for an unknown id
    return this.sessions.revokeAllFor(ctx.em, employeeId, 'logout_all', ctx.user!.id);
  }

  private async startSession(
    ctx: AppContext,
    employeeId: number,
    loginId: string,
    remember: boolean,
  ): Promise<LoginResult> {
    // A new token at every sign-in; the one the browser held before (if any) is revoked.
    if (ctx.meta.token) await this.sessions.revoke(ctx.em, ctx.meta.token, 'replaced');
    const session = await this.sessions.issue(ctx.em, employeeId, remember, ctx.meta);
    const employee = await this.employees.getFor(
      ctx.em,
      { id: employeeId, role: 'GENERAL' as EmployeeRole },
      employeeId,
    );
    const [flag]: { must_change_password: boolean }[] = await ctx.em.execute(
      `select must_change_password from employee where id = ?`,
      [employeeId],
    );
    employee.mustChangePassword = flag?.must_change_password ?? false;
    ctx.cookies.set = {
      token: session.token,
      remember,
      expiresAt: session.expiresAt,
      device: this.sessions.deviceCookieFor(loginId),
    };
    return { employee, token: session.token, expiresAt: session.expiresAt };
  }
}
