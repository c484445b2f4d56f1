import type { CurrentUser } from '../auth/session.service.js';
import { BlogPostState, isBlogAdmin } from './blog.enums.js';
import type { CategoryAccess } from './blog-category.service.js';
import { pgArray } from '../../platform/sql.js';
import { SQL, stateOf, type PostWindow } from './blog-post.rules.js';

/**
 * The one visibility rule of a post, for every channel (feed, detail, GraphQL, REST, and the
 * attachment URLs): its author sees it always (drafts too); otherwise only the members of its
 * category, and only while it is published — 管理者 and システム管理者 who are members also see
 * it scheduled and expired (the view marks the state). A post one may not see is NOT_FOUND, never
 * FORBIDDEN: its existence stays private. The feed's SQL states the same rule (blog-post.feed.ts),
 * search's is `readableSql` below.
 */
export function mayRead(
  viewer: Pick<CurrentUser, 'id' | 'role'>,
  access: Pick<CategoryAccess, 'readable'>,
  post: Pick<PostWindow, 'isDraft' | 'publishStart' | 'publishEnd'> & { authorId: number; categoryId: number | null },
  today: string,
): boolean {
  if (post.authorId === viewer.id) return true;
  if (post.isDraft || post.categoryId === null || !access.readable.includes(post.categoryId)) return false;
  return stateOf(post, today) === BlogPostState.PUBLISHED || isBlogAdmin(viewer.role);
}

/**
 * `mayRead` in SQL over `p` (blog_post), for reads that choose posts in the database (search): the
 * same three cases, with the viewer's readable categories and today bound. Keep the two together.
 */
export function readableSql(
  viewer: Pick<CurrentUser, 'id' | 'role'>,
  access: Pick<CategoryAccess, 'readable'>,
  today: string,
): { sql: string; params: unknown[] } {
  const inWindow = isBlogAdmin(viewer.role) ? '' : ` and ${SQL.inWindow}`;
  return {
    sql: `(p.author_id = ? or (not p.is_draft and p.category_id = any(?::int[])${inWindow}))`,
    params: [viewer.id, pgArray(access.readable), ...(inWindow ? [today, today] : [])],
  };
}
