import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventEnvelope } from '@intranet/schema/events';
import { EventConsumer } from '@intranet/graph/events';
import { refreshPosts } from '@intranet/graph/areas';

/**
 * Keeps the blog statistics' rollups (statistics.rollup.ts): each like, first view and comment
 * event refreshes its post's rows from the source tables, once per post per batch. A post's other
 * changes (category, title, publish window, deletion) need nothing here: the reports join the post
 * as it is now, and a deleted post's rows go with it.
 */
export class StatisticsConsumer extends EventConsumer {
  readonly name = 'statistics';
  readonly handles = ['blog.post.like_changed', 'blog.post.seen_changed', 'blog.comment.added', 'blog.comment.deleted'] as const;

  handle(event: EventEnvelope, tx: EntityManager): Promise<void> {
    return this.handleBatch([event], tx);
  }

  override async handleBatch(events: EventEnvelope[], tx: EntityManager): Promise<void> {
    // Taking a seen mark back leaves the first view where it was: nothing to refresh.
    const posts = events.filter((e) => !(e.type === 'blog.post.seen_changed' && !(e.payload as { on: boolean }).on)).map((e) => (e.payload as { post: { id: number } }).post.id);
    await refreshPosts(tx, posts);
  }
}
