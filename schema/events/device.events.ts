import { z } from 'zod';
import { defineEvent } from './envelope.js';

/**
 * IT-asset register events. All three kinds share the aggregate type `device` (one topic, one live
 * subscription); the aggregate id is `<kind>:<id>` (`computer:12`, `smartphone:3`,
 * `office_account:7`), so per-device order holds. Payloads never carry PIN codes or passwords.
 */
const status = z.enum(['NORMAL', 'REPLACE', 'BROKEN', 'DISCARDED', 'LOST', 'DISPOSED']);
const id = z.number().int();
const ref = id.nullable();
const date = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .nullable();

/** Who holds the device, its status and where it is: the facts the assignment history keeps. */
export const deviceTracked = z.object({ currentUserId: ref, status, locationId: ref });

const held = { id, currentUserId: ref, previousUserId: ref, locationId: ref, departmentId: ref, status, version: id };
const computerSnapshot = z.object({
  ...held,
  /** 管理番号; absent in events recorded before it existed. */
  assetNumber: z.string().nullable().optional(),
  maker: z.string(),
  deviceType: z.string().nullable(),
  model: z.string().nullable(),
  officeAccountId: ref,
  purchaseDate: date,
  introductionDate: date,
});
const smartphoneSnapshot = z.object({
  ...held,
  phoneNumber: z.string(),
  carrier: z.string().nullable(),
  os: z.string().nullable(),
  price: z.number().int().nullable(),
  exchangeDate: date,
});
const officeAccountSnapshot = z.object({
  id,
  account: z.string(),
  status: z.enum(['IN_USE', 'SUSPENDED']),
  version: id,
});

/** `edit`: a form save; `returned`: handed back at offboarding (current user → previous user). */
const reason = z.enum(['edit', 'returned']);
const updated = <S extends z.ZodTypeAny>(device: S) =>
  z.object({ device, changed: z.array(z.string()), before: deviceTracked, reason });

export const computerCreated = defineEvent(
  'device.computer.created',
  'device',
  1,
  z.object({ device: computerSnapshot }),
);
export const computerUpdated = defineEvent('device.computer.updated', 'device', 1, updated(computerSnapshot));
export const smartphoneCreated = defineEvent(
  'device.smartphone.created',
  'device',
  1,
  z.object({ device: smartphoneSnapshot }),
);
export const smartphoneUpdated = defineEvent('device.smartphone.updated', 'device', 1, updated(smartphoneSnapshot));
export const officeAccountCreated = defineEvent(
  'device.office_account.created',
  'device',
  1,
  z.object({ device: officeAccountSnapshot }),
);
export const officeAccountUpdated = defineEvent(
  'device.office_account.updated',
  'device',
  1,
  z.object({ device: officeAccountSnapshot, changed: z.array(z.string()) }),
);

/**
 * Someone was shown a device's PIN code or password (the audit trail of who saw which secret).
 * Carries the field's name, never its value; `device` is the device's holder, status and location
 * at that moment, so the history row stands on its own.
 */
export const secretRevealed = defineEvent(
  'device.secret_revealed',
  'device',
  1,
  z.object({ field: z.enum(['pinCode', 'pass', 'pinPw']), device: deviceTracked }),
);

export const deviceEventContracts = [
  computerCreated,
  computerUpdated,
  smartphoneCreated,
  smartphoneUpdated,
  officeAccountCreated,
  officeAccountUpdated,
  secretRevealed,
] as const;
