import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config/config.js';
import { record } from '../../platform/events/outbox.js';
import { pgArray } from '../../platform/sql.js';
import { EmployeeRole, EmployeeStatus } from '../employees/employee.enums.js';
import { tooManyRequests } from '../../platform/errors.js';
import { isApiKey, resolveApiKey } from './api-key.service.js';
import { LoginThrottler } from './login-throttle.js';

export interface CurrentUser {
  id: number;
  name: string;
  role: EmployeeRole;
  departmentId: number | null;
  sessionId: string;
  /** Signed in with a one-time password: until it is replaced, the session may only change it (authz.ts). */
  mustChangePassword: boolean;
  /** An API key that may only read: no mutation in GraphQL, only GET in /api. */
  readOnly?: boolean;
}

export interface IssuedSession {
  token: string;
  expiresAt: Date;
  remember: boolean;
}

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * Opaque 256-bit tokens, stored only as their SHA-256. Two expiries are enforced on the server:
 * idle (slides with use) and absolute (fixed at login). "Remember Me" selects the longer pair.
 */
export class SessionService {
  constructor(
    private readonly config: Config,
    private readonly secret: Buffer,
  ) {}

  private lifetimes(remember: boolean) {
    const c = this.config;
    return remember
      ? { idleMs: c.SESSION_REMEMBER_IDLE_DAYS * 86_400_000, absoluteMs: c.SESSION_REMEMBER_ABSOLUTE_DAYS * 86_400_000 }
      : { idleMs: c.SESSION_IDLE_MINUTES * 60_000, absoluteMs: c.SESSION_ABSOLUTE_HOURS * 3_600_000 };
  }

  async issue(
    em: EntityManager,
    employeeId: number,
    remember: boolean,
    meta: { ip?: string; userAgent?: string },
  ): Promise<IssuedSession> {
    const token = randomBytes(32).toString('base64url');
    const now = Date.now();
    const { idleMs, absoluteMs } = this.lifetimes(remember);
    const absolute = new Date(now + absoluteMs);
    await em.execute(
      `insert into session (id, employee_id, created_at, last_seen_at, idle_expires_at, absolute_expires_at, remember, user_agent, ip)
       values (?, ?, now(), now(), ?, ?, ?, ?, ?)`,
      [
        hashToken(token),
        employeeId,
        new Date(now + idleMs),
        absolute,
        remember,
        meta.userAgent?.slice(0, 400) ?? null,
        meta.ip ?? null,
      ],
    );
    return { token, expiresAt: absolute, remember };
  }

  /**
   * The signed-in user for a token, or null when unknown, expired, or the employee is no longer
   * active. An API key (ipk_…) is taken as a bearer token only, never from a cookie; a wrong one
   * counts against the caller's address as a failed sign-in does (TOO_MANY_REQUESTS past the limit).
   */
  async resolve(
    em: EntityManager,
    token: string | undefined,
    via: { cookie?: boolean; ip?: string } = {},
  ): Promise<CurrentUser | null> {
    if (!token || token.length > 200) return null;
    if (isApiKey(token)) return via.cookie ? null : this.resolveKey(em, token, via.ip ?? 'unknown');
    const id = hashToken(token);
    const rows: {
      employee_id: number;
      name: string;
      role: EmployeeRole;
      status: EmployeeStatus;
      department_id: number | null;
      remember: boolean;
      idle_expires_at: Date;
      absolute_expires_at: Date;
      last_seen_at: Date;
      must_change_password: boolean;
    }[] = await em.execute(
      `select s.employee_id, e.name, e.role, e.status, e.department_id, s.remember, e.must_change_password,
              s.idle_expires_at, s.absolute_expires_at, s.last_seen_at
         from session s join employee e on e.id = s.employee_id
        where s.id = ?`,
      [id],
    );
    const row = rows[0];
    if (!row) return null;
    const now = Date.now();
    if (
      row.status !== EmployeeStatus.ACTIVE ||
      new Date(row.idle_expires_at).getTime() <= now ||
      new Date(row.absolute_expires_at).getTime() <= now
    ) {
      await em.execute(`delete from session where id = ?`, [id]);
      return null;
    }
    // Slide the idle expiry, at most once a minute per session.
    if (now - new Date(row.last_seen_at).getTime() > 60_000) {
      const { idleMs } = this.lifetimes(row.remember);
      await em.execute(
        `update session set last_seen_at = now(), idle_expires_at = least(?, absolute_expires_at) where id = ?`,
        [new Date(now + idleMs), id],
      );
    }
    return {
      id: row.employee_id,
      name: row.name,
      role: row.role,
      departmentId: row.department_id,
      sessionId: id,
      mustChangePassword: row.must_change_password,
    };
  }

