import type { Request, Router } from 'express';
import type { AppContext } from '../../platform/context.js';
import { bodyTable, handle, writeRoute, type RestResource } from '../../platform/rest.js';
import { OFFICE_STATUS_LABEL } from '../devices/device.enums.js';
import { apiFields, bodyFields, queryFilters } from '../devices/device.record.js';
import { exportRoute, listRoute } from '../../platform/rest-routes.js';
import { deviceGuard, statusFilter } from '../devices/device.routes.js';
import { OFFICE_ACCOUNT_FIELDS } from './office-account.fields.js';
import type { OfficeAccountView } from './office-account.types.js';

const ownFields = apiFields(OFFICE_ACCOUNT_FIELDS);

/** The spec's Office account: usage_count is counted, usage_status is the row colour ('blue' / 'red' / null). */
export function toApiOfficeAccount(a: OfficeAccountView) {
  return {
    id: a.id,
    ...ownFields(a),
    usage_count: a.usageCount,
    usage_status: a.rowColor ? a.rowColor.toLowerCase() : null,
    usage_status_reason: a.rowColorReason,
    version: a.version,
    upd_dt: a.updatedAt.toISOString(),
  };
}

/** The list and export filters of `/microsoft_office` (query parameters). */
async function filterOf(_ctx: AppContext, q: Request['query']) {
  return {
    ...queryFilters(q, OFFICE_ACCOUNT_FIELDS),
    status: statusFilter(OFFICE_STATUS_LABEL, q.status),
  };
}

const officeAccount: RestResource<OfficeAccountView> = {
  toApi: toApiOfficeAccount,
  guard: deviceGuard,
  body: bodyTable(bodyFields(OFFICE_ACCOUNT_FIELDS)),
};

const read = (ctx: AppContext) => ctx.services.officeAccounts.read;
const write = (ctx: AppContext) => ctx.services.officeAccounts.write;

export function officeAccountRoutes(r: Router): void {
  r.get(
    '/microsoft_office',
    listRoute(
      deviceGuard,
      filterOf,
      (ctx, f, offset, limit) => read(ctx).list(ctx, f, offset, limit),
      toApiOfficeAccount,
    ),
  );
  r.post(
    '/microsoft_office',
    writeRoute(officeAccount, (ctx, input) => write(ctx).create(ctx, input), 201),
  );
  r.get(
    '/microsoft_office/export',
    exportRoute(deviceGuard, filterOf, (ctx, f) => read(ctx).export(ctx, f)),
  );
  r.get(
    '/microsoft_office/:id',
    handle(async (ctx, req) => toApiOfficeAccount(await read(ctx).get(ctx, Number(req.params.id)))),
  );
  r.put(
    '/microsoft_office/:id',
    writeRoute(officeAccount, (ctx, input, req) => write(ctx).update(ctx, Number(req.params.id), input)),
  );
}
