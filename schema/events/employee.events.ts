import { z } from 'zod';
import { defineEvent } from './envelope.js';

const employeeSnapshot = z.object({
  id: z.number().int(),
  name: z.string(),
  role: z.enum(['ADMIN', 'DEVICE_ADMIN', 'SYSTEM_ADMIN', 'GENERAL']),
  status: z.enum(['ACTIVE', 'RETIRED']),
  departmentId: z.number().int().nullable(),
  locationId: z.number().int().nullable(),
  version: z.number().int(),
});

export const employeeCreated = defineEvent('employee.created', 'employee', 1, z.object({ employee: employeeSnapshot }));
export const employeeUpdated = defineEvent(
  'employee.updated',
  'employee',
  1,
  z.object({ employee: employeeSnapshot, changed: z.array(z.string()) }),
);
export const employeeSessionsRevoked = defineEvent(
  'employee.sessions_revoked',
  'employee',
  1,
  z.object({ employeeId: z.number().int(), reason: z.enum(['logout_all', 'retired', 'password_changed']) }),
);

/**
 * One session ended (sign-out, or a new sign-in in the same browser replacing it). Every graph
 * instance closes that session's open sockets when it arrives. `sessionId` is the session row's
 * id (the token's SHA-256), never the token.
 */
export const employeeSessionEnded = defineEvent(
  'employee.session_ended',
  'employee',
  1,
  z.object({
    employeeId: z.number().int(),
    sessionId: z.string().regex(/^[0-9a-f]{64}$/),
    reason: z.enum(['logout', 'replaced']),
  }),
);
