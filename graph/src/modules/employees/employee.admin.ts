import { z } from 'zod';
import type { AppContext } from '../../platform/context.js';
import { requireUser } from '../../platform/authz.js';
import { badInput, notFound } from '../../platform/errors.js';
import { record } from '../../platform/events/outbox.js';
import { checkId, missingOr, parseInput, v } from '../../platform/validation.js';
import { expectVersion, flushSave } from '../../platform/versioning.js';
import { hashPassword } from '../auth/password.js';
import type { SessionService } from '../auth/session.service.js';
import { Location } from '../departments/department.entity.js';
import { Employee } from './employee.entity.js';
import { EmployeeRole, EmployeeStatus, MASTER_DATA_ROLES } from './employee.enums.js';
import type { EmployeeService } from './employee.service.js';
import type { EmployeeView } from './employee.types.js';

/** What a staff form sends. The department is not here: membership is edited on the department. */
export interface EmployeeWrite {
  name?: unknown;
  email?: unknown;
  loginId?: unknown;
  password?: unknown;
  role?: unknown;
  status?: unknown;
  locationId?: unknown;
  version?: unknown;
}

export const accountFields = {
  name: v.text('氏名', 100),
  email: v.email(),
  loginId: z
    .string({ error: 'ログインIDを入力してください。' })
    .trim()
    .regex(/^[A-Za-z0-9._-]{3,64}$/, 'ログインIDは半角英数字と . _ - で3〜64文字にしてください。'),
  role: z.enum(EmployeeRole, { error: '権限を選択してください。' }),
  status: z.enum(EmployeeStatus, { error: '状態を選択してください。' }),
  locationId: v.optionalId('拠点'),
};
const base = accountFields;
export const passwordRule = z
  .string({ error: missingOr('パスワードを入力してください。', 'パスワードは文字列で入力してください。') })
  .min(10, 'パスワードは10文字以上にしてください。')
  .max(256, 'パスワードは256文字以内にしてください。');
const createSchema = z.object({ ...base, password: passwordRule });
const updateSchema = z.object({ ...base, password: passwordRule.nullish(), version: v.version() });

export const UNIQUE = {
  /** Unique on lower(login_id) (Migration20261126180000_login_id_case): sign-in ignores case, so does the rule. */
  employee_login_id_lower_key: { field: 'loginId', message: 'このログインIDはすでに使われています。' },
  employee_email_key: { field: 'email', message: 'このメールアドレスはすでに登録されています。' },
};

/**
 * Staff master-data writes: 管理者 and システム管理者 only. Every save records its event in the
 * same transaction; a retirement also ends the employee's sessions.
 */
export class EmployeeAdminService {
  constructor(
    private readonly employees: EmployeeService,
    private readonly sessions: SessionService,
  ) {}

  async create(ctx: AppContext, input: EmployeeWrite): Promise<EmployeeView> {
    const user = requireUser(ctx, MASTER_DATA_ROLES);
    const data = parseInput(createSchema, input);
    const hash = await hashPassword(data.password);
    const id = await ctx.em.transactional(async (tx) => {
      await this.checkLocation(tx, data.locationId);
      const e = tx.create(Employee, {
        name: data.name,
        email: data.email,
        loginId: data.loginId,
        passwordHash: hash,
        role: data.role,
        status: data.status,
        location: data.locationId,
        updatedById: user.id,
      });
      await flushSave(tx, null, async () => null, UNIQUE);
      record(tx, { type: 'employee.created', aggregateId: e.id, actorId: user.id, payload: { employee: snapshot(e) } });
      await tx.flush();
      return e.id;
    });
    return this.employees.get(ctx, id);
  }

  async update(ctx: AppContext, id: number, input: EmployeeWrite): Promise<EmployeeView> {
    const user = requireUser(ctx, MASTER_DATA_ROLES);
    checkId(id, '社員');
    const data = parseInput(updateSchema, input);
    const hash = data.password ? await hashPassword(data.password) : null;
    await ctx.em.transactional(async (tx) => {
      const e = await tx.findOne(Employee, id, { populate: ['passwordHash'] });
      if (!e) throw notFound('社員');
      const current = () => this.employees.get(ctx, id);
      await expectVersion(tx, e, data.version, current, user.id);
      await this.checkLocation(tx, data.locationId);
      if (e.id === user.id && data.role !== e.role)
        throw badInput('自分自身の権限は変更できません。', [{ field: 'role', message: '自分の権限は変更できません' }]);
      if (e.id === user.id && data.status === EmployeeStatus.RETIRED)
        throw badInput('自分自身を退職にはできません。', [{ field: 'status', message: '自分は退職にできません' }]);
      const diff: Record<string, boolean> = {
        name: data.name !== e.name,
        email: data.email !== (e.email ?? null),
        loginId: data.loginId !== e.loginId,
        role: data.role !== e.role,
        status: data.status !== e.status,
        locationId: data.locationId !== refId(e.location),
        password: hash !== null,
      };
      const changed = Object.keys(diff).filter((k) => diff[k]);
      if (changed.length === 0) return; // nothing to save: no new version, no event
      e.name = data.name;
      e.email = data.email;
      e.loginId = data.loginId;
      e.role = data.role;
      e.status = data.status;
      e.location = data.locationId === null ? null : tx.getReference(Location, data.locationId);
      if (hash) e.passwordHash = hash;
      e.updatedById = user.id;
      await flushSave(tx, e, current, UNIQUE, user.id);
      record(tx, {
        type: 'employee.updated',
        aggregateId: e.id,
        actorId: user.id,
        payload: { employee: snapshot(e), changed },
      });
      if (data.status === EmployeeStatus.RETIRED || hash) {
        await this.sessions.revokeAllFor(
          tx,
          e.id,
          data.status === EmployeeStatus.RETIRED ? 'retired' : 'password_changed',
          user.id,
        );
      }
      await tx.flush();
    });
    return this.employees.get(ctx, id);
  }

  private async checkLocation(tx: AppContext['em'], locationId: number | null) {
    if (locationId !== null && !(await tx.findOne(Location, locationId))) {
      throw badInput('拠点が見つかりません。', [{ field: 'locationId', message: '存在しない拠点です' }]);
    }
  }
}

const refId = (r: { id: number } | null | undefined): number | null => r?.id ?? null;

export function snapshot(e: Employee) {
  return {
    id: e.id,
    name: e.name,
    role: e.role,
    status: e.status,
    departmentId: refId(e.department),
    locationId: refId(e.location),
    version: e.version,
  };
}
