import { addDays, tokyoToday } from '@intranet/schema/calendar/tokyo';
import { BlogPostState } from './blog.enums.js';

export { addDays, tokyoToday };

/** Turning the pin on without a start pins for this many days from today (the spec's default). */
export const DEFAULT_PIN_DAYS = 7;

/** What decides whether a post is visible and pinned: YYYY-MM-DD dates, windows inclusive. */
export interface PostWindow {
  isDraft: boolean;
  publishStart: string;
  publishEnd: string | null;
  isPin: boolean;
  pinStart: string | null;
  pinEnd: string | null;
}

export function stateOf(p: Pick<PostWindow, 'isDraft' | 'publishStart' | 'publishEnd'>, today: string): BlogPostState {
  if (p.isDraft) return BlogPostState.DRAFT;
  if (p.publishStart > today) return BlogPostState.SCHEDULED;
  if (p.publishEnd !== null && p.publishEnd < today) return BlogPostState.EXPIRED;
  return BlogPostState.PUBLISHED;
}

/** Pinned (in 速報, first in the feed) only while published, `isPin`, and today within the pin window, both ends included. */
export function isPinnedOn(p: PostWindow, today: string): boolean {
  return (
    stateOf(p, today) === BlogPostState.PUBLISHED &&
    p.isPin &&
    p.pinStart !== null &&
    p.pinEnd !== null &&
    p.pinStart <= today &&
    today <= p.pinEnd
  );
}

/**
 * The pin window a save stores: none when the pin is off; turned on without a start, today to
 * today + 7; with a start and no end, start + 7.
 */
export function pinWindow(
  isPin: boolean,
  pinStart: string | null,
  pinEnd: string | null,
  today: string,
): { pinStart: string | null; pinEnd: string | null } {
  if (!isPin) return { pinStart: null, pinEnd: null };
  if (pinStart === null) return { pinStart: today, pinEnd: pinEnd ?? addDays(today, DEFAULT_PIN_DAYS) };
  return { pinStart, pinEnd: pinEnd ?? addDays(pinStart, DEFAULT_PIN_DAYS) };
}

/** The same conditions in SQL over `p` (blog_post), with `?` bound to today: windows in one place for both sides. */
export const SQL = {
  inWindow: `(p.publish_start <= ?::date and (p.publish_end is null or p.publish_end >= ?::date))`,
  pinnedNow: `(p.is_pin and p.pin_start <= ?::date and p.pin_end >= ?::date and p.publish_start <= ?::date and (p.publish_end is null or p.publish_end >= ?::date))`,
} as const;
/** How many times each fragment binds today. */
export const SQL_TODAY_PARAMS = { inWindow: 2, pinnedNow: 4 } as const;

/** A time-based change of a post for its readers (the scheduler records one event per change). */
export type PostTransition = 'published' | 'pin_started' | 'pin_ended' | 'expired';

/**
 * What changed for a post's readers from day `since` to day `day` by the calendar alone, in the
 * order it happens: published before it is pinned, unpinned before it expires. Net change only: a
 * pin that started and ended between the two days is no change.
 */
export function transitions(p: PostWindow, since: string, day: string): PostTransition[] {
  const was = stateOf(p, since) === BlogPostState.PUBLISHED;
  const is = stateOf(p, day) === BlogPostState.PUBLISHED;
  const wasPinned = isPinnedOn(p, since);
  const isPinned = isPinnedOn(p, day);
  const out: PostTransition[] = [];
  if (!was && is) out.push('published');
  if (!wasPinned && isPinned) out.push('pin_started');
  if (wasPinned && !isPinned) out.push('pin_ended');
  if (was && !is) out.push('expired');
  return out;
}

/** How many likers a post's card names (its heart's tooltip); likeCount counts them all, blogPostLikers pages through them. */
export const LIKERS_SHOWN = 20;
