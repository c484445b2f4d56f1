import type { z } from 'zod';
import type { EventContract } from './envelope.js';
import { employeeCreated, employeeSessionEnded, employeeSessionsRevoked, employeeUpdated } from './employee.events.js';
import { departmentCreated, departmentUpdated } from './department.events.js';
import { scheduleCreated, scheduleDeleted, scheduleResponded, scheduleUpdated } from './schedule.events.js';
import { platformProbe } from './platform.events.js';
import { deviceEventContracts } from './device.events.js';
import { importEventContracts } from './import.events.js';
import { blogEventContracts } from './blog.events.js';
import { notificationEventContracts } from './notification.events.js';
import { profileEventContracts } from './profile.events.js';

export * from './envelope.js';
export * from './employee.events.js';
export * from './department.events.js';
export * from './schedule.events.js';
export * from './platform.events.js';
export * from './device.events.js';
export * from './import.events.js';
export * from './blog.events.js';
export * from './notification.events.js';
export * from './profile.events.js';

/** Every event type the platform may publish. An event not listed here cannot be recorded. */
export const eventContracts = [
  employeeCreated,
  employeeUpdated,
  employeeSessionsRevoked,
  employeeSessionEnded,
  departmentCreated,
  departmentUpdated,
  platformProbe,
  ...deviceEventContracts,
  ...importEventContracts,
  ...blogEventContracts,
  ...notificationEventContracts,
  ...profileEventContracts,
  scheduleCreated,
  scheduleUpdated,
  scheduleDeleted,
  scheduleResponded,
] as const;

type Contracts = (typeof eventContracts)[number];
export type EventType = Contracts['type'];
export type PayloadOf<T extends EventType> = z.infer<Extract<Contracts, { type: T }>['payload']>;

const byType = new Map<string, EventContract<string, z.ZodTypeAny>>(eventContracts.map((c) => [c.type, c]));

export function contractOf(type: string): EventContract<string, z.ZodTypeAny> | undefined {
  return byType.get(type);
}
