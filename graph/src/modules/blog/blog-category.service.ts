import type { EntityManager } from '@mikro-orm/postgresql';
import type { BlogCategorySnapshot } from '@intranet/schema/events/blog.events';
import type { AppContext } from '../../platform/context.js';
import type { CurrentUser } from '../auth/session.service.js';
import { requireUser } from '../../platform/authz.js';
import { badInput, notFound } from '../../platform/errors.js';
import { record } from '../../platform/events/outbox.js';
import { pgArray } from '../../platform/sql.js';
import { checkId, parseInput } from '../../platform/validation.js';
import { expectVersion, flushSave } from '../../platform/versioning.js';
import type { NamedRef } from '../employees/employee.types.js';
import { BLOG_ADMIN_ROLES, BlogCategoryPermission, PERMISSION_LABEL, isBlogAdmin } from './blog.enums.js';
import { blogInput } from './blog.errors.js';
import { BlogCategory } from './blog-category.entity.js';
import { categoryCreateSchema, categoryUpdateSchema, type CategoryData } from './blog-category.fields.js';
import type { BlogCategoryView } from './blog-category.types.js';

const UNIQUE = { blog_category_name_key: { field: 'name', message: 'このカテゴリ名はすでに登録されています。' } };

interface CategoryRow {
  id: number;
  name: string;
  color: string;
  members_may_post: boolean;
  created_at: Date;
  updated_at: Date;
  version: number;
}
interface MemberRow extends NamedRef {
  category_id: number;
}

/** The categories an employee belongs to: named one by one, or through their department as it is now. */
const MEMBER_OF = `select ce.category_id from blog_category_employee ce where ce.employee_id = ?
                   union
                   select cd.category_id from blog_category_department cd join employee e on e.department_id = cd.department_id where e.id = ?`;

/** Whether employee `e` is a member of category `?` (named, or through their current department); binds the category twice. */
export const IN_CATEGORY = `(e.id in (select employee_id from blog_category_employee where category_id = ?)
       or e.department_id in (select department_id from blog_category_department where category_id = ?))`;

/** What the post rules need to know of the viewer and categories (read once per request). */
export interface CategoryAccess {
  /** The categories whose posts the viewer may read (member of). */
  readable: number[];
  /** The categories the viewer may post in: members of 書き込み ones; 管理者/システム管理者 every one. */
  postable: Set<number>;
}

/**
 * Blog categories. Everyone reads the categories they belong to; 管理者 and システム管理者 read
 * every one and are the only ones to create and edit them. A category's members are the employees
 * named in it and the current members of the departments named in it.
 */
export class BlogCategoryService {
  async access(em: EntityManager, user: CurrentUser): Promise<CategoryAccess> {
    const rows: { id: number; members_may_post: boolean; member: boolean }[] = await em.execute(
      `select c.id, c.members_may_post, c.id in (${MEMBER_OF}) as member from blog_category c`,
      [user.id, user.id],
    );
    const admin = isBlogAdmin(user.role);
    return {
      readable: rows.filter((r) => r.member).map((r) => r.id),
      postable: new Set(rows.filter((r) => admin || (r.member && r.members_may_post)).map((r) => r.id)),
    };
  }

  async list(ctx: AppContext): Promise<BlogCategoryView[]> {
    const user = requireUser(ctx);
    const rows: CategoryRow[] = isBlogAdmin(user.role)
      ? await ctx.em.execute(`select * from blog_category order by id`)
      : await ctx.em.execute(`select * from blog_category where id in (${MEMBER_OF}) order by id`, [user.id, user.id]);
    return this.views(ctx, user, rows);
  }

  /** One category: any for 管理者/システム管理者; for others only one they belong to (else NOT_FOUND: its existence stays private). */
  async get(ctx: AppContext, id: number): Promise<BlogCategoryView> {
    const user = requireUser(ctx);
    checkId(id, 'カテゴリ');
    const rows: CategoryRow[] = isBlogAdmin(user.role)
      ? await ctx.em.execute(`select * from blog_category where id = ?`, [id])
      : await ctx.em.execute(`select * from blog_category where id = ? and id in (${MEMBER_OF})`, [
          id,
          user.id,
          user.id,
        ]);
    if (!rows[0]) throw notFound('カテゴリ');
    return (await this.views(ctx, user, rows))[0]!;
  }

