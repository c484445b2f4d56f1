import type { Router } from 'express';
import { handle } from '../../platform/rest.js';
import { badInput } from '../../platform/errors.js';
import { toApiDepartment, type DepartmentWrite } from './department.service.js';

/** `members` may arrive as a list of ids or as JSON text of one (the old client sent both). */
function memberList(v: unknown): unknown {
  if (typeof v !== 'string') return v ?? [];
  if (v.trim() === '') return [];
  try {
    return JSON.parse(v);
  } catch {
    throw badInput('メンバーの形式が正しくありません。', [{ field: 'members', message: '社員IDの配列（またはそのJSON文字列）' }]);
  }
}

const fromApiBody = (b: Record<string, unknown>): DepartmentWrite => ({
  name: b.department_name ?? b.name,
  managerId: b.manager === '' ? null : (b.manager ?? null),
  memberIds: memberList(b.members),
  version: b.version,
});

export function departmentRoutes(r: Router): void {
  r.get(
    '/departments',
    handle(async (ctx, req, res) => {
      const page = await ctx.services.departments.list(ctx, { name: typeof req.query.name === 'string' ? req.query.name : undefined }, req.query.offset, req.query.limit);
      res.setHeader('X-Total-Count', String(page.total));
      return page.items.map(toApiDepartment);
    }),
  );
  r.get('/departments/:id', handle(async (ctx, req) => toApiDepartment(await ctx.services.departments.get(ctx, Number(req.params.id)))));
  r.post('/departments', handle(async (ctx, req) => toApiDepartment(await ctx.services.departments.create(ctx, fromApiBody(req.body ?? {}))), 201));
  r.put(
    '/departments/:id',
    handle(async (ctx, req) => toApiDepartment(await ctx.services.departments.update(ctx, Number(req.params.id), fromApiBody(req.body ?? {})))),
  );
}
