import { z } from 'zod';
import { defineEvent } from './envelope.js';

const id = z.number().int();

/**
 * Some employees' notifications changed (one arrived or was withdrawn, or they marked some read).
 * `postId`: the post a new or withdrawn notification is about (live delivery tells a recipient only
 * while they may see it); null when only read marks changed. Never the notification's text.
 */
export const notificationChanged = defineEvent(
  'notification.changed',
  'notification',
  1,
  z.object({ recipientIds: z.array(id), postId: id.nullable() }),
);

export const notificationEventContracts = [notificationChanged] as const;
