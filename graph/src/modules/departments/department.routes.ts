import type { Router } from 'express';
import { bodyTable, handle, writeRoute, type RestResource } from '../../platform/rest.js';
import { badInput } from '../../platform/errors.js';
import { toApiDepartment } from './department.service.js';
import type { DepartmentView } from './department.types.js';

/** `members` may arrive as a list of ids or as JSON text of one (the old client sent both). */
function memberList(v: unknown): unknown {
  if (typeof v !== 'string') return v ?? [];
  if (v.trim() === '') return [];
  try {
    return JSON.parse(v);
  } catch {
    throw badInput('メンバーの形式が正しくありません。', [
      { field: 'members', message: '社員IDの配列（またはそのJSON文字列）' },
    ]);
  }
}

/** The spec's body → the service's input (DepartmentWrite). */
export const department: RestResource<DepartmentView> = {
  toApi: toApiDepartment,
  body: bodyTable({
    name: { from: ['department_name', 'name'] },
    managerId: { from: 'manager', read: (v) => (v === '' ? null : (v ?? null)) },
    memberIds: { from: 'members', read: memberList },
    version: 'version',
  }),
};

export function departmentRoutes(r: Router): void {
  r.get(
    '/departments',
    handle(async (ctx, req, res) => {
      const page = await ctx.services.departments.list(
        ctx,
        { name: typeof req.query.name === 'string' ? req.query.name : undefined },
        req.query.offset,
        req.query.limit,
      );
      res.setHeader('X-Total-Count', String(page.total));
      return page.items.map(toApiDepartment);
    }),
  );
  r.get(
    '/departments/:id',
    handle(async (ctx, req) => toApiDepartment(await ctx.services.departments.get(ctx, Number(req.params.id)))),
  );
  r.post(
    '/departments',
    writeRoute(department, (ctx, input) => ctx.services.departments.create(ctx, input), 201),
  );
  r.put(
    '/departments/:id',
    writeRoute(department, (ctx, input, req) => ctx.services.departments.update(ctx, Number(req.params.id), input)),
  );
}
