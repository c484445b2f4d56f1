import type { Router } from 'express';
import { DeviceKind } from './device.enums.js';
import { heldBodyFromApi, heldFilterFromQuery, idOrNull, mountKind, toApiHeld } from './device.routes.js';
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
    body: async (ctx, b) => ({
      ...(await heldBodyFromApi(ctx, b)),
      phoneNumber: typeof b.phone_number === 'number' ? String(b.phone_number) : b.phone_number,
      carrier: b.carrier,
      os: b.os,
      price: idOrNull(b.price),
      exchangeDate: b.exchange_date,
      pinPw: b.pin_pw,
    }),
  });
}
