import { defineArea, type AreaSetup } from '../../platform/area.js';
import type { BlogPostReads } from '../blog/blog-post.reads.js';
import { NotificationResolver } from './notification.resolver.js';
import { notificationRoutes } from './notification.routes.js';
import { NotificationService } from './notification.service.js';

/**
 * Notifications (the header's bell): written by the services whose changes cause them
 * (notification.writes.ts, in their transaction), read and followed here by their recipient only.
 * After the blog: it judges each notification by the blog's visibility rule.
 */
export const notificationsArea = defineArea({
  name: 'notifications',
  resolvers: [NotificationResolver],
  routes: notificationRoutes,
  services: ({ blog }: AreaSetup & { blog: { posts: BlogPostReads } }) => ({
    notifications: new NotificationService(blog.posts),
  }),
});
