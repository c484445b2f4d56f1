import type { Router } from 'express';
import type { ComputerView } from './computer.types.js';
import { queryId } from '../../platform/validation.js';
import { heldBodyFromApi, heldFilterFromQuery, idOrNull, mountKind, toApiHeld } from './device.routes.js';
import { DeviceKind } from './device.enums.js';

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
    body: async (ctx, b) => ({
      ...(await heldBodyFromApi(ctx, b)),
      assetNumber: b.asset_number,
      maker: b.maker,
      deviceType: b.device_type,
      model: b.model,
      reason: b.reason,
      purchaseDate: b.purchase_date,
      introductionDate: b.introduction_date,
      officeAccountId: idOrNull(b.ms365),
      pinCode: b.pin_code,
      pass: b.pass,
      acAdapter: b.ac_adapter,
      powerCable: b.power_cable,
    }),
  });
}
