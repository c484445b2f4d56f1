import type { Router } from 'express';
import { handle } from '../../../platform/rest.js';
import { withEngagement } from '../blog-post.routes.js';

/**
 * GET /blog_search?q=&cursor=&limit=&category_id=&author_id=&from=&to=&order=relevance|newest: the
 * posts the caller may read that contain `q`, ranked as blogSearch ranks them; each is the record of
 * GET /blogs plus `matched_in` and `snippets`. The next page's cursor is in X-Next-Cursor, as for
 * /blogs; the number found (first page, when cheap to know) in X-Total-Count.
 */
export function blogSearchRoutes(r: Router): void {
  r.get(
    '/blog_search',
    handle(async (ctx, req, res) => {
      const q = req.query as Record<string, string | undefined>;
      const page = await ctx.services.blog.search.search(ctx, q.q, q.cursor, q.limit, {
        filter: { categoryId: q.category_id, authorId: q.author_id, from: q.from, to: q.to },
        order: q.order === undefined ? undefined : q.order.toUpperCase(),
      });
      if (page.nextCursor) res.setHeader('X-Next-Cursor', page.nextCursor);
      if (page.totalCount !== null) res.setHeader('X-Total-Count', String(page.totalCount));
      const posts = await withEngagement(
        ctx,
        page.items.map((h) => h.post),
      );
      return page.items.map((h, i) => ({ ...posts[i], matched_in: h.matchedIn, snippets: h.snippets }));
    }),
  );
}
