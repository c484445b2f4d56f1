import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { requireUser } from '../../platform/authz.js';
import type { AppContext } from '../../platform/context.js';
import { Notification, NotificationPage, NotificationsChange } from './notification.types.js';
import { notificationChanges } from './notification.live.js';

/** The signed-in employee's bell: their notifications only, in every channel (HTTP and WebSocket share these resolvers). */
@Resolver(() => Notification)
export class NotificationResolver {
  @Authorized()
  @Query(() => NotificationPage, { description: '自分の通知（新しい順、見られる投稿のものだけ）と未読の数' })
  notifications(
    @Ctx() ctx: AppContext,
    @Arg('after', () => String, { nullable: true, description: '前のページの nextCursor' }) after: string | null,
    @Arg('limit', () => Int, { nullable: true, description: '1〜200（省略すると20）' }) limit: number | null,
  ): Promise<NotificationPage> {
    return ctx.services.notifications.list(ctx, after, limit);
  }

  @Authorized()
  @Query(() => Int, { description: '自分の未読の通知の数' })
  notificationUnreadCount(@Ctx() ctx: AppContext): Promise<number> {
    return ctx.services.notifications.unreadCount(ctx);
  }

  @Authorized()
  @Mutation(() => Int, {
    description: '自分の通知を既読にする（自分のものでない ID は NOT_FOUND）。今の未読の数を返す',
  })
  markNotificationsRead(@Ctx() ctx: AppContext, @Arg('ids', () => [Int]) ids: number[]): Promise<number> {
    return ctx.services.notifications.markRead(ctx, ids);
  }

  @Authorized()
  @Mutation(() => Int, { description: '自分の通知をすべて既読にする。今の未読の数（0）を返す' })
  markAllNotificationsRead(@Ctx() ctx: AppContext): Promise<number> {
    return ctx.services.notifications.markAllRead(ctx);
  }

  @Authorized()
  @Subscription(() => NotificationsChange, {
    // Only the recipients' own changes, each judged at delivery: a notification about a post the
    // viewer may not see now is not told at all (notification.live.ts).
    subscribe: ({ context }: { context: AppContext }) => {
      requireUser(context);
      return notificationChanges(context);
    },
    description:
      '自分の通知が変わった（届いた・取り消された・既読にした）。見られない投稿の通知は届かない（配信のたびに判定）',
  })
  notificationsChanged(@Root() change: NotificationsChange): NotificationsChange {
    return change;
  }
}
