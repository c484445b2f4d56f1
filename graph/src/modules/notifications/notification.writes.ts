import type { EntityManager } from '@mikro-orm/postgresql';
import { record } from '../../platform/events/outbox.js';
import { pgArray } from '../../platform/sql.js';

/** What a notification tells its recipient. */
export enum NotificationKind {
  /** Someone commented on (or replied in a thread of) the recipient's post or profile. */
  COMMENT = 'COMMENT',
  /** Someone replied to the recipient's comment (on a post or a profile). */
  REPLY = 'REPLY',
  /** Someone liked the recipient's post or profile. */
  LIKE = 'LIKE',
  /** The author of a 速報 post asks the recipient to confirm they read it (or reminds them). */
  READ_REQUEST = 'READ_REQUEST',
  /** Someone mentioned the recipient (@氏名) in a post or a comment they may read. */
  MENTION = 'MENTION',
}

/** What a notification is about: a post (and one of its comments), or a profile (and one of its comments). */
export type NotificationSubject =
  { postId: number; commentId?: number | null } | { profileId: number; profileCommentId?: number | null };

export type NewNotification = { recipientId: number; kind: NotificationKind } & NotificationSubject;

const postOf = (n: NotificationSubject) => ('postId' in n ? n.postId : null);

/**
 * Who hears of a new comment on a post or profile: the author of the comment replied to (REPLY), and
 * the subject's owner (COMMENT) unless they are that same person. notify() leaves out the commenter.
 */
export function commentRecipients(
  owner: number,
  repliedTo: number | null | undefined,
  about: NotificationSubject,
): NewNotification[] {
  const out: NewNotification[] = [];
  if (repliedTo != null) out.push({ recipientId: repliedTo, kind: NotificationKind.REPLY, ...about });
  if (repliedTo !== owner) out.push({ recipientId: owner, kind: NotificationKind.COMMENT, ...about });
  return out;
}

/**
 * The writes of notifications, called by the services whose changes cause them, with their
 * transaction: a notification commits with the comment, like or request it tells of, or not at all.
 * The actor is never notified of their own action; each change records `notification.changed` for
 * the recipients' live bells (delivered only while they may see the post: notification.live.ts).
 */
export async function notify(tx: EntityManager, actorId: number, items: NewNotification[]): Promise<void> {
  const wanted = items.filter((n) => n.recipientId !== actorId);
  if (!wanted.length) return;
  const column = (f: (n: NewNotification) => number | null | undefined) => pgArray(wanted.map((n) => f(n) ?? 'NULL'));
  await tx.execute(
    `insert into notification (recipient_id, kind, actor_id, post_id, comment_id, profile_id, profile_comment_id)
     select * from unnest(?::int[], ?::text[], ?::int[], ?::int[], ?::int[], ?::int[], ?::int[])`,
    [
      pgArray(wanted.map((n) => n.recipientId)),
      pgArray(wanted.map((n) => n.kind)),
      pgArray(wanted.map(() => actorId)),
      column((n) => ('postId' in n ? n.postId : null)),
      column((n) => ('postId' in n ? n.commentId : null)),
      column((n) => ('profileId' in n ? n.profileId : null)),
      column((n) => ('profileId' in n ? n.profileCommentId : null)),
    ],
  );
  changed(tx, actorId, [...new Set(wanted.map((n) => n.recipientId))], postOf(wanted[0]!));
}

/**
 * An unlike withdraws the like's notification, read or not: the bell never claims a like that no
 * longer exists (liking again notifies again).
 */
export async function withdrawLike(
  tx: EntityManager,
  actorId: number,
  subject: { postId: number } | { profileId: number },
): Promise<void> {
  const [column, id] = 'postId' in subject ? ['post_id', subject.postId] : ['profile_id', subject.profileId];
  const gone: { recipient_id: number }[] = await tx.execute(
    `delete from notification where ${column} = ? and actor_id = ? and kind = 'LIKE' returning recipient_id`,
    [id, actorId],
  );
  if (gone.length) changed(tx, actorId, [...new Set(gone.map((g) => g.recipient_id))], postOf(subject));
}

/**
 * A post or comment about to be deleted takes its notifications with it (the rows would go by
 * cascade; deleting them first tells the bells). `commentId`: the comment and its replies. A deleted
 * post's change names no post: there is nothing left to see.
 */
export async function withdrawAbout(
  tx: EntityManager,
  actorId: number,
  about: { postId: number; commentId?: number } | { profileCommentId: number },
): Promise<void> {
  if ('profileCommentId' in about) {
    const gone: { recipient_id: number }[] = await tx.execute(
      `delete from notification where profile_comment_id in (select id from profile_comment where id = ? or parent_id = ?) returning recipient_id`,
      [about.profileCommentId, about.profileCommentId],
    );
    if (gone.length) changed(tx, actorId, [...new Set(gone.map((g) => g.recipient_id))], null);
    return;
  }
  const gone: { recipient_id: number }[] =
    about.commentId !== undefined
      ? await tx.execute(
          `delete from notification where comment_id in (select id from blog_comment where id = ? or parent_id = ?) returning recipient_id`,
          [about.commentId, about.commentId],
        )
      : await tx.execute(`delete from notification where post_id = ? returning recipient_id`, [about.postId]);
  if (gone.length)
    changed(
      tx,
      actorId,
      [...new Set(gone.map((g) => g.recipient_id))],
      about.commentId !== undefined ? about.postId : null,
    );
}

/** Records that these recipients' bells changed (their count and list are read anew at delivery). */
export function changed(
  tx: EntityManager,
  actorId: number | null,
  recipientIds: number[],
  postId: number | null,
): void {
  record(tx, {
    type: 'notification.changed',
    aggregateId: postId ?? recipientIds[0] ?? 0,
    actorId,
    payload: { recipientIds, postId },
  });
}
