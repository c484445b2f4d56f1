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
