import type { Request } from 'express';
import type { AppContext } from '../../platform/context.js';
import { requireUser } from '../../platform/authz.js';
import { badInput } from '../../platform/errors.js';
import { handle } from '../../platform/rest.js';
import { queryBool, queryId } from '../../platform/validation.js';
import { queryRef } from '../departments/named-ref.js';
import { DEVICE_ROLES } from '../employees/employee.enums.js';
import { DEVICE_STATUS_LABEL, codeOf, type DeviceKind } from './device.enums.js';
import { sendXlsx } from '../../platform/xlsx-export.js';
import type { DeviceHolder, DeviceTimeline, HeldDeviceView } from './device.types.js';
import { timelineXlsx } from './device.history.js';

type Body = Record<string, unknown>;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A status filter given by label or code: absent or '' → undefined; a status that does not exist → BAD_USER_INPUT listing the labels. */
export function statusFilter<T extends string>(labels: Record<T, string>, v: unknown): T | undefined {
  if (v === undefined || v === '') return undefined;
  const code = codeOf(labels, v);
  if (typeof code !== 'string' || !Object.hasOwn(labels, code)) {
    throw badInput(`状態「${String(v)}」はありません。`, [
      { field: 'status', message: Object.values<string>(labels).join(' / ') },
    ]);
  }
  return code as T;
}

/** The list filters both device kinds accept on `/api`. */
export async function heldFilterFromQuery(ctx: AppContext, q: Request['query']) {
  const src = q as Body;
  return {
    departmentId: await queryRef(ctx, 'department', src),
    locationId: await queryRef(ctx, 'location', src),
    status: statusFilter(DEVICE_STATUS_LABEL, q.status),
    currentUserId: queryId(q.current_user, 'current_user'),
    showDiscarded:
      (queryBool(q.show_discarded, 'show_discarded') ?? queryBool(q.showDiscarded, 'showDiscarded')) === true,
  };
}

/** The spec's snake_case fields both device kinds share. */
export function toApiHeld(d: HeldDeviceView) {
  return {
    id: d.id,
    current_user: d.currentUser?.id ?? null,
    current_user_name: d.currentUser?.name ?? null,
    current_user_status: d.currentUserStatus,
    previous_user: d.previousUser?.id ?? null,
    previous_user_name: d.previousUser?.name ?? null,
    location: d.location?.name ?? null,
    location_id: d.location?.id ?? null,
    department: d.department?.name ?? null,
    department_id: d.department?.id ?? null,
    status: d.statusLabel,
    status_code: d.status,
    is_discarded: d.isDiscarded,
    is_broken: d.isBroken,
    current_user_retired: d.currentUserRetired,
    version: d.version,
    upd_dt: d.updatedAt.toISOString(),
  };
}

const person = (h: DeviceHolder | null, key: string) => ({ [key]: h?.id ?? null, [`${key}_name`]: h?.name ?? null });

export function toApiTimeline(t: DeviceTimeline) {
  return {
    device_id: t.deviceId,
    assignments: t.assignments.map((a) => ({
      employee_id: a.user.id,
      employee_name: a.user.name,
      employee_status: a.user.statusLabel,
      from: iso(a.from),
      to: iso(a.to),
      ...person(a.assignedBy, 'assigned_by'),
      ...person(a.endedBy, 'ended_by'),
    })),
    changes: t.changes.map((c) => ({
      id: c.id,
      changed_at: iso(c.changedAt),
      ...person(c.changedBy, 'changed_by'),
      reason: c.reason,
      changed: c.changed,
      ...person(c.fromUser, 'from_user'),
      ...person(c.toUser, 'to_user'),
      from_status: c.fromStatus ? DEVICE_STATUS_LABEL[c.fromStatus] : null,
      to_status: DEVICE_STATUS_LABEL[c.toStatus],
      from_location: c.fromLocation?.name ?? null,
      to_location: c.toLocation?.name ?? null,
    })),
  };
}

/** Device routes refuse other roles before they read names or filters, so those never learn more than 403. */
export const deviceGuard = (ctx: AppContext) => requireUser(ctx, DEVICE_ROLES);

const timeline = (ctx: AppContext, kind: DeviceKind, req: Request) =>
  ctx.services.devices.history.timeline(ctx, kind, Number(req.params.id));

/** A device's history (`/{kind}/:id/history`) as JSON. */
export const historyRoute = (kind: DeviceKind) =>
  handle(async (ctx, req) => toApiTimeline(await timeline(ctx, kind, req)));

/** A device's history (`/{kind}/:id/history/export`) as an .xlsx download. */
export const historyExportRoute = (kind: DeviceKind) =>
  handle(async (ctx, req, res) => sendXlsx(res, timelineXlsx(await timeline(ctx, kind, req))));
