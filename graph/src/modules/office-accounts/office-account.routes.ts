import type { Router } from 'express';
import { bodyTable } from '../../platform/rest.js';
import { OFFICE_STATUS_LABEL, codeOf } from '../devices/device.enums.js';
import { idOrNull, mountKind, statusFilter } from '../devices/device.routes.js';
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

/** GET/POST /microsoft_office, GET /microsoft_office/export, GET/PUT /microsoft_office/{id}. */
export function officeAccountRoutes(r: Router): void {
  mountKind(r, {
    path: '/microsoft_office',
    read: (ctx) => ctx.services.devices.officeAccounts,
    write: (ctx) => ctx.services.devices.officeAccountAdmin,
    toApi: toApiOfficeAccount,
    filter: async (_ctx, q) => ({
      account: typeof q.account === 'string' ? q.account : undefined,
      status: statusFilter(OFFICE_STATUS_LABEL, q.status),
    }),
    body: bodyTable({
      account: 'account',
      status: { from: 'status', read: (v) => codeOf(OFFICE_STATUS_LABEL, v) },
      version: { from: 'version', read: (v) => idOrNull(v) ?? undefined },
    }),
  });
}
