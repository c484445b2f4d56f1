import type { EntityManager } from '@mikro-orm/postgresql';
import { record } from '../../platform/events/outbox.js';
import { pgArray } from '../../platform/sql.js';

/** What a notification tells its recipient. */
export enum NotificationKind {
  /** Someone commented on (or replied in a thread of) the recipient's post. */
  COMMENT = 'COMMENT',
  /** Someone replied to the recipient's comment. */
  REPLY = 'REPLY',
  /** Someone liked the recipient's post. */
  LIKE = 'LIKE',
  /** The author of a 速報 post asks the recipient to confirm they read it (or reminds them). */
  READ_REQUEST = 'READ_REQUEST',
}

export interface NewNotification {
  recipientId: number;
  kind: NotificationKind;
  postId: number;
  commentId?: number | null;
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
  await tx.execute(
    `insert into notification (recipient_id, kind, actor_id, post_id, comment_id)
     select * from unnest(?::int[], ?::text[], ?::int[], ?::int[], ?::int[])`,
    [
      pgArray(wanted.map((n) => n.recipientId)),
      pgArray(wanted.map((n) => n.kind)),
      pgArray(wanted.map(() => actorId)),
      pgArray(wanted.map((n) => n.postId)),
      pgArray(wanted.map((n) => n.commentId ?? 'NULL')),
    ],
  );
  changed(tx, actorId, [...new Set(wanted.map((n) => n.recipientId))], wanted[0]!.postId);
}

/**
 * An unlike withdraws the like's notification, read or not: the bell never claims a like that no
 * longer exists (liking again notifies again).
 */
export async function withdrawLike(tx: EntityManager, actorId: number, postId: number): Promise<void> {
  const gone: { recipient_id: number }[] = await tx.execute(
    `delete from notification where post_id = ? and actor_id = ? and kind = 'LIKE' returning recipient_id`,
    [postId, actorId],
  );
  if (gone.length) changed(tx, actorId, [...new Set(gone.map((g) => g.recipient_id))], postId);
}

/**
 * A post or comment about to be deleted takes its notifications with it (the rows would go by
 * cascade; deleting them first tells the bells). `commentId`: the comment and its replies. A deleted
 * post's change names no post: there is nothing left to see.
 */
export async function withdrawAbout(
  tx: EntityManager,
  actorId: number,
  about: { postId: number; commentId?: number },
): Promise<void> {
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
