import type { ScheduleSnapshot } from '@intranet/schema/events/schedule.events';
import { GuestResponse, type ScheduleType } from './schedule.enums.js';
import type { ScheduleGuest, ScheduleView } from './schedule.types.js';

/** What a view is made of: a snapshot, or the grid's leaner row (no timestamps). */
export type ViewSource = Omit<ScheduleSnapshot, 'googleEventId' | 'updatedAt'>;

/**
 * The one place that decides what a viewer sees of an entry, used by queries, REST and
 * subscriptions alike. The owner sees everything; others see a private entry only as busy time.
 */
export function viewFor(viewerId: number, s: ViewSource): ScheduleView {
  const owner = s.ownerId === viewerId;
  const busy = s.isPrivate && !owner;
  const mine = busy ? undefined : s.guests.find((g) => g.id === viewerId);
  // One literal with every field in one order: every view has the same shape (a grid builds
  // thousands, and GraphQL reads each field of each), no spread that leaves a slow object.
  return {
    id: s.id,
    owner: { id: s.ownerId, name: s.ownerName },
    date: s.startDate,
    endDate: s.endDate,
    isAllDay: s.isAllDay,
    startTime: s.startTime,
    endTime: s.endTime,
    isPrivate: s.isPrivate,
    version: s.version,
    busyOnly: busy,
    title: busy ? null : s.title,
    type: busy ? null : (s.type as ScheduleType),
    meetLink: busy ? null : s.meetLink,
    description: busy ? null : s.description,
    syncGoogle: busy ? false : s.syncGoogle,
    // {id, name, response} already, response one of GuestResponse's values: shared, not copied.
    guests: busy ? [] : (s.guests as ScheduleGuest[]),
    externalGuests: busy ? [] : s.externalGuests,
    myResponse: mine ? (mine.response as GuestResponse) : null,
    canEdit: owner,
    canRespond: mine !== undefined,
  };
}

/**
 * Viewers in the same class see the same view of an entry, so a live change is rendered once per
 * class, not once per subscriber. A guest's view differs only in myResponse/canRespond.
 */
export const visibilityClass = (viewerId: number, s: ScheduleSnapshot): string =>
  s.ownerId === viewerId
    ? 'owner'
    : s.isPrivate
      ? 'busy'
      : s.guests.some((g) => g.id === viewerId)
        ? `guest:${viewerId}`
        : 'public';
