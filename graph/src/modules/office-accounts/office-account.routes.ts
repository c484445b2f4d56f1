import type { Request, Router } from 'express';
import type { AppContext } from '../../platform/context.js';
import { bodyTable, handle, writeRoute, type RestResource } from '../../platform/rest.js';
import { idOrNull } from '../departments/named-ref.js';
import { OFFICE_STATUS_LABEL, codeOf } from '../devices/device.enums.js';
import { deviceGuard, exportRoute, listRoute, statusFilter } from '../devices/device.routes.js';
import type { OfficeAccountView } from './office-account.types.js';

/** The spec's Office account: usage_count is counted, usage_status is the row colour ('blue' / 'red' / null). */
export function toApiOfficeAccount(a: OfficeAccountView) {
  return {
    id: a.id,
    account: a.account,
    status: a.statusLabel,
    status_code: a.status,
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
    account: typeof q.account === 'string' ? q.account : undefined,
    status: statusFilter(OFFICE_STATUS_LABEL, q.status),
  };
}

const officeAccount: RestResource<OfficeAccountView> = {
  toApi: toApiOfficeAccount,
  guard: deviceGuard,
  body: bodyTable({
    account: 'account',
    status: { from: 'status', read: (v) => codeOf(OFFICE_STATUS_LABEL, v) },
    version: { from: 'version', read: (v) => idOrNull(v) ?? undefined },
  }),
};

const read = (ctx: AppContext) => ctx.services.devices.officeAccounts;
const write = (ctx: AppContext) => ctx.services.devices.officeAccountAdmin;

export function officeAccountRoutes(r: Router): void {
  r.get('/microsoft_office', listRoute(filterOf, (ctx, f, offset, limit) => read(ctx).list(ctx, f, offset, limit), toApiOfficeAccount));
  r.post('/microsoft_office', writeRoute(officeAccount, (ctx, input) => write(ctx).create(ctx, input), 201));
  r.get('/microsoft_office/export', exportRoute(filterOf, (ctx, f) => read(ctx).export(ctx, f)));
  r.get('/microsoft_office/:id', handle(async (ctx, req) => toApiOfficeAccount(await read(ctx).get(ctx, Number(req.params.id)))));
  r.put('/microsoft_office/:id', writeRoute(officeAccount, (ctx, input, req) => write(ctx).update(ctx, Number(req.params.id), input)));
}
