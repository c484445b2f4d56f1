import { z } from 'zod';
import { defineEvent } from './envelope.js';

/** The whole entry as saved (including private fields: events stay inside the platform). */
export const scheduleSnapshot = z.object({
  id: z.number().int(),
  ownerId: z.number().int(),
  ownerName: z.string(),
  title: z.string(),
  startDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  endDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  isAllDay: z.boolean(),
  startTime: z.string().nullable(),
  endTime: z.string().nullable(),
  type: z.enum(['TASK', 'REMOTE', 'APPOINTMENT']),
  meetLink: z.string().nullable(),
  description: z.string().nullable(),
  syncGoogle: z.boolean(),
  isPrivate: z.boolean(),
  externalGuests: z.array(z.string()),
  guests: z.array(
    z.object({ id: z.number().int(), name: z.string(), response: z.enum(['PENDING', 'ACCEPTED', 'DECLINED']) }),
  ),
  googleEventId: z.string().nullable(),
  version: z.number().int(),
  updatedAt: z.string(),
});
export type ScheduleSnapshot = z.infer<typeof scheduleSnapshot>;

export const scheduleCreated = defineEvent('schedule.created', 'schedule', 1, z.object({ schedule: scheduleSnapshot }));
export const scheduleUpdated = defineEvent(
  'schedule.updated',
  'schedule',
  1,
  z.object({ schedule: scheduleSnapshot, previous: scheduleSnapshot, origin: z.enum(['user', 'google']) }),
);
export const scheduleDeleted = defineEvent(
  'schedule.deleted',
  'schedule',
  1,
  z.object({ schedule: scheduleSnapshot, origin: z.enum(['user', 'google']) }),
);
export const scheduleResponded = defineEvent(
  'schedule.responded',
  'schedule',
  1,
  z.object({ schedule: scheduleSnapshot, guestId: z.number().int(), response: z.enum(['ACCEPTED', 'DECLINED']) }),
);
