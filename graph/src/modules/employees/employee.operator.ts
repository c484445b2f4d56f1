import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { badInput } from '../../platform/errors.js';
import { record } from '../../platform/events/outbox.js';
import { parseInput } from '../../platform/validation.js';
import { flushSave } from '../../platform/versioning.js';
import { hashPassword } from '../auth/password.js';
import { accountFields, passwordRule, snapshot, UNIQUE } from './employee.admin.js';
import { Employee } from './employee.entity.js';
import { EmployeeRole, EmployeeStatus } from './employee.enums.js';

/**
 * What an operator does from the command line (`npm run admin`), with no one signed in: create the
 * first 管理者 of a production install, and give a locked-out administrator a new password. Both
 * passwords are one-time: the next sign-in must replace them (employee.must_change_password).
 */

/** A one-time password to print: 16 characters of base64url (96 bits). */
export const oneTimePassword = () => randomBytes(12).toString('base64url');

const createSchema = z.object({
  name: accountFields.name,
  email: accountFields.email,
  loginId: accountFields.loginId,
  password: passwordRule,
});

export async function createAdministrator(
  em: EntityManager,
  input: { loginId: unknown; name: unknown; email: unknown; password: unknown },
): Promise<{ id: number; loginId: string }> {
  const data = parseInput(createSchema, input);
  const hash = await hashPassword(data.password);
  return em.transactional(async (tx) => {
    const e = tx.create(Employee, {
      name: data.name,
      email: data.email,
      loginId: data.loginId,
      passwordHash: hash,
      role: EmployeeRole.ADMIN,
      status: EmployeeStatus.ACTIVE,
      location: null,
      updatedById: null,
    });
    await flushSave(tx, null, async () => null, UNIQUE);
    await tx.execute(`update employee set must_change_password = true where id = ?`, [e.id]);
    record(tx, { type: 'employee.created', aggregateId: e.id, actorId: null, payload: { employee: snapshot(e) } });
    await tx.flush();
    return { id: e.id, loginId: e.loginId };
  });
}

/** Sets a one-time password for an active employee and ends their sessions. */
export async function resetPassword(
  em: EntityManager,
  loginId: string,
  password: string,
): Promise<{ id: number; name: string; role: EmployeeRole }> {
  const pw = parseInput(z.object({ password: passwordRule }), { password }).password;
  const hash = await hashPassword(pw);
  return em.transactional(async (tx) => {
    const [row]: { id: number; name: string; role: EmployeeRole }[] = await tx.execute(
      `update employee set password_hash = ?, must_change_password = true, updated_at = now()
        where lower(login_id) = lower(?) and status = ? returning id, name, role`,
      [hash, loginId, EmployeeStatus.ACTIVE],
    );
    if (!row)
      throw badInput(`在籍中の社員にログインID「${loginId}」はいません。`, [
        { field: 'login', message: '在籍中の社員のログインID' },
      ]);
    await tx.execute(`delete from session where employee_id = ?`, [row.id]);
    record(tx, {
      type: 'employee.sessions_revoked',
      aggregateId: row.id,
      actorId: null,
      payload: { employeeId: row.id, reason: 'password_changed' },
    });
    return row;
  });
}

/** Whether any active 管理者 or システム管理者 exists (a production start says what to run when none does). */
export async function hasAdministrator(em: EntityManager): Promise<boolean> {
  const rows: unknown[] = await em.execute(`select 1 from employee where status = ? and role in (?, ?) limit 1`, [
    EmployeeStatus.ACTIVE,
    EmployeeRole.ADMIN,
    EmployeeRole.SYSTEM_ADMIN,
  ]);
  return rows.length > 0;
}
