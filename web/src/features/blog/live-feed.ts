import type { BlogChangedSubscription } from '../../gql/graphql';
import type { BlogCardPost } from './BlogCard';

export type BlogChange = BlogChangedSubscription['blogChanged'];
/** A post as the subscription sends it: the card's fields and its tags. */
export type LivePost = NonNullable<BlogChange['post']>;

/** Feed order, as the server sorts: pinned first, then newest publish start, then newest id. */
export function compareFeed(a: BlogCardPost, b: BlogCardPost): number {
  if (a.pinned !== b.pinned) return a.pinned ? -1 : 1;
  if (a.publishStart !== b.publishStart) return a.publishStart > b.publishStart ? -1 : 1;
  return b.id - a.id;
}

/** 速報's order: newest publish start, then newest id. */
const comparePinned = (a: BlogCardPost, b: BlogCardPost) =>
  a.publishStart !== b.publishStart ? (a.publishStart > b.publishStart ? -1 : 1) : b.id - a.id;

/** Puts `post` at its place in an ordered list (without the old copy of it). */
function place<T extends BlogCardPost>(list: readonly T[], post: T, compare: (a: T, b: T) => number): T[] {
  const rest = list.filter((p) => p.id !== post.id);
  const at = rest.findIndex((p) => compare(post, p) < 0);
  return at < 0 ? [...rest, post] : [...rest.slice(0, at), post, ...rest.slice(at)];
}

/**
 * The feed's loaded cards after one change: a post the viewer may no longer see, or that the
 * server says is not on this feed (`inFeed`, judged by blogFeed's own rule against the feed's
 * filter), leaves; an edited one is replaced (and moves if its order changed); a new one is
 * inserted at its place — unless it would come after the last loaded card while more pages follow
 * (paging brings it then).
 */
export function applyToFeed(
  items: readonly BlogCardPost[],
  change: BlogChange,
  o: { more: boolean },
): readonly BlogCardPost[] {
  if (change.kind === 'CATEGORY_UPDATED' && change.category) {
    const c = change.category;
    return items.some((p) => p.category?.id === c.id)
      ? items.map((p) => (p.category?.id === c.id ? { ...p, category: c } : p))
      : items;
  }
  if (change.postId == null) return items;
  const id = change.postId;
  const shown = items.some((p) => p.id === id);
  const post = change.post;
  if (!post || change.inFeed !== true) return shown ? items.filter((p) => p.id !== id) : items;
  const next = place(items, post, compareFeed);
  if (!shown && o.more && next[next.length - 1]?.id === id) return items;
  return next;
}

/** 速報 after one change: the post is there exactly while it is pinned (and visible to the viewer). */
export function applyToPinned(list: readonly BlogCardPost[], change: BlogChange): readonly BlogCardPost[] {
  if (change.kind === 'CATEGORY_UPDATED') return applyToFeed(list, change, { more: false });
  if (change.postId == null) return list;
  const post = change.post;
  if (post?.pinned) return place(list, post, comparePinned);
  return list.some((p) => p.id === change.postId) ? list.filter((p) => p.id !== change.postId) : list;
}

/** The post a dialog shows after one change: the new version, or null when it went away. */
export function applyToShown(shown: BlogCardPost, change: BlogChange): BlogCardPost | null {
  if (change.kind === 'CATEGORY_UPDATED' && change.category && shown.category?.id === change.category.id)
    return { ...shown, category: change.category };
  if (change.postId !== shown.id) return shown;
  return change.post ?? null;
}
