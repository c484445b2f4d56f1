/**
 * The likes bench's frames (blogChanged, ENGAGEMENT_CHANGED of the bench's posts): keyed by
 * `postId:likeCount` (each change is one more like, by a new liker). Only the members of the posts'
 * category and its author may receive them; a delivery to anyone else is a leak (load-gen.ts). Each
 * delivery is checked in its viewer's own view: likeCount = the likers listed, likedByMe = the viewer
 * is among them, canEdit-free card fields the same for everyone, the author's name and the category.
 */
import type { FrameKind } from '../live/frames.js';

/** Sent by the bench before the changes. */
export interface LikeExpect {
  postIds: number[];
  authorId: number;
  /** Who may see the post: its category's members (the author is one). */
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

export const frames: FrameKind = {
  field: 'blogChanged',
  keyOf: (change: { kind: string; postId: number | null; post: Card | null }) =>
    change.kind === 'ENGAGEMENT_CHANGED' && change.post ? `${change.postId}:${change.post.likeCount}` : undefined,
  expect(x) {
    expected = x as LikeExpect;
    members = new Set(expected.members);
  },
  receives: (viewer) => members.has(viewer),
  check(viewer, _raw, change: { postId: number; post: Card }) {
    const p = change.post;
    const liked = p.likers.some((l) => l.id === viewer);
    const cls = `${viewer === expected?.authorId ? 'author' : 'member'}${liked ? ':liked' : ''}`;
    const problems: string[] = [];
    if (!expected?.postIds.includes(change.postId) || p.id !== change.postId) problems.push(`post ${p.id}`);
    if (p.likeCount !== p.likers.length) problems.push(`likeCount ${p.likeCount} with ${p.likers.length} likers`);
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
