import { z } from 'zod';
import { containsPattern } from '../../platform/list-query.js';
import type { AppContext } from '../../platform/context.js';
import { requireUser } from '../../platform/authz.js';
import { badInput, notFound } from '../../platform/errors.js';
import { checkPage } from '../../platform/pagination.js';
import { record } from '../../platform/events/outbox.js';
import { checkId, checkSearchText, parseInput, v } from '../../platform/validation.js';
import { expectVersion, flushSave } from '../../platform/versioning.js';
import { MASTER_DATA_ROLES, STATUS_LABEL, type EmployeeStatus } from '../employees/employee.enums.js';
import type { NamedRef } from '../employees/employee.types.js';
import { Department } from './department.entity.js';
import type { DepartmentPage, DepartmentView, EmployeeRef } from './department.types.js';

export interface DepartmentWrite {
  name?: unknown;
  managerId?: unknown;
  memberIds?: unknown;
  version?: unknown;
}

const memberIds = v
  .ids('メンバーは社員IDの一覧で指定してください。')
  .max(5000)
  .transform((ids) => [...new Set(ids)]);
const createSchema = z.object({ name: v.text('部署名', 100), managerId: v.optionalId('責任者'), memberIds });
const updateSchema = createSchema.extend({ version: v.version() });
const UNIQUE = { department_name_key: { field: 'name', message: 'この部署名はすでに登録されています。' } };

interface DeptRow {
  id: number;
  name: string;
  manager_id: number | null;
  created_at: Date;
  updated_at: Date;
  version: number;
  total?: string;
}
interface MemberRow {
  id: number;
  name: string;
  department_id: number | null;
  department_name: string | null;
  status: EmployeeStatus;
}

/**
 * Departments: everyone signed in reads them (filters and forms everywhere show them); only
 * 管理者 and システム管理者 create and edit. Membership is the employees' department.
 */
export class DepartmentService {
  async names(ctx: AppContext): Promise<NamedRef[]> {
    requireUser(ctx);
    return ctx.em.execute(`select id, name from department order by sort_order, id`);
  }

  async locations(ctx: AppContext): Promise<NamedRef[]> {
    requireUser(ctx);
    return ctx.em.execute(`select id, name from location order by sort_order, id`);
  }

  async list(
    ctx: AppContext,
    filter: { name?: string | null },
    offset?: unknown,
    limit?: unknown,
  ): Promise<DepartmentPage> {
    requireUser(ctx);
    const page = checkPage(offset, limit);
    checkSearchText(filter.name, 'name', '部署名');
    const name = filter.name?.trim();
    const where = name ? `where d.name ilike ?` : '';
    const params = name ? [containsPattern(name)] : [];
    const rows: DeptRow[] = await ctx.em.execute(
      `select d.id, d.name, d.manager_id, d.created_at, d.updated_at, d.version, count(*) over() as total
           from department d ${where} order by d.sort_order, d.id limit ? offset ?`,
      [...params, page.limit, page.offset],
    );
    const items = await this.views(ctx, rows);
    return { items, total: rows.length ? Number(rows[0].total) : 0, offset: page.offset, limit: page.limit };
  }

  async get(ctx: AppContext, id: number): Promise<DepartmentView> {
    requireUser(ctx);
    checkId(id, '部署');
    const rows: DeptRow[] = await ctx.em.execute(
      `select id, name, manager_id, created_at, updated_at, version from department where id = ?`,
      [id],
    );
    if (!rows[0]) throw notFound('部署');
    return (await this.views(ctx, rows))[0];
  }

  async create(ctx: AppContext, input: DepartmentWrite): Promise<DepartmentView> {
    const user = requireUser(ctx, MASTER_DATA_ROLES);
    const data = parseInput(createSchema, input);
    const id = await ctx.em.transactional(async (tx) => {
      await this.checkEmployees(ctx, data.managerId, data.memberIds);
      const [{ max }] = await tx.execute(`select coalesce(max(sort_order), 0) + 1 as max from department`);
      const d = tx.create(Department, {
        name: data.name,
        manager: data.managerId,
        sortOrder: Number(max),
        updatedById: user.id,
      });
      await flushSave(tx, null, async () => null, UNIQUE);
      const { moved, left } = await this.setMembers(tx, d.id, data.memberIds);
      record(tx, {
        type: 'department.created',
        aggregateId: d.id,
        actorId: user.id,
        payload: { department: snap(d, data.memberIds) },
      });
      this.recordMoves(tx, user.id, moved);
      await this.touchLosers(tx, user.id, left);
      await tx.flush();
      return d.id;
    });
    return this.get(ctx, id);
  }

