import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventEnvelope } from '@intranet/schema/events';
import { EventConsumer } from '@intranet/graph/events';
import { refreshPosts } from '@intranet/graph/areas';

/**
 * Keeps the blog statistics' rollups (statistics.rollup.ts): each event that changes what a post
 * counts — a like or unlike, a first view, a comment or its deletion, and the post's creation, edit
 * (its category, publish start or draft state), and deletion — refreshes that post's rows from the
 * source tables, once per post per batch. Visibility is not in the rollups: the reports apply it.
 */
export class StatisticsConsumer extends EventConsumer {
  readonly name = 'statistics';
  readonly handles = [
    'blog.post.like_changed',
    'blog.post.seen_changed',
    'blog.comment.added',
    'blog.comment.deleted',
    'blog.post.created',
    'blog.post.updated',
    'blog.post.deleted',
  ] as const;

  handle(event: EventEnvelope, tx: EntityManager): Promise<void> {
    return this.handleBatch([event], tx);
  }

  override async handleBatch(events: EventEnvelope[], tx: EntityManager): Promise<void> {
    // Taking a seen mark back leaves the first view where it was: nothing to refresh.
    const posts = events
      .filter((e) => !(e.type === 'blog.post.seen_changed' && !(e.payload as { on: boolean }).on))
      .map((e) => (e.payload as { post: { id: number } }).post.id);
    await refreshPosts(tx, posts);
  }
}
