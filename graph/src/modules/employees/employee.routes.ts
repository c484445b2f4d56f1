import type { Router } from 'express';
import { handle } from '../../platform/rest.js';
import { badInput } from '../../platform/errors.js';
import type { AppContext } from '../../platform/context.js';
import type { EmployeeWrite } from './employee.admin.js';
import { roleFromLabel, statusFromLabel } from './employee.enums.js';
import { toApiEmployee } from './employee.service.js';
import { queryBool, queryId } from '../../platform/validation.js';


/** The spec's body (snake_case, Japanese labels, location by name or id) → the service's input. */
async function fromApiBody(ctx: AppContext, b: Record<string, unknown>): Promise<EmployeeWrite> {
  let locationId = b.location_id ?? undefined;
  if (locationId === undefined && typeof b.location === 'string' && b.location.trim()) {
    const match = (await ctx.services.departments.locations(ctx)).find((l) => l.name === (b.location as string).trim());
    if (!match) throw badInput('拠点が見つかりません。', [{ field: 'location', message: `「${b.location}」という拠点はありません` }]);
    locationId = match.id;
  }
  const label = (v: unknown, f: (s: string) => string | undefined) => (typeof v === 'string' ? (f(v) ?? v) : v);
  return {
    name: b.name ?? b.full_name,
    email: b.email,
    loginId: b.login_id,
    password: b.password,
    role: label(b.role, roleFromLabel),
    status: label(b.status, statusFromLabel),
    locationId: locationId ?? null,
    version: b.version,
  };
}

export function employeeRoutes(r: Router): void {
  r.post(
    '/employees',
    handle(async (ctx, req) => toApiEmployee(await ctx.services.employeeAdmin.create(ctx, await fromApiBody(ctx, req.body ?? {}))), 201),
  );
  r.put(
    '/employees/:id',
    handle(async (ctx, req) => toApiEmployee(await ctx.services.employeeAdmin.update(ctx, Number(req.params.id), await fromApiBody(ctx, req.body ?? {})))),
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
          departmentId: queryId(q.department_id, 'department_id'),
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
