import type { EntityManager } from '@mikro-orm/postgresql';
import { containsPattern } from '../../platform/list-query.js';
import type { AppContext } from '../../platform/context.js';
import { requireUser } from '../../platform/authz.js';
import { badInput, notFound } from '../../platform/errors.js';
import { checkPage } from '../../platform/pagination.js';
import { EmployeeStatus, MASTER_DATA_ROLES, ROLE_LABEL, STATUS_LABEL, type EmployeeRole } from './employee.enums.js';
import type { EmployeeView, EmployeePage } from './employee.types.js';
import { checkId, checkSearchText } from '../../platform/validation.js';

type Viewer = { id: number; role: EmployeeRole };

export interface DirectoryFilter {
  name?: string | null;
  departmentId?: number | null;
  includeRetired?: boolean | null;
  /** Employees left out (and not counted): a department's members while more are picked. */
  excludeIds?: readonly number[] | null;
}

const MAX_EXCLUDED = 10_000;

interface Row {
  id: number;
  name: string;
  email: string | null;
  login_id: string;
  role: EmployeeRole;
  status: EmployeeStatus;
  department_id: number | null;
  department_name: string | null;
  location_id: number | null;
  location_name: string | null;
  version: number;
  total: string;
}

const SELECT = `select e.id, e.name, e.email, e.login_id, e.role, e.status, e.version,
       e.department_id, d.name as department_name, e.location_id, l.name as location_name`;
const FROM = `from employee e left join department d on d.id = e.department_id left join location l on l.id = e.location_id`;

/** The staff directory: readable by every signed-in employee (other screens show names). */
export class EmployeeService {
  async list(ctx: AppContext, filter: DirectoryFilter, offset?: unknown, limit?: unknown): Promise<EmployeePage> {
    const viewer = requireUser(ctx);
    const page = checkPage(offset, limit);
    const where: string[] = [];
    const params: unknown[] = [];
    checkSearchText(filter.name, 'name', '氏名');
    const name = filter.name?.trim();
    if (name) {
      where.push(`e.name ilike ?`);
      params.push(containsPattern(name));
    }
    if (filter.departmentId != null) {
      where.push(`e.department_id = ?`);
      params.push(filter.departmentId);
    }
    if (!filter.includeRetired) where.push(`e.status = 'ACTIVE'`);
    if (filter.excludeIds?.length) {
      if (filter.excludeIds.length > MAX_EXCLUDED)
        throw badInput(`除外する社員は${MAX_EXCLUDED.toLocaleString('ja-JP')}人までです。`, [
          { field: 'excludeIds', message: `${MAX_EXCLUDED.toLocaleString('ja-JP')}件まで` },
        ]);
      if (!filter.excludeIds.every((id) => Number.isSafeInteger(id) && id > 0))
        throw badInput('除外する社員IDが正しくありません。', [{ field: 'excludeIds', message: '正の整数' }]);
      where.push(`e.id <> all(?::int[])`);
      params.push(`{${filter.excludeIds.join(',')}}`);
    }
    // Page first (index order), then join the names onto those rows only; the count is separate.
    // A window count over the joined set made PostgreSQL join every matching row for every page.
    const cond = where.length ? `where ${where.join(' and ')}` : '';
    const sql = `with page as (
        select e.id from employee e ${cond} order by e.id limit ? offset ?)
      ${SELECT}, (select count(*) from employee e ${cond}) as total
        from page p join employee e on e.id = p.id
        left join department d on d.id = e.department_id left join location l on l.id = e.location_id
       order by e.id`;
    const rows: Row[] = await ctx.em.execute(sql, [...params, page.limit, page.offset, ...params]);
    let total = rows.length ? Number(rows[0].total) : 0;
    if (!rows.length && page.offset > 0) {
      const [c] = await ctx.em.execute(`select count(*) as total from employee e ${cond}`, params);
      total = Number(c.total);
    }
    return { items: rows.map((r) => this.view(viewer, r)), total, offset: page.offset, limit: page.limit };
  }

  async get(ctx: AppContext, id: number): Promise<EmployeeView> {
    return this.getFor(ctx.em, requireUser(ctx), id);
  }

  /** One employee as `viewer` may see them (sign-in uses it to answer with the user's own record). */
  async getFor(em: EntityManager, viewer: Viewer, id: number): Promise<EmployeeView> {
    checkId(id, '社員');
    const rows: Row[] = await em.execute(`${SELECT}, 1 as total ${FROM} where e.id = ?`, [id]);
    if (!rows[0]) throw notFound('社員');
    return this.view(viewer, rows[0]);
  }

  private view(viewer: Viewer, r: Row): EmployeeView {
    const mayseeLogin = viewer.id === r.id || (MASTER_DATA_ROLES as readonly string[]).includes(viewer.role);
    return {
      id: r.id,
      name: r.name,
      email: r.email,
      role: r.role,
      roleLabel: ROLE_LABEL[r.role],
      status: r.status,
      statusLabel: STATUS_LABEL[r.status],
      department: r.department_id != null ? { id: r.department_id, name: r.department_name! } : null,
      location: r.location_id != null ? { id: r.location_id, name: r.location_name! } : null,
      loginId: mayseeLogin ? r.login_id : null,
      version: r.version,
    };
  }
}

/** The spec's `/api` shape of an employee (snake_case, Japanese labels). Never carries a password. */
export function toApiEmployee(e: EmployeeView) {
  return {
    id: e.id,
    employee_id: e.id,
    name: e.name,
    full_name: e.name,
    department: e.department?.name ?? null,
    department_id: e.department?.id ?? null,
    role: e.roleLabel,
    status: e.statusLabel,
    email: e.email,
    location: e.location?.name ?? null,
    location_id: e.location?.id ?? null,
    login_id: e.loginId,
    version: e.version,
  };
}
