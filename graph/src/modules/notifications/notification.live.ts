import type { EventEnvelope } from '@intranet/schema/events';
import type { PayloadOf } from '@intranet/schema/events';
import { requireUser } from '../../platform/authz.js';
import type { AppContext } from '../../platform/context.js';
import { liveHub } from '../../platform/live/hub.js';
import type { NotificationsChange } from './notification.types.js';

type Payload = PayloadOf<'notification.changed'>;

/**
 * The viewer's bell, live: of the committed `notification.changed` events (one hub per instance),
 * only those naming the viewer as a recipient; each is then judged at delivery with the viewer's
 * access as it is now (a notification about a post they may not see is not told, not even its id)
 * and answered with the unread count read anew.
 */
export function notificationChanges(ctx: AppContext): AsyncIterableIterator<NotificationsChange> {
  const viewer = requireUser(ctx).id;
  const mine = liveHub(ctx.services.pubsub, 'notification').subscribe((e: EventEnvelope) => {
    const p = e.payload as Payload;
    return p.recipientIds.includes(viewer) ? p.postId : undefined;
  });
  const service = ctx.services.notifications;
  async function* deliveries(): AsyncGenerator<NotificationsChange> {
    for await (const postId of mine) {
      // Each delivery reads in a fork of its own: the subscription's context outlives any one read.
      const em = ctx.em.fork();
      const told = await service.mayTell(ctx, em, postId).catch(() => false);
      if (!told) continue;
      yield { unreadCount: await service.unreadCount(ctx, em), postId };
    }
  }
  const it = deliveries();
  // Closing the subscription ends the hub's queue too (a generator paused in `for await` would not see it before the next event).
  const end = it.return.bind(it);
  it.return = async (value?: unknown) => {
    await mine.return?.();
    return end(value as undefined);
  };
  return it;
}
