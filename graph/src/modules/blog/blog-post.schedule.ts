import type { EntityManager } from '@mikro-orm/postgresql';
import { record } from '../../platform/events/outbox.js';
import { POST_SELECT, snapshot, windowOf, type PostRow } from './blog-post.queries.js';
import { transitions, type PostTransition } from './blog-post.rules.js';
import { requestReading } from './reading/blog-reading.readers.js';
import { notifyPostMentions } from './mentions/blog-mention.rules.js';

const EVENT = {
  published: 'blog.post.published',
  pin_started: 'blog.post.pin_started',
  pin_ended: 'blog.post.pin_ended',
  expired: 'blog.post.expired',
} as const satisfies Record<PostTransition, string>;

/**
 * What one firing did: `busy` when another worker holds the row (it fires); otherwise the days it
 * covered (null when `today` had been fired already) and the events it recorded.
 */
export interface FireResult {
  busy: boolean;
  since: string | null;
  day: string | null;
  events: { type: string; postId: number }[];
}

/**
 * Records the time-based changes of posts (publish start arrived, publish end passed, pin window
 * started or ended: Tokyo calendar days, windows inclusive, as blog-post.rules.ts decides) from the
 * last day fired up to `today`, once across every worker: the one row of blog_scheduler is taken
 * FOR UPDATE SKIP LOCKED (a worker that finds it taken does nothing, the holder fires), and the
 * events (and the reading requests of the posts it publishes) and the new fired_day commit in one transaction — a crash fires nothing and the next
 * worker fires it all; a restart resumes from fired_day.
 */
export async function fireDueTransitions(em: EntityManager, today: string): Promise<FireResult> {
  // The first run ever starts from today: the states before it were never shown as changes.
  await em.execute(`insert into blog_scheduler (id, fired_day) values (true, ?::date) on conflict do nothing`, [today]);
  return em.transactional(async (tx) => {
    const [row]: { fired_day: string }[] = await tx.execute(
      `select to_char(fired_day, 'YYYY-MM-DD') as fired_day from blog_scheduler for update skip locked`,
    );
    if (!row) return { busy: true, since: null, day: null, events: [] };
    if (row.fired_day >= today) return { busy: false, since: null, day: null, events: [] };
    const since = row.fired_day;
    // Candidates: a window edge falls in (since, today]. The rules then say what changed for readers.
    const posts: PostRow[] = await tx.execute(
      `${POST_SELECT}
        where not p.is_draft
          and ((p.publish_start > ?::date and p.publish_start <= ?::date)
            or (p.publish_end >= ?::date and p.publish_end < ?::date)
            or (p.is_pin and ((p.pin_start > ?::date and p.pin_start <= ?::date) or (p.pin_end >= ?::date and p.pin_end < ?::date))))
        order by p.id`,
      [since, today, since, today, since, today, since, today],
    );
    const events: FireResult['events'] = [];
    for (const p of posts) {
      const changes = transitions(windowOf(p), since, today);
      for (const t of changes) {
        record(tx, {
          type: EVENT[t],
          aggregateId: p.id,
          actorId: null,
          payload: { post: snapshot(p), since, day: today },
        });
        events.push({ type: EVENT[t], postId: p.id });
      }
      // As it is published, a post asking for confirmation asks its readers, and the people it mentions are told (live).
      if (changes.includes('published')) {
        await requestReading(tx, p, today);
        await notifyPostMentions(tx, p, today);
      }
    }
    await tx.execute(`update blog_scheduler set fired_day = ?::date, fired_at = clock_timestamp()`, [today]);
    return { busy: false, since, day: today, events };
  });
}