  async create(ctx: AppContext, input: unknown): Promise<BlogCategoryView> {
    const user = requireUser(ctx, BLOG_ADMIN_ROLES);
    const data = parseInput(categoryCreateSchema, input);
    const id = await ctx.em.transactional(async (tx) => {
      await this.checkMembers(tx, data);
      const c = tx.create(BlogCategory, {
        name: data.name,
        color: data.color,
        membersMayPost: membersMayPost(data),
        updatedById: user.id,
      });
      await flushSave(tx, null, async () => null, UNIQUE);
      await this.setMembers(tx, c.id, data);
      record(tx, {
        type: 'blog.category.created',
        aggregateId: c.id,
        actorId: user.id,
        payload: { category: snapshot(c, data) },
      });
      return c.id;
    });
    return this.get(ctx, id);
  }

  async update(ctx: AppContext, id: number, input: unknown): Promise<BlogCategoryView> {
    const user = requireUser(ctx, BLOG_ADMIN_ROLES);
    checkId(id, 'カテゴリ');
    const data = parseInput(categoryUpdateSchema, input);
    await ctx.em.transactional(async (tx) => {
      const c = await tx.findOne(BlogCategory, id);
      if (!c) throw notFound('カテゴリ');
      const current = () => this.get(ctx, id);
      await expectVersion(tx, c, data.version, current, ctx.user?.id ?? null);
      await this.checkMembers(tx, data);
      const previous = snapshot(c, await this.members(tx, id));
      const next = {
        ...previous,
        name: data.name,
        color: data.color,
        membersMayPost: membersMayPost(data),
        employeeIds: data.employeeIds,
        departmentIds: data.departmentIds,
      };
      const changed = (Object.keys(next) as (keyof BlogCategorySnapshot)[]).filter(
        (k) => k !== 'version' && JSON.stringify(sorted(next[k])) !== JSON.stringify(sorted(previous[k])),
      );
      if (changed.length === 0) return; // a save that changes nothing is not a new version
      c.name = data.name;
      c.color = data.color;
      c.membersMayPost = next.membersMayPost;
      c.updatedById = user.id;
      c.updatedAt = new Date(); // membership lives beside the entity: still a new version of the category
      await flushSave(tx, c, current, UNIQUE, ctx.user?.id ?? null);
      await this.setMembers(tx, id, data);
      record(tx, {
        type: 'blog.category.updated',
        aggregateId: id,
        actorId: user.id,
        payload: { category: { ...next, version: c.version }, previous, changed },
      });
    });
    return this.get(ctx, id);
  }

  private async members(tx: EntityManager, id: number): Promise<Pick<CategoryData, 'employeeIds' | 'departmentIds'>> {
    const [row]: { employee_ids: number[]; department_ids: number[] }[] = await tx.execute(
      `select array(select employee_id from blog_category_employee where category_id = ? order by employee_id) as employee_ids,
              array(select department_id from blog_category_department where category_id = ? order by department_id) as department_ids`,
      [id, id],
    );
    return { employeeIds: row!.employee_ids, departmentIds: row!.department_ids };
  }

  /** The category's members become exactly the given employees and departments. */
  private async setMembers(tx: EntityManager, id: number, data: Pick<CategoryData, 'employeeIds' | 'departmentIds'>) {
    const employees = pgArray(data.employeeIds);
    const departments = pgArray(data.departmentIds);
    await tx.execute(`delete from blog_category_employee where category_id = ? and not (employee_id = any(?::int[]))`, [
      id,
      employees,
    ]);
    await tx.execute(
      `insert into blog_category_employee (category_id, employee_id) select ?, unnest(?::int[]) on conflict do nothing`,
      [id, employees],
    );
    await tx.execute(
      `delete from blog_category_department where category_id = ? and not (department_id = any(?::int[]))`,
      [id, departments],
    );
    await tx.execute(
      `insert into blog_category_department (category_id, department_id) select ?, unnest(?::int[]) on conflict do nothing`,
      [id, departments],
    );
  }

