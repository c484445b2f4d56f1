import type { Request, Router } from 'express';
import type { AppContext } from '../../platform/context.js';
import { bodyTable, handle, writeRoute, type RestResource } from '../../platform/rest.js';
import { idOrNull } from '../departments/named-ref.js';
import { DeviceKind } from '../devices/device.enums.js';
import { deviceGuard, exportRoute, HELD_BODY, heldFilterFromQuery, historyExportRoute, historyRoute, listRoute, toApiHeld } from '../devices/device.routes.js';
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

/** The list and export filters of `/smartphone` (query parameters). */
async function filterOf(ctx: AppContext, q: Request['query']) {
  return {
    ...(await heldFilterFromQuery(ctx, q)),
    phoneNumber: typeof q.phone_number === 'string' ? q.phone_number : undefined,
    carrier: typeof q.carrier === 'string' ? q.carrier : undefined,
  };
}

const smartphone: RestResource<SmartphoneView> = {
  toApi: toApiSmartphone,
  guard: deviceGuard,
  body: bodyTable({
    ...HELD_BODY,
    phoneNumber: { from: 'phone_number', read: (v) => (typeof v === 'number' ? String(v) : v) },
    carrier: 'carrier',
    os: 'os',
    price: { from: 'price', read: idOrNull },
    exchangeDate: 'exchange_date',
    pinPw: 'pin_pw',
  }),
};

const read = (ctx: AppContext) => ctx.services.devices.smartphones;
const write = (ctx: AppContext) => ctx.services.devices.smartphoneAdmin;

/** The spec's singular path `/smartphone`. */
export function smartphoneRoutes(r: Router): void {
  r.get('/smartphone', listRoute(filterOf, (ctx, f, offset, limit) => read(ctx).list(ctx, f, offset, limit), toApiSmartphone));
  r.post('/smartphone', writeRoute(smartphone, (ctx, input) => write(ctx).create(ctx, input), 201));
  r.get('/smartphone/export', exportRoute(filterOf, (ctx, f) => read(ctx).export(ctx, f)));
  r.get('/smartphone/:id/history', historyRoute(DeviceKind.SMARTPHONE));
  r.get('/smartphone/:id/history/export', historyExportRoute(DeviceKind.SMARTPHONE));
  r.get('/smartphone/:id', handle(async (ctx, req) => toApiSmartphone(await read(ctx).get(ctx, Number(req.params.id)))));
  r.put('/smartphone/:id', writeRoute(smartphone, (ctx, input, req) => write(ctx).update(ctx, Number(req.params.id), input)));
}
