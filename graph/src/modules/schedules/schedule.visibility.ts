import type { ScheduleSnapshot } from '../../../../schema/events/schedule.events.js';
import { GuestResponse, type ScheduleType } from './schedule.enums.js';
import type { ScheduleView } from './schedule.types.js';

/**
 * The one place that decides what a viewer sees of an entry, used by queries, REST and
 * subscriptions alike. The owner sees everything; others see a private entry only as busy time.
 */
export function viewFor(viewerId: number, s: ScheduleSnapshot): ScheduleView {
  const owner = s.ownerId === viewerId;
  const mine = s.guests.find((g) => g.id === viewerId);
  const base = {
    id: s.id,
    owner: { id: s.ownerId, name: s.ownerName },
    date: s.startDate,
    endDate: s.endDate,
    isAllDay: s.isAllDay,
    startTime: s.startTime,
    endTime: s.endTime,
    isPrivate: s.isPrivate,
    version: s.version,
  };
  if (s.isPrivate && !owner) {
    return {
      ...base,
      busyOnly: true,
      title: null,
      type: null,
      meetLink: null,
      description: null,
      syncGoogle: false,
      guests: [],
      externalGuests: [],
      myResponse: null,
      canEdit: false,
      canRespond: false,
    };
  }
  return {
    ...base,
    busyOnly: false,
    title: s.title,
    type: s.type as ScheduleType,
    meetLink: s.meetLink,
    description: s.description,
    syncGoogle: s.syncGoogle,
    guests: s.guests.map((g) => ({ ...g, response: g.response as GuestResponse })),
    externalGuests: s.externalGuests,
    myResponse: mine ? (mine.response as GuestResponse) : null,
    canEdit: owner,
    canRespond: Boolean(mine),
  };
}

/**
 * Viewers in the same class see the same view of an entry, so a live change is rendered once per
 * class, not once per subscriber. A guest's view differs only in myResponse/canRespond.
 */
export const visibilityClass = (viewerId: number, s: ScheduleSnapshot): string =>
  s.ownerId === viewerId ? 'owner' : s.isPrivate ? 'busy' : s.guests.some((g) => g.id === viewerId) ? `guest:${viewerId}` : 'public';
