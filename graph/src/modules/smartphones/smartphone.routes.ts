import type { Router } from 'express';
import { DeviceKind } from '../devices/device.enums.js';
import { bodyTable } from '../../platform/rest.js';
import { HELD_BODY, heldFilterFromQuery, idOrNull, mountKind, toApiHeld } from '../devices/device.routes.js';
import type { SmartphoneView } from './smartphone.types.js';

/** The spec's smartphone record (snake_case; status and location/department as Japanese names, ids beside them). */
export function toApiSmartphone(s: SmartphoneView) {
  return {
    ...toApiHeld(s),
    phone_number: s.phoneNumber,
    carrier: s.carrier,
    os: s.os,
    price: s.price,
    exchange_date: s.exchangeDate,
    pin_pw: s.pinPw,
  };
}

/** GET/POST /smartphone, GET /smartphone/export, GET /smartphone/{id}/history, GET/PUT /smartphone/{id} (the spec's singular path). */
export function smartphoneRoutes(r: Router): void {
  mountKind(r, {
    path: '/smartphone',
    history: DeviceKind.SMARTPHONE,
    read: (ctx) => ctx.services.devices.smartphones,
    write: (ctx) => ctx.services.devices.smartphoneAdmin,
    toApi: toApiSmartphone,
    filter: async (ctx, q) => ({
      ...(await heldFilterFromQuery(ctx, q)),
      phoneNumber: typeof q.phone_number === 'string' ? q.phone_number : undefined,
      carrier: typeof q.carrier === 'string' ? q.carrier : undefined,
    }),
    body: bodyTable({
      ...HELD_BODY,
      phoneNumber: { from: 'phone_number', read: (v) => (typeof v === 'number' ? String(v) : v) },
      carrier: 'carrier',
      os: 'os',
      price: { from: 'price', read: idOrNull },
      exchangeDate: 'exchange_date',
      pinPw: 'pin_pw',
    }),
  });
}
