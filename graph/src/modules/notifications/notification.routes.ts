import type { Router } from 'express';
import { badInput } from '../../platform/errors.js';
import { handle } from '../../platform/rest.js';
import { cursorPage } from '../../platform/rest-routes.js';
import type { Notification } from './notification.types.js';

/** The `/api` record of one bell item (the REST facade's snake_case; the post as blog_id, as elsewhere, or the profile). */
function toApiNotification(n: Notification): Record<string, unknown> {
  return {
    notification_id: n.id,
    kind: n.kind,
    actor: n.actor,
    actors: n.actors,
    actor_count: n.actorCount,
    blog_id: n.postId,
    blog_title: n.postTitle,
    profile_id: n.profileId,
    comment_id: n.commentId,
    excerpt: n.excerpt,
    created_at: n.createdAt.toISOString(),
    read: n.read,
  };
}

/** GET /notifications (the caller's bell, newest first, keyset paged) and POST /notifications/read. */
export function notificationRoutes(r: Router): void {
  r.get(
    '/notifications',
    handle(async (ctx, req, res) => {
      const q = req.query as Record<string, string | undefined>;
      const page = await ctx.services.notifications.list(ctx, q.cursor, q.limit);
      res.setHeader('X-Unread-Count', String(page.unreadCount));
      return cursorPage(res, page, toApiNotification);
    }),
  );
  r.post(
    '/notifications/read',
    handle(async (ctx, req) => {
      const body = (req.body ?? {}) as { ids?: unknown; all?: unknown };
      const keys = Object.keys(body);
      if (keys.length === 1 && body.all === true)
        return { unread_count: await ctx.services.notifications.markAllRead(ctx) };
      if (keys.length !== 1 || !Array.isArray(body.ids)) {
        throw badInput('既読にする通知を ids（通知IDの配列）か all: true のどちらか一つで指定してください。', [
          { field: keys.find((k) => k !== 'ids') ?? 'ids', message: '通知IDの配列' },
        ]);
      }
      if (!body.ids.every((id) => typeof id === 'number'))
        throw badInput('ids は通知IDの配列で指定してください。', [{ field: 'ids', message: '通知IDの配列' }]);
      return { unread_count: await ctx.services.notifications.markRead(ctx, body.ids as number[]) };
    }),
  );
}
