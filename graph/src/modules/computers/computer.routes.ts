import type { Router } from 'express';
import type { ComputerView } from './computer.types.js';
import { queryId } from '../../platform/validation.js';
import { bodyTable } from '../../platform/rest.js';
import { HELD_BODY, heldFilterFromQuery, idOrNull, mountKind, toApiHeld } from '../devices/device.routes.js';
import { DeviceKind } from '../devices/device.enums.js';

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

/** GET/POST /computers, GET /computers/export, GET /computers/{id}/history, GET/PUT /computers/{id}. */
export function computerRoutes(r: Router): void {
  mountKind(r, {
    path: '/computers',
    history: DeviceKind.COMPUTER,
    read: (ctx) => ctx.services.devices.computers,
    write: (ctx) => ctx.services.devices.computerAdmin,
    toApi: toApiComputer,
    filter: async (ctx, q) => ({
      ...(await heldFilterFromQuery(ctx, q)),
      maker: typeof q.maker === 'string' ? q.maker : undefined,
      officeAccountId: queryId(q.ms365, 'ms365'),
    }),
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
  });
}
