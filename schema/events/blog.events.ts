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

export const blogCategoryCreated = defineEvent('blog.category.created', 'blog_category', 1, z.object({ category: categorySnapshot }));
export const blogCategoryUpdated = defineEvent(
  'blog.category.updated',
  'blog_category',
  1,
  z.object({ category: categorySnapshot, previous: categorySnapshot, changed: z.array(z.string()) }),
);

export const blogTagCreated = defineEvent('blog.tag.created', 'blog_tag', 1, z.object({ tag: tagSnapshot }));
export const blogTagUpdated = defineEvent('blog.tag.updated', 'blog_tag', 1, z.object({ tag: tagSnapshot, previousContent: z.string() }));
/** `postIds`: the posts that carried the tag (they no longer do). */
export const blogTagDeleted = defineEvent('blog.tag.deleted', 'blog_tag', 1, z.object({ tag: tagSnapshot, postIds: z.array(id) }));

export const blogPostCreated = defineEvent('blog.post.created', 'blog_post', 1, z.object({ post: postSnapshot }));
export const blogPostUpdated = defineEvent(
  'blog.post.updated',
  'blog_post',
  1,
  z.object({ post: postSnapshot, previous: postSnapshot, changed: z.array(z.string()) }),
);
export const blogPostDeleted = defineEvent('blog.post.deleted', 'blog_post', 1, z.object({ post: postSnapshot }));

export const blogEventContracts = [
  blogCategoryCreated,
  blogCategoryUpdated,
  blogTagCreated,
  blogTagUpdated,
  blogTagDeleted,
  blogPostCreated,
  blogPostUpdated,
  blogPostDeleted,
] as const;
