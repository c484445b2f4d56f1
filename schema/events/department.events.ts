import { z } from 'zod';
import { defineEvent } from './envelope.js';

const departmentSnapshot = z.object({
  id: z.number().int(),
  name: z.string(),
  managerId: z.number().int().nullable(),
  memberIds: z.array(z.number().int()),
  version: z.number().int(),
});

export const departmentCreated = defineEvent(
  'department.created',
  'department',
  1,
  z.object({ department: departmentSnapshot }),
);
export const departmentUpdated = defineEvent(
  'department.updated',
  'department',
  1,
  z.object({
    department: departmentSnapshot,
    changed: z.array(z.string()),
    addedMemberIds: z.array(z.number().int()),
    removedMemberIds: z.array(z.number().int()),
  }),
);
