import type { Request, Router } from 'express';
import type { AppContext } from '../../platform/context.js';
import { bodyTable, handle, writeRoute, type RestResource } from '../../platform/rest.js';
import { queryId } from '../../platform/validation.js';
import { idOrNull } from '../departments/named-ref.js';
import { DeviceKind } from '../devices/device.enums.js';
import { deviceGuard, exportRoute, HELD_BODY, heldFilterFromQuery, historyExportRoute, historyRoute, listRoute, toApiHeld } from '../devices/device.routes.js';
import type { ComputerView } from './computer.types.js';

/** The spec's computer record (snake_case; status and location/department as Japanese names, ids beside them). */
export function toApiComputer(c: ComputerView) {
  return {
    ...toApiHeld(c),
    asset_number: c.assetNumber,
    maker: c.maker,
    device_type: c.deviceType,
    model: c.model,
    reason: c.reason,
    purchase_date: c.purchaseDate,
    introduction_date: c.introductionDate,
    ms365: c.officeAccount?.id ?? null,
    ms365_account: c.officeAccount?.account ?? null,
    pin_code: c.pinCode,
    pass: c.pass,
    ac_adapter: c.acAdapter,
    power_cable: c.powerCable,
  };
}

/** The list and export filters of `/computers` (query parameters). */
async function filterOf(ctx: AppContext, q: Request['query']) {
  return {
    ...(await heldFilterFromQuery(ctx, q)),
    maker: typeof q.maker === 'string' ? q.maker : undefined,
    officeAccountId: queryId(q.ms365, 'ms365'),
  };
}

const computer: RestResource<ComputerView> = {
  toApi: toApiComputer,
  guard: deviceGuard,
  body: bodyTable({
    ...HELD_BODY,
    assetNumber: 'asset_number',
    maker: 'maker',
    deviceType: 'device_type',
    model: 'model',
    reason: 'reason',
    purchaseDate: 'purchase_date',
    introductionDate: 'introduction_date',
    officeAccountId: { from: 'ms365', read: idOrNull },
    pinCode: 'pin_code',
    pass: 'pass',
    acAdapter: 'ac_adapter',
    powerCable: 'power_cable',
  }),
};

const read = (ctx: AppContext) => ctx.services.devices.computers;
const write = (ctx: AppContext) => ctx.services.devices.computerAdmin;

export function computerRoutes(r: Router): void {
  r.get('/computers', listRoute(filterOf, (ctx, f, offset, limit) => read(ctx).list(ctx, f, offset, limit), toApiComputer));
  r.post('/computers', writeRoute(computer, (ctx, input) => write(ctx).create(ctx, input), 201));
  r.get('/computers/export', exportRoute(filterOf, (ctx, f) => read(ctx).export(ctx, f)));
  r.get('/computers/:id/history', historyRoute(DeviceKind.COMPUTER));
  r.get('/computers/:id/history/export', historyExportRoute(DeviceKind.COMPUTER));
  r.get('/computers/:id', handle(async (ctx, req) => toApiComputer(await read(ctx).get(ctx, Number(req.params.id)))));
  r.put('/computers/:id', writeRoute(computer, (ctx, input, req) => write(ctx).update(ctx, Number(req.params.id), input)));
}
