import type { AppContext } from '../../platform/context.js';
import { requireUser } from '../../platform/authz.js';
import type { NamedRef } from '../employees/employee.types.js';

/** Reference lists for filters and forms. Writes come with the master-data issue. */
export class DepartmentService {
  async names(ctx: AppContext): Promise<NamedRef[]> {
    requireUser(ctx);
    return ctx.em.getConnection().execute(`select id, name from department order by sort_order, id`);
  }

  async locations(ctx: AppContext): Promise<NamedRef[]> {
    requireUser(ctx);
    return ctx.em.getConnection().execute(`select id, name from location order by sort_order, id`);
  }
}
