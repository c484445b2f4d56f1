/**
 * The feed bench's data: active employees up to `employees`, then the blog at scale
 * (graph/src/db/seeders/blog-at-scale.ts, the seeder of the feed's scale test) with the demo
 * company's `staff` as the viewer in 5 of 30 categories, then its likes, seen marks, saves and
 * comments (engagement-data.ts).
 */
import { seedBlogAtScale, type BlogAtScale, tokyoToday } from '@intranet/graph/areas';
import { openOrm } from '@intranet/graph';
import { ensureActiveEmployees, withClient, type BenchDatabase } from '../lib/database.js';
import { seedEngagement, type EngagementAtScale } from './engagement-data.js';

export const VIEWER_LOGIN = 'staff';

export async function prepareFeedData(
  db: BenchDatabase,
  o: { employees: number; posts: number },
): Promise<BlogAtScale & { employees: number; today: string; engagement: EngagementAtScale }> {
  const counts = await withClient(db.url, (c) => ensureActiveEmployees(c, o.employees));
  const orm = await openOrm(db.url, 2);
  try {
    const today = tokyoToday();
    const seeded = await seedBlogAtScale(orm.em.fork(), {
      posts: o.posts,
      today,
      viewerLogin: VIEWER_LOGIN,
      categories: 30,
      viewerCategories: 5,
    });
    const engagement = await withClient(db.url, (c) =>
      seedEngagement(c, { today, viewerId: seeded.viewerId, readable: seeded.readable }),
    );
    return { ...seeded, employees: counts.total, today, engagement };
  } finally {
    await orm.close();
  }
}
