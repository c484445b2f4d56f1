import type { Router } from 'express';
import { bodyTable, handle, writeRoute, type RestResource } from '../../platform/rest.js';
import type { EmployeeView } from './employee.types.js';
import { roleFromLabel, statusFromLabel } from './employee.enums.js';
import { toApiEmployee } from './employee.service.js';
import { queryBool } from '../../platform/validation.js';
import { namedId, queryRef } from '../departments/named-ref.js';

/** A Japanese label as its code (an unknown one is left for validation to refuse). */
const label = (f: (s: string) => string | undefined) => (v: unknown) => (typeof v === 'string' ? (f(v) ?? v) : v);

/** The spec's body (snake_case, Japanese labels, location by name or id) → the service's input (EmployeeWrite). */
export const employee: RestResource<EmployeeView> = {
  toApi: toApiEmployee,
  body: bodyTable({
    name: { from: ['name', 'full_name'] },
    email: 'email',
    loginId: 'login_id',
    password: 'password',
    role: { from: 'role', read: label(roleFromLabel) },
    status: { from: 'status', read: label(statusFromLabel) },
    locationId: { from: ['location_id', 'location'], read: (_v, b, ctx) => namedId(ctx, 'location', b) },
    version: 'version',
  }),
};

export function employeeRoutes(r: Router): void {
  r.post(
    '/employees',
    writeRoute(employee, (ctx, input) => ctx.services.employeeAdmin.create(ctx, input), 201),
  );
  r.put(
    '/employees/:id',
    writeRoute(employee, (ctx, input, req) => ctx.services.employeeAdmin.update(ctx, Number(req.params.id), input)),
  );
  /** The directory: a page of employees as an array; the total is in X-Total-Count. */
  r.get(
    '/employees',
    handle(async (ctx, req, res) => {
      const q = req.query;
      const page = await ctx.services.employees.list(
        ctx,
        {
          name: typeof q.name === 'string' ? q.name : undefined,
          departmentId: await queryRef(ctx, 'department', q as Record<string, unknown>),
          includeRetired: (queryBool(q.retired, 'retired') ?? queryBool(q.include_retired, 'include_retired')) === true,
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
