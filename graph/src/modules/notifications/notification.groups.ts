import type { EntityManager } from '@mikro-orm/postgresql';
import { pgArray } from '../../platform/sql.js';
import type { NotificationKind } from './notification.writes.js';

/** How much of a comment a notification quotes. */
export const EXCERPT_LENGTH = 60;
/** How many actors an item names (newest first); actorCount tells how many there are. */
export const NAMED_ACTORS = 3;

/**
 * The bell shows notifications grouped at read time, one item per thing that happened to the
 * recipient: the likes of one post (or of their profile), the comments on one post (or profile), the
 * replies in one thread (to the recipient's comment) are one item each; a reading request (or
 * reminder) and a mention stay their own. The rows stay one per actor and action, so an unlike or a deleted comment
 * simply takes its row out of the group, and the visibility rule keeps judging each post at every
 * read (a profile is seen by everyone signed in). `n`: notification, `c` / `pc`: its blog or profile
 * comment (left joined).
 */
const THREAD = `case n.kind when 'REPLY' then coalesce(c.parent_id, c.id, pc.parent_id, pc.id) when 'READ_REQUEST' then n.id when 'MENTION' then n.id else 0 end`;

/** A group's key: kind, subject (a post or a profile), thread. */
const SAME_GROUP = (a: string, b: string) =>
  `${a}.kind = ${b}.kind and ${a}.post_id is not distinct from ${b}.post_id and ${a}.profile_id is not distinct from ${b}.profile_id and ${a}.thread = ${b}.thread`;

/** The viewer's notifications (about profiles and the `visible` posts bound next, or all) with their group's key. */
const keyed = (
  ofVisible: boolean,
) => `select n.id, n.kind, n.actor_id, n.post_id, n.profile_id, n.created_at, n.read_at, ${THREAD} as thread
                 from notification n left join blog_comment c on c.id = n.comment_id
                 left join profile_comment pc on pc.id = n.profile_comment_id
                where n.recipient_id = ?${ofVisible ? ' and (n.post_id = any(?::int[]) or n.profile_id is not null)' : ''}`;

export interface GroupRow {
  /** The group's newest notification: the item's id, its comment and the cursor. */
  id: number;
  kind: NotificationKind;
  post_id: number | null;
  post_title: string | null;
  profile_id: number | null;
  comment_id: number | null;
  excerpt: string | null;
  created_at: Date;
  unread: boolean;
  actor_count: number;
  actors: { id: number; name: string | null }[] | null;
}

/** A page of the viewer's groups, newest first (by their newest notification), before `before`. */
export async function groupPage(
  em: EntityManager,
  viewer: number,
  visible: number[],
  before: number | null,
  limit: number,
): Promise<GroupRow[]> {
  return em.execute(
    `with keyed as (${keyed(true)}),
          grouped as (
            select kind, post_id, profile_id, thread, max(id) as id, max(created_at) as created_at,
                   bool_or(read_at is null) as unread, count(distinct actor_id)::int as actor_count
              from keyed group by kind, post_id, profile_id, thread)
     select g.id, g.kind, g.post_id, p.title as post_title, g.profile_id, g.created_at, g.unread, g.actor_count,
            coalesce(newest.comment_id, newest.profile_comment_id) as comment_id,
            left(coalesce(nc.content, npc.content), ${EXCERPT_LENGTH + 1}) as excerpt,
            (select json_agg(json_build_object('id', x.actor_id, 'name', a.name) order by x.last desc)
               from (select k.actor_id, max(k.id) as last from keyed k
                      where ${SAME_GROUP('k', 'g')} and k.actor_id is not null
                      group by k.actor_id order by last desc limit ${NAMED_ACTORS}) x
               left join employee a on a.id = x.actor_id) as actors
       from grouped g
       left join blog_post p on p.id = g.post_id
       join notification newest on newest.id = g.id
       left join blog_comment nc on nc.id = newest.comment_id
       left join profile_comment npc on npc.id = newest.profile_comment_id
      ${before ? 'where g.id < ?' : ''}
      order by g.id desc limit ?`,
    [viewer, pgArray(visible), ...(before ? [before] : []), limit],
  );
}

/** How many of the viewer's groups about profiles and `visible` posts have an unread part. */
export async function unreadGroups(em: EntityManager, viewer: number, visible: number[]): Promise<number> {
  const [{ n }]: { n: number }[] = await em.execute(
    `with keyed as (${keyed(true)} and n.read_at is null)
     select count(*)::int as n from (select distinct kind, post_id, profile_id, thread from keyed) g`,
    [viewer, pgArray(visible)],
  );
  return n;
}

/**
 * Marks read the groups of the viewer's notifications `ids` name, each up to that notification (a
 * part that arrived after the item was shown stays unread); answers the ids marked.
 */
export async function markGroupsRead(tx: EntityManager, viewer: number, ids: number[]): Promise<number[]> {
  const done: { id: number }[] = await tx.execute(
    `with keyed as (${keyed(false)}),
          picked as (select kind, post_id, profile_id, thread, id from keyed where id = any(?::int[]))
     update notification set read_at = now()
      where read_at is null and id in (select k.id from keyed k join picked p on ${SAME_GROUP('p', 'k')} and k.id <= p.id)
     returning id`,
    [viewer, pgArray(ids)],
  );
  return done.map((r) => r.id);
}
