/**
 * The likes bench's frames (blogChanged, ENGAGEMENT_CHANGED of the bench's posts): keyed by
 * `postId:likeCount` (each change is one more like, by a new liker). Only the members of the posts'
 * category and its author may receive them; a delivery to anyone else is a leak (load-gen.ts). Each
 * delivery is checked in its viewer's own view: the likers listed are the first of those who liked (at
 * most LIKERS_SHOWN, the rest counted), likedByMe = the viewer is among the first likeCount members
 * (the bench's likes go down the members' list), the author's name and the category.
 */
import { LIKERS_SHOWN } from '@intranet/graph/areas';
import type { FrameKind } from '../live/frames.js';

/** Sent by the bench before the changes. */
export interface LikeExpect {
  postIds: number[];
  authorId: number;
  /** Who may see the post: its category's members (the author is one), in the order they like each post. */
  members: number[];
}

interface Card {
  id: number;
  likeCount: number;
  likedByMe: boolean;
  likers: { id: number }[];
  author: { id: number };
  isNew: boolean;
  saved: boolean;
}

let expected: LikeExpect | undefined;
let members = new Set<number>();
let likeOrder = new Map<number, number>();

export const frames: FrameKind = {
  field: 'blogChanged',
  keyOf: (change: { kind: string; postId: number | null; post: Card | null }) =>
    change.kind === 'ENGAGEMENT_CHANGED' && change.post ? `${change.postId}:${change.post.likeCount}` : undefined,
  expect(x) {
    expected = x as LikeExpect;
    members = new Set(expected.members);
    likeOrder = new Map(expected.members.map((id, k) => [id, k]));
  },
  receives: (viewer) => members.has(viewer),
  check(viewer, _raw, change: { postId: number; post: Card }) {
    const p = change.post;
    const liked = (likeOrder.get(viewer) ?? Infinity) < p.likeCount;
    const cls = `${viewer === expected?.authorId ? 'author' : 'member'}${liked ? ':liked' : ''}`;
    const problems: string[] = [];
    if (!expected?.postIds.includes(change.postId) || p.id !== change.postId) problems.push(`post ${p.id}`);
    const shown = expected!.members.slice(0, Math.min(p.likeCount, LIKERS_SHOWN));
    if (p.likers.map((l) => l.id).join() !== shown.join())
      problems.push(`likeCount ${p.likeCount} with likers ${p.likers.map((l) => l.id).join()}`);
    if (p.likedByMe !== liked) problems.push(`likedByMe ${p.likedByMe}`);
    if (p.author.id !== expected?.authorId) problems.push(`author ${p.author.id}`);
    if (p.saved) problems.push('saved');
    return {
      cls,
      problem: problems.length
        ? `viewer ${viewer} (${cls}) of post ${change.postId}: ${problems.join(', ')}`
        : undefined,
    };
  },
};
