/**
 * The live bench's frames (scheduleChanged): keyed by `scheduleId:version`; every viewer receives
 * every change, each in its own view (owner: editable; guest: own response; others: read-only;
 * private: busy time only, and the private title nowhere in a non-owner's frame).
 */
import type { FrameKind } from './frames.js';

/** What each viewer may see of one schedule (sent by the parent before the changes). */
export interface ScheduleExpect {
  ownerId: number;
  guestIds: number[];
  isPrivate: boolean;
}

interface View {
  id: number;
  version: number;
  busyOnly: boolean;
  canEdit: boolean;
  canRespond: boolean;
  myResponse: string | null;
  title: string | null;
  guests: { id: number }[];
  description: string | null;
}

const expects = new Map<number, ScheduleExpect>();

function classOf(viewer: number, e: ScheduleExpect): string {
  if (viewer === e.ownerId) return 'owner';
  if (e.isPrivate) return 'busy';
  return e.guestIds.includes(viewer) ? 'guest' : 'public';
}

export const frames: FrameKind = {
  field: 'scheduleChanged',
  keyOf: (change: { scheduleId: number; schedule: View | null }) =>
    change.schedule ? `${change.scheduleId}:${change.schedule.version}` : undefined,
  expect(x) {
    for (const [id, e] of Object.entries(x as Record<string, ScheduleExpect>)) expects.set(Number(id), e);
  },
  check(viewer, raw, change: { scheduleId: number; schedule: View }) {
    const e = expects.get(change.scheduleId);
    const s = change.schedule;
    if (!e) return { cls: '?', problem: `no expectation for ${change.scheduleId}` };
    const cls = classOf(viewer, e);
    const problems: string[] = [];
    if (cls === 'busy') {
      if (!s.busyOnly || s.title !== null || s.description !== null || s.guests.length || s.canEdit || s.canRespond)
        problems.push('private entry not reduced to busy time');
      if (raw.includes('SECRET')) problems.push('private title leaked into the frame');
    } else {
      if (s.busyOnly || s.title === null) problems.push('full view expected');
      if (s.canEdit !== (cls === 'owner')) problems.push(`canEdit ${s.canEdit}`);
      if (s.canRespond !== (cls === 'guest')) problems.push(`canRespond ${s.canRespond}`);
      if ((s.myResponse !== null) !== (cls === 'guest')) problems.push(`myResponse ${s.myResponse}`);
    }
    return {
      cls,
      problem: problems.length
        ? `viewer ${viewer} (${cls}) of schedule ${change.scheduleId}: ${problems.join(', ')}`
        : undefined,
    };
  },
};
