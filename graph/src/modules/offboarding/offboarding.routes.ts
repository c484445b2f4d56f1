import type { Router } from 'express';
import { handle } from '../../platform/rest.js';
import { toApiComputer } from '../computers/computer.routes.js';
import { toApiOfficeAccount } from '../office-accounts/office-account.routes.js';
import type { EmployeeDevices } from './offboarding.types.js';
import { toApiSmartphone } from '../smartphones/smartphone.routes.js';

function toApi(d: EmployeeDevices) {
  return {
    employee: { id: d.employee.id, name: d.employee.name, status: d.employee.statusLabel },
    computers: d.computers.map(toApiComputer),
    smartphones: d.smartphones.map(toApiSmartphone),
    microsoft_office: d.officeAccounts.map(toApiOfficeAccount),
  };
}

/** GET /employees/{id}/devices (what they hold) and POST /employees/{id}/return_devices (hand it all back). */
export function offboardingRoutes(r: Router): void {
  r.get(
    '/employees/:id/devices',
    handle(async (ctx, req) => toApi(await ctx.services.offboarding.holdings(ctx, Number(req.params.id)))),
  );
  r.post(
    '/employees/:id/return_devices',
    handle(async (ctx, req) => toApi(await ctx.services.offboarding.returnAll(ctx, Number(req.params.id)))),
  );
}