  /**
   * Ends one session. The event lets every graph instance close the session's open sockets; it
   * commits with the deletion (or joins the caller's transaction).
   */
  async revoke(em: EntityManager, token: string, reason: 'logout' | 'replaced'): Promise<void> {
    const id = hashToken(token);
    await em.transactional(async (tx) => {
      const rows: { employee_id: number }[] = await tx.execute(
        `delete from session where id = ? returning employee_id`,
        [id],
      );
      const employeeId = rows[0]?.employee_id;
      if (employeeId !== undefined) {
        record(tx, {
          type: 'employee.session_ended',
          aggregateId: employeeId,
          actorId: employeeId,
          payload: { employeeId, sessionId: id, reason },
        });
      }
    });
  }

  /** Ends every session of an employee, open sockets included (see revoke). */
  async revokeAllFor(
    em: EntityManager,
    employeeId: number,
    reason: 'logout_all' | 'retired' | 'password_changed',
    actorId: number | null,
  ): Promise<number> {
    return em.transactional(async (tx) => {
      const rows: unknown[] = await tx.execute(`delete from session where employee_id = ? returning id`, [employeeId]);
      record(tx, {
        type: 'employee.sessions_revoked',
        aggregateId: employeeId,
        actorId,
        payload: { employeeId, reason },
      });
      return rows.length;
    });
  }

  /** Of these session ids, those still valid (not expired, of an active employee; API keys not revoked): open sockets are checked with it. */
  async liveSessionIds(em: EntityManager, ids: string[]): Promise<Set<string>> {
    const rows: { id: string }[] = await em.execute(
      `select s.id from session s join employee e on e.id = s.employee_id
        where s.id = any(?::text[]) and e.status = ? and s.idle_expires_at > now() and s.absolute_expires_at > now()
       union all
       select 'api-key:' || k.id from api_key k join employee e on e.id = k.employee_id
        where 'api-key:' || k.id = any(?::text[]) and e.status = ? and k.revoked_at is null and (k.expires_at is null or k.expires_at > now())`,
      [pgArray(ids), EmployeeStatus.ACTIVE, pgArray(ids), EmployeeStatus.ACTIVE],
    );
    return new Set(rows.map((r) => r.id));
  }

  private async resolveKey(em: EntityManager, token: string, ip: string): Promise<CurrentUser | null> {
    const user = await resolveApiKey(em, token);
    if (user) return user;
    this.keyThrottle ??= new LoginThrottler(this.config);
    const verdict = await this.keyThrottle.attempt(em, 'api-key', ip, false);
    if (!verdict.allowed)
      throw tooManyRequests('正しくない API キーが続いたため、しばらく受け付けません。', verdict.retryAfterSeconds);
    return null;
  }

  /** Wrong API keys, counted per address as failed sign-ins are (login-throttle.ts). */
  private keyThrottle?: LoginThrottler;

  async purgeExpired(em: EntityManager): Promise<void> {
    await em.execute(`delete from session where idle_expires_at < now() or absolute_expires_at < now()`);
  }

  /** A long-lived signed marker that this browser has signed in to this account before. */
  deviceCookieFor(loginId: string): string {
    const payload = Buffer.from(`${loginId.trim().toLowerCase()}|${Date.now()}`).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  isKnownDevice(cookie: string | undefined, loginId: string): boolean {
    if (!cookie) return false;
    const [payload, sig] = cookie.split('.');
    if (!payload || !sig) return false;
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
    const [login] = Buffer.from(payload, 'base64url').toString().split('|');
    return login === loginId.trim().toLowerCase();
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url');
  }
}
