import { z } from 'zod';
import { defineEvent } from './envelope.js';

const id = z.number().int();
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

const categorySnapshot = z.object({
  id,
  name: z.string(),
  color: z.string(),
  membersMayPost: z.boolean(),
  employeeIds: z.array(id),
  departmentIds: z.array(id),
  version: id,
});
export type BlogCategorySnapshot = z.infer<typeof categorySnapshot>;

const tagSnapshot = z.object({ id, content: z.string(), version: id });

/**
 * A post as the events carry it: who may see it (category, author, draft, publish window) and when
 * it is pinned, so a consumer (live feeds, the scheduler, statistics) decides without a read. The
 * content itself is not carried (it may be large; readers fetch it through the service).
 */
const postSnapshot = z.object({
  id,
  title: z.string(),
  categoryId: id.nullable(),
  authorId: id,
  isDraft: z.boolean(),
  publishStart: date,
  publishEnd: date.nullable(),
  isPin: z.boolean(),
  pinStart: date.nullable(),
  pinEnd: date.nullable(),
  tagIds: z.array(id),
  attachmentKey: z.string().nullable(),
  version: id,
});
export type BlogPostSnapshot = z.infer<typeof postSnapshot>;

export const blogCategoryCreated = defineEvent(
  'blog.category.created',
  'blog_category',
  1,
  z.object({ category: categorySnapshot }),
);
export const blogCategoryUpdated = defineEvent(
  'blog.category.updated',
  'blog_category',
  1,
  z.object({ category: categorySnapshot, previous: categorySnapshot, changed: z.array(z.string()) }),
);

export const blogTagCreated = defineEvent('blog.tag.created', 'blog_tag', 1, z.object({ tag: tagSnapshot }));
export const blogTagUpdated = defineEvent(
  'blog.tag.updated',
  'blog_tag',
  1,
  z.object({ tag: tagSnapshot, previousContent: z.string() }),
);
/** `postIds`: the posts that carried the tag (they no longer do). */
export const blogTagDeleted = defineEvent(
  'blog.tag.deleted',
  'blog_tag',
  1,
  z.object({ tag: tagSnapshot, postIds: z.array(id) }),
);

export const blogPostCreated = defineEvent('blog.post.created', 'blog_post', 1, z.object({ post: postSnapshot }));
export const blogPostUpdated = defineEvent(
  'blog.post.updated',
  'blog_post',
  1,
  z.object({ post: postSnapshot, previous: postSnapshot, changed: z.array(z.string()) }),
);
export const blogPostDeleted = defineEvent('blog.post.deleted', 'blog_post', 1, z.object({ post: postSnapshot }));

/**
 * A time-based change, recorded by the blog scheduler (workers/src/blog-schedule) once when the
 * Tokyo day it happens on arrives: `since` is the last day the scheduler had fired for (the post
 * was as `post` on that day), `day` the day it fired for. A scheduler behind by several days
 * reports the net change between the two.
 */
const transition = z.object({ post: postSnapshot, since: date, day: date });
/** The publish start arrived: the post became visible to its category. */
export const blogPostPublished = defineEvent('blog.post.published', 'blog_post', 1, transition);
/** The day after the publish end arrived: the post left its category's feeds. */
export const blogPostExpired = defineEvent('blog.post.expired', 'blog_post', 1, transition);
/** The post entered 速報 (its pin window started, or it was published inside it). */
export const blogPostPinStarted = defineEvent('blog.post.pin_started', 'blog_post', 1, transition);
/** The post left 速報 (its pin window ended, or it expired inside it). */
export const blogPostPinEnded = defineEvent('blog.post.pin_ended', 'blog_post', 1, transition);

/**
 * One employee's like, seen mark or save of a post changed (`on`: now set). Carries the post's
 * snapshot so live delivery decides who may see it without a read; a save concerns its employee only.
 */
const engagement = z.object({ post: postSnapshot, employeeId: id, on: z.boolean() });
/**
 * A like also carries the post's like count after it and its first likers (the card's 20 names), in
 * the order they liked (read in the same transaction, likes of one post serialised by a lock on the
 * post): live delivery renders every viewer's count and names from them, in commit order. Bounded,
 * so a post liked by thousands does not make every like's event carry thousands of ids. Optional:
 * events recorded before them lack both (older ones carried every liker in `likerIds`).
 */
const likeChange = engagement.extend({
  likerIds: z.array(id).optional(),
  likeCount: z.number().int().min(0).optional(),
});
export const blogPostLikeChanged = defineEvent('blog.post.like_changed', 'blog_post', 1, likeChange);
export const blogPostSeenChanged = defineEvent('blog.post.seen_changed', 'blog_post', 1, engagement);
export const blogPostSaveChanged = defineEvent('blog.post.save_changed', 'blog_post', 1, engagement);
/**
 * Required reading: one reader confirmed a 速報 post (`on`), or its author reset every confirmation
 * (`employeeId`: the author, `on` false). Its readers' counts change.
 */
export const blogPostConfirmationChanged = defineEvent('blog.post.confirmation_changed', 'blog_post', 1, engagement);

/**
 * A comment (or reply) added to a post, edited by its author, or deleted with its replies. Carries
 * the post's snapshot so live delivery decides who may see it without a read; never the comment's text.
 */
const commentChange = z.object({
  post: postSnapshot,
  commentId: id,
  parentId: id.nullable(),
  authorId: id.nullable(),
  replyIds: z.array(id),
});
export const blogCommentAdded = defineEvent('blog.comment.added', 'blog_post', 1, commentChange);
export const blogCommentEdited = defineEvent('blog.comment.edited', 'blog_post', 1, commentChange);
export const blogCommentDeleted = defineEvent('blog.comment.deleted', 'blog_post', 1, commentChange);

export const blogEventContracts = [
  blogCategoryCreated,
  blogCategoryUpdated,
  blogTagCreated,
  blogTagUpdated,
  blogTagDeleted,
  blogPostCreated,
  blogPostUpdated,
  blogPostDeleted,
  blogPostPublished,
  blogPostExpired,
  blogPostPinStarted,
  blogPostPinEnded,
  blogPostLikeChanged,
  blogPostSeenChanged,
  blogPostSaveChanged,
  blogPostConfirmationChanged,
  blogCommentAdded,
  blogCommentEdited,
  blogCommentDeleted,
] as const;
