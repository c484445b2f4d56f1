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
import { COMPUTER_FIELDS } from './computer.fields.js';
import type { ComputerView } from './computer.types.js';

const ownFields = apiFields(COMPUTER_FIELDS);

/** The spec's computer record (snake_case; status and location/department as Japanese names, ids beside them): COMPUTER_FIELDS' `/api` names. */
export const toApiComputer = (c: ComputerView) => Object.assign(toApiHeld(c), ownFields(c));

/** The list and export filters of `/computers` (query parameters). */
async function filterOf(ctx: AppContext, q: Request['query']) {
  return { ...(await heldFilterFromQuery(ctx, q)), ...queryFilters(q, COMPUTER_FIELDS) };
}

const computer: RestResource<ComputerView> = {
  toApi: toApiComputer,
  guard: deviceGuard,
  body: bodyTable(bodyFields(COMPUTER_FIELDS)),
};

const read = (ctx: AppContext) => ctx.services.computers.read;
const write = (ctx: AppContext) => ctx.services.computers.write;

export function computerRoutes(r: Router): void {
  r.get(
    '/computers',
    listRoute(deviceGuard, filterOf, (ctx, f, offset, limit) => read(ctx).list(ctx, f, offset, limit), toApiComputer),
  );
  r.post(
    '/computers',
    writeRoute(computer, (ctx, input) => write(ctx).create(ctx, input), 201),
  );
  r.get(
    '/computers/export',
    exportRoute(deviceGuard, filterOf, (ctx, f) => read(ctx).export(ctx, f)),
  );
  r.get('/computers/:id/history', historyRoute(DeviceKind.COMPUTER));
  r.get('/computers/:id/history/export', historyExportRoute(DeviceKind.COMPUTER));
  r.get(
    '/computers/:id',
    handle(async (ctx, req) => toApiComputer(await read(ctx).get(ctx, Number(req.params.id)))),
  );
  r.put(
    '/computers/:id',
    writeRoute(computer, (ctx, input, req) => write(ctx).update(ctx, Number(req.params.id), input)),
  );
}