  private async checkMembers(tx: EntityManager, data: Pick<CategoryData, 'employeeIds' | 'departmentIds'>) {
    const [row]: { employees: number[]; departments: number[] }[] = await tx.execute(
      `select array(select x from unnest(?::int[]) x where not exists (select 1 from employee e where e.id = x)) as employees,
              array(select x from unnest(?::int[]) x where not exists (select 1 from department d where d.id = x)) as departments`,
      [pgArray(data.employeeIds), pgArray(data.departmentIds)],
    );
    const errors = [];
    if (row!.employees.length)
      errors.push({ field: 'employeeIds', message: `存在しない社員ID: ${row!.employees.join(', ')}` });
    if (row!.departments.length)
      errors.push({ field: 'departmentIds', message: `存在しない部署ID: ${row!.departments.join(', ')}` });
    if (errors.length) throw badInput(`存在しない${row!.employees.length ? '社員' : '部署'}が含まれています。`, errors);
  }

  /** The categories with their members in two queries, whatever their number. */
  private async views(ctx: AppContext, user: CurrentUser, rows: CategoryRow[]): Promise<BlogCategoryView[]> {
    if (!rows.length) return [];
    const ids = pgArray(rows.map((r) => r.id));
    const people: MemberRow[] = await ctx.em.execute(
      `select ce.category_id, e.id, e.name from blog_category_employee ce join employee e on e.id = ce.employee_id
        where ce.category_id = any(?::int[]) order by e.id`,
      [ids],
    );
    const departments: MemberRow[] = await ctx.em.execute(
      `select cd.category_id, d.id, d.name from blog_category_department cd join department d on d.id = cd.department_id
        where cd.category_id = any(?::int[]) order by d.sort_order, d.id`,
      [ids],
    );
    const access = await this.access(ctx.em, user);
    const ref = (m: MemberRow): NamedRef => ({ id: m.id, name: m.name });
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      color: r.color,
      permissions: r.members_may_post
        ? [BlogCategoryPermission.WRITE, BlogCategoryPermission.READ]
        : [BlogCategoryPermission.READ],
      canPost: access.postable.has(r.id),
      isMember: access.readable.includes(r.id),
      employees: people.filter((p) => p.category_id === r.id).map(ref),
      departments: departments.filter((d) => d.category_id === r.id).map(ref),
      createdAt: new Date(r.created_at),
      updatedAt: new Date(r.updated_at),
      version: r.version,
    }));
  }

  /**
   * The category a post goes in, as its author may use it: one they can see (CATEGORY_UNKNOWN
   * otherwise, whether it exists or not: a category one is not in stays unknown) and may post in
   * (CATEGORY_NOT_POSTABLE: a 閲覧-only category for a member who is not 管理者/システム管理者).
   */
  checkPostable(access: CategoryAccess, categoryId: number): void {
    if (access.postable.has(categoryId)) return;
    if (!access.readable.includes(categoryId))
      throw blogInput('CATEGORY_UNKNOWN', '選択したカテゴリは存在しません。', 'categoryId');
    throw blogInput(
      'CATEGORY_NOT_POSTABLE',
      'このカテゴリには投稿できません（閲覧のみのカテゴリです）。',
      'categoryId',
    );
  }
}

const membersMayPost = (d: Pick<CategoryData, 'permissions'>) => d.permissions.includes(BlogCategoryPermission.WRITE);

const sorted = (v: unknown) => (Array.isArray(v) ? [...v].sort((a, b) => a - b) : v);

function snapshot(c: BlogCategory, m: Pick<CategoryData, 'employeeIds' | 'departmentIds'>): BlogCategorySnapshot {
  return {
    id: c.id,
    name: c.name,
    color: c.color,
    membersMayPost: c.membersMayPost,
    employeeIds: [...m.employeeIds].sort((a, b) => a - b),
    departmentIds: [...m.departmentIds].sort((a, b) => a - b),
    version: c.version,
  };
}

/** The spec's `/api` shape of a category. */
export function toApiCategory(c: BlogCategoryView) {
  return {
    category_id: c.id,
    blog_category_id: c.id,
    category_name: c.name,
    color: c.color,
    permissions: c.permissions.map((p) => PERMISSION_LABEL[p]),
    employees: c.employees.map((e) => e.id),
    employee_details: c.employees,
    departments: c.departments.map((d) => d.id),
    department_details: c.departments,
    can_post: c.canPost,
    is_member: c.isMember,
    ins_dt: c.createdAt.toISOString(),
    upd_dt: c.updatedAt.toISOString(),
    version: c.version,
  };
}
