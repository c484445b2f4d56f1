import { LockMode, type EntityName } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventType } from '@intranet/schema/events';
import type { DeviceKind, DeviceStatus } from './device.enums.js';
import type { HeldDevice } from './device.entity.js';
import { aggregateIdOf, recordDeviceEvent, type Tracked } from './device.history.js';
import { checkRefs } from './device.refs.js';

/** The writable fields computers and smartphones share, as the input names them. */
export interface HeldData {
  currentUserId: number | null;
  previousUserId: number | null;
  locationId: number | null;
  departmentId: number | null;
  status: DeviceStatus;
  [k: string]: unknown;
}

/** Any computer or smartphone entity. */
export type AnyHeld = HeldDevice<string> & { id: number };

const idOf = (r: { id: number } | null | undefined) => r?.id ?? null;

export const heldValues = (e: AnyHeld) => ({
  currentUserId: idOf(e.currentUser),
  previousUserId: idOf(e.previousUser),
  locationId: idOf(e.location),
  departmentId: idOf(e.department),
  status: e.status,
});

/** Input values → entity properties: the reference ids become the relations (MikroORM takes ids). */
export function heldEntity<D extends HeldData>(d: D) {
  const { currentUserId, previousUserId, locationId, departmentId, ...rest } = d;
  return {
    ...rest,
    currentUser: currentUserId,
    previousUser: previousUserId,
    location: locationId,
    department: departmentId,
  };
}

/**
 * When the current user changes and the form left the previous user as it was, the old current
 * user becomes the previous user (what the register always meant by 前使用者).
 */
export function shiftPreviousUser<D extends HeldData>(data: D, before: D): D {
  if (
    before.currentUserId !== null &&
    data.currentUserId !== before.currentUserId &&
    data.previousUserId === before.previousUserId
  ) {
    return { ...data, previousUserId: before.currentUserId };
  }
  return data;
}

export const tracked = (d: Pick<HeldData, 'currentUserId' | 'status' | 'locationId'>): Tracked => ({
  currentUserId: d.currentUserId,
  status: d.status,
  locationId: d.locationId,
});

export const heldSnapshot = (e: AnyHeld) => ({ id: e.id, ...heldValues(e), version: e.version });

/** The write hooks computers and smartphones share: reference checks, events and history. */
export function heldHooks<E extends AnyHeld, D extends HeldData>(
  kind: DeviceKind,
  types: { created: EventType; updated: EventType },
  snapshot: (e: E) => Record<string, unknown>,
) {
  return {
    prepare: shiftPreviousUser<D>,
    checkRefs: (tx: EntityManager, data: D, before: D | null) => checkRefs(tx, data, before),
    recordCreated: (tx: EntityManager, e: E, actorId: number) =>
      recordDeviceEvent(tx, {
        type: types.created,
        aggregateId: aggregateIdOf(kind as never, e.id),
        actorId,
        payload: { device: snapshot(e) } as never,
      }),
    recordUpdated: (
      tx: EntityManager,
      e: E,
      changed: string[],
      before: D,
      actorId: number,
      reason: 'edit' | 'returned' = 'edit',
    ) =>
      recordDeviceEvent(tx, {
        type: types.updated,
        aggregateId: aggregateIdOf(kind as never, e.id),
        actorId,
        payload: { device: snapshot(e), changed, before: tracked(before), reason } as never,
      }),
  };
}

/**
 * Offboarding for one device kind: every device the employee holds is locked, handed back
 * (current user → previous user, current user cleared) and recorded as `returned`, inside the
 * caller's transaction. Returns the ids of the devices handed back.
 */
export async function returnHeld<E extends AnyHeld, D extends HeldData>(
  tx: EntityManager,
  entity: EntityName<E>,
  employeeId: number,
  actorId: number,
  recordUpdated: (
    tx: EntityManager,
    e: E,
    changed: string[],
    before: D,
    actorId: number,
    reason: 'returned',
  ) => Promise<void>,
): Promise<number[]> {
  const devices = await tx.find(entity, { currentUser: employeeId } as never, {
    lockMode: LockMode.PESSIMISTIC_WRITE,
    orderBy: { id: 'asc' } as never,
  });
  const before = devices.map((d) => heldValues(d));
  for (const d of devices) {
    d.previousUser = d.currentUser;
    d.currentUser = null;
    d.updatedById = actorId;
  }
  await tx.flush();
  for (const [i, d] of devices.entries()) {
    const changed = before[i].previousUserId === employeeId ? ['currentUserId'] : ['currentUserId', 'previousUserId'];
    await recordUpdated(tx, d, changed, before[i] as D, actorId, 'returned');
  }
  return devices.map((d) => d.id);
}