  async update(ctx: AppContext, id: number, input: DepartmentWrite): Promise<DepartmentView> {
    const user = requireUser(ctx, MASTER_DATA_ROLES);
    checkId(id, '部署');
    const data = parseInput(updateSchema, input);
    await ctx.em.transactional(async (tx) => {
      const d = await tx.findOne(Department, id);
      if (!d) throw notFound('部署');
      const current = () => this.get(ctx, id);
      await expectVersion(tx, d, data.version, current, ctx.user?.id ?? null);
      await this.checkEmployees(ctx, data.managerId, data.memberIds);
      const beforeRows: { id: number }[] = await tx.execute(`select id from employee where department_id = ?`, [id]);
      const before = beforeRows.map((r) => r.id);
      const added = data.memberIds.filter((m) => !before.includes(m));
      const removed = before.filter((m) => !data.memberIds.includes(m));
      const changed = [
        ...(d.name !== data.name ? ['name'] : []),
        ...((d.manager?.id ?? null) !== data.managerId ? ['managerId'] : []),
        ...(added.length || removed.length ? ['memberIds'] : []),
      ];
      if (changed.length === 0) return;
      d.name = data.name;
      d.manager = data.managerId === null ? null : (tx.getReference('Employee', data.managerId) as never);
      d.updatedById = user.id;
      d.updatedAt = new Date(); // membership lives on employees: still a new version of the department
      await flushSave(tx, d, current, UNIQUE, ctx.user?.id ?? null);
      const { moved, left } = await this.setMembers(tx, id, data.memberIds);
      record(tx, {
        type: 'department.updated',
        aggregateId: id,
        actorId: user.id,
        payload: { department: snap(d, data.memberIds), changed, addedMemberIds: added, removedMemberIds: removed },
      });
      this.recordMoves(tx, user.id, moved);
      await this.touchLosers(tx, user.id, left);
      await tx.flush();
    });
    return this.get(ctx, id);
  }

  /** Makes `memberIds` exactly the members of the department; returns the employees whose department changed, and who left which other department. */
  private async setMembers(tx: AppContext['em'], id: number, memberIds: number[]) {
    const conn = tx;
    const removed: MovedRow[] = await conn.execute(
      `update employee set department_id = null, version = version + 1, updated_at = now()
        where department_id = ? and not (id = any(?::int[]))
        returning id, name, role, status, department_id, location_id, version`,
      [id, `{${memberIds.join(',')}}`],
    );
    // Members taken from another department: returned with the department they left.
    const added: (MovedRow & { from_department: number | null })[] = memberIds.length
      ? await conn.execute(
          `with prev as (select id, department_id as from_department from employee
                          where id = any(?::int[]) and department_id is distinct from ? order by id for update)
           update employee e set department_id = ?, version = e.version + 1, updated_at = now()
             from prev where e.id = prev.id
           returning e.id, e.name, e.role, e.status, e.department_id, e.location_id, e.version, prev.from_department`,
          [`{${memberIds.join(',')}}`, id, id],
        )
      : [];
    const left = new Map<number, number[]>();
    for (const a of added)
      if (a.from_department !== null) left.set(a.from_department, [...(left.get(a.from_department) ?? []), a.id]);
    return { moved: [...removed, ...added.map(({ from_department: _, ...m }) => m)], left };
  }

  /**
   * The departments that lost members to `id` changed too: a new version of each (so a save made
   * from an older view of one is a conflict, not a silent undo of the move) and its event.
   */
  private async touchLosers(tx: AppContext['em'], actorId: number, left: Map<number, number[]>) {
    if (left.size === 0) return;
    const ids = `{${[...left.keys()].join(',')}}`;
    const rows: { id: number; name: string; manager_id: number | null; version: number; member_ids: number[] }[] =
      await tx.execute(
        `update department d set version = d.version + 1, updated_at = now(), updated_by_id = ?
        where d.id = any(?::int[])
        returning d.id, d.name, d.manager_id, d.version,
          array(select e.id from employee e where e.department_id = d.id order by e.id) as member_ids`,
        [actorId, ids],
      );
    for (const r of rows) {
      record(tx, {
        type: 'department.updated',
        aggregateId: r.id,
        actorId,
        payload: {
          department: { id: r.id, name: r.name, managerId: r.manager_id, memberIds: r.member_ids, version: r.version },
          changed: ['memberIds'],
          addedMemberIds: [],
          removedMemberIds: left.get(r.id) ?? [],
        },
      });
    }
  }

