import type { Router } from 'express';
import { handle } from '../../platform/rest.js';
import { badInput } from '../../platform/errors.js';
import { toApiEmployee } from './employee.service.js';

const truthy = (v: unknown) => v === 'true' || v === '1' || v === 'on';

function intParam(v: unknown, field: string): number | undefined {
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw badInput(`${field} が正しくありません。`, [{ field, message: '正の整数' }]);
  return n;
}

export function employeeRoutes(r: Router): void {
  /** The directory: a page of employees as an array; the total is in X-Total-Count. */
  r.get(
    '/employees',
    handle(async (ctx, req, res) => {
      const q = req.query;
      const page = await ctx.services.employees.list(
        ctx,
        {
          name: typeof q.name === 'string' ? q.name : undefined,
          departmentId: intParam(q.department_id, 'department_id'),
          includeRetired: truthy(q.retired) || truthy(q.include_retired),
        },
        q.offset,
        q.limit,
      );
      res.setHeader('X-Total-Count', String(page.total));
      return page.items.map(toApiEmployee);
    }),
  );
  r.get(
    '/employees/:id',
    handle(async (ctx, req) => toApiEmployee(await ctx.services.employees.get(ctx, Number(req.params.id)))),
  );
}
