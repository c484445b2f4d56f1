import type { Request, Router } from 'express';
import type { AppContext } from '../../platform/context.js';
import { bodyTable, handle, writeRoute, type RestResource } from '../../platform/rest.js';
import { DeviceKind } from '../devices/device.enums.js';
import { apiFields, bodyFields, queryFilters } from '../devices/device.record.js';
import { exportRoute, listRoute } from '../../platform/rest-routes.js';
import {
  deviceGuard,
  heldFilterFromQuery,
  historyExportRoute,
  historyRoute,
  toApiHeld,
} from '../devices/device.routes.js';
import { SMARTPHONE_FIELDS } from './smartphone.fields.js';
import type { SmartphoneView } from './smartphone.types.js';

const ownFields = apiFields(SMARTPHONE_FIELDS);

/** The spec's smartphone record (snake_case; status and location/department as Japanese names, ids beside them): SMARTPHONE_FIELDS' `/api` names. */
export const toApiSmartphone = (s: SmartphoneView) => Object.assign(toApiHeld(s), ownFields(s));

/** The list and export filters of `/smartphone` (query parameters); the phone number matches with or without hyphens. */
async function filterOf(ctx: AppContext, q: Request['query']) {
  return {
    ...(await heldFilterFromQuery(ctx, q)),
    ...queryFilters(q, SMARTPHONE_FIELDS),
    phoneNumber: typeof q.phone_number === 'string' ? q.phone_number : undefined,
  };
}

const smartphone: RestResource<SmartphoneView> = {
  toApi: toApiSmartphone,
  guard: deviceGuard,
  body: bodyTable(bodyFields(SMARTPHONE_FIELDS)),
};

const read = (ctx: AppContext) => ctx.services.smartphones.read;
const write = (ctx: AppContext) => ctx.services.smartphones.write;

/** The spec's singular path `/smartphone`. */
export function smartphoneRoutes(r: Router): void {
  r.get(
    '/smartphone',
    listRoute(deviceGuard, filterOf, (ctx, f, offset, limit) => read(ctx).list(ctx, f, offset, limit), toApiSmartphone),
  );
  r.post(
    '/smartphone',
    writeRoute(smartphone, (ctx, input) => write(ctx).create(ctx, input), 201),
  );
  r.get(
    '/smartphone/export',
    exportRoute(deviceGuard, filterOf, (ctx, f) => read(ctx).export(ctx, f)),
  );
  r.get('/smartphone/:id/history', historyRoute(DeviceKind.SMARTPHONE));
  r.get('/smartphone/:id/history/export', historyExportRoute(DeviceKind.SMARTPHONE));
  r.get(
    '/smartphone/:id',
    handle(async (ctx, req) => toApiSmartphone(await read(ctx).get(ctx, Number(req.params.id)))),
  );
  r.put(
    '/smartphone/:id',
    writeRoute(smartphone, (ctx, input, req) => write(ctx).update(ctx, Number(req.params.id), input)),
  );
}