  private recordMoves(tx: AppContext['em'], actorId: number, moved: MovedRow[]) {
    for (const m of moved) {
      record(tx, {
        type: 'employee.updated',
        aggregateId: m.id,
        actorId,
        payload: {
          employee: {
            id: m.id,
            name: m.name,
            role: m.role,
            status: m.status,
            departmentId: m.department_id,
            locationId: m.location_id,
            version: m.version,
          },
          changed: ['departmentId'],
        },
      });
    }
  }

  private async checkEmployees(ctx: AppContext, managerId: number | null, memberIds: number[]) {
    const ids = [...new Set([...(managerId ? [managerId] : []), ...memberIds])];
    if (!ids.length) return;
    const found: { id: number }[] = await ctx.em.execute(`select id from employee where id = any(?::int[])`, [
      `{${ids.join(',')}}`,
    ]);
    const missing = ids.filter((i) => !found.some((f) => f.id === i));
    if (missing.length) {
      throw badInput(`存在しない社員が含まれています（ID: ${missing.join(', ')}）。`, [
        {
          field: managerId && missing.includes(managerId) ? 'managerId' : 'memberIds',
          message: `存在しない社員ID: ${missing.join(', ')}`,
        },
      ]);
    }
  }

  /** Departments with their manager and members in two queries, whatever the page size. */
  private async views(ctx: AppContext, rows: DeptRow[]): Promise<DepartmentView[]> {
    if (!rows.length) return [];
    const ids = rows.map((r) => r.id);
    const managerIds = rows.map((r) => r.manager_id).filter((x): x is number => x !== null);
    const people: (MemberRow & { member_of: number | null })[] = await ctx.em.execute(
      `select e.id, e.name, e.department_id, d.name as department_name, e.status,
              case when e.department_id = any(?::int[]) then e.department_id end as member_of
         from employee e left join department d on d.id = e.department_id
        where e.department_id = any(?::int[]) or e.id = any(?::int[])
        order by e.id`,
      [`{${ids.join(',')}}`, `{${ids.join(',')}}`, `{${managerIds.join(',')}}`],
    );
    const ref = (m: MemberRow): EmployeeRef => ({
      id: m.id,
      name: m.name,
      departmentName: m.department_name,
      status: m.status,
      statusLabel: STATUS_LABEL[m.status],
    });
    const byId = new Map(people.map((p) => [p.id, p]));
    return rows.map((r) => {
      const members = people.filter((p) => p.member_of === r.id).map(ref);
      const manager = r.manager_id !== null ? byId.get(r.manager_id) : undefined;
      return {
        id: r.id,
        name: r.name,
        manager: manager ? ref(manager) : null,
        members,
        memberCount: members.length,
        createdAt: new Date(r.created_at),
        updatedAt: new Date(r.updated_at),
        version: r.version,
      };
    });
  }
}

interface MovedRow {
  id: number;
  name: string;
  role: 'ADMIN' | 'DEVICE_ADMIN' | 'SYSTEM_ADMIN' | 'GENERAL';
  status: 'ACTIVE' | 'RETIRED';
  department_id: number | null;
  location_id: number | null;
  version: number;
}

function snap(d: Department, memberIds: number[]) {
  return { id: d.id, name: d.name, managerId: d.manager?.id ?? null, memberIds, version: d.version };
}

/** The spec's `/api` shape of a department. */
export function toApiDepartment(d: DepartmentView) {
  return {
    department_id: d.id,
    department_name: d.name,
    manager: d.manager?.id ?? null,
    manager_name: d.manager?.name ?? null,
    members: d.members.map((m) => m.id),
    member_details: d.members,
    ins_dt: d.createdAt.toISOString(),
    upd_dt: d.updatedAt.toISOString(),
    version: d.version,
  };
}
