import type { Router } from 'express';
import { handle } from '../../../platform/rest.js';
import { queryId } from '../../../platform/validation.js';

/**
 * GET /blog_mention_candidates?q=&category_id= (a post being written) or &blog_id= (a comment on it):
 * whom one may mention there (blog-mention.service.ts).
 */
export function blogMentionRoutes(r: Router): void {
  r.get(
    '/blog_mention_candidates',
    handle(async (ctx, req) => {
      const q = req.query as Record<string, string | undefined>;
      const found = await ctx.services.blog.mentions.candidates(ctx, {
        query: q.q,
        categoryId: queryId(q.category_id, 'category_id') ?? null,
        postId: queryId(q.blog_id, 'blog_id') ?? null,
        limit: q.limit === undefined || q.limit === '' ? undefined : /^\d+$/.test(q.limit) ? Number(q.limit) : NaN,
      });
      return found.map((c) => ({ employee_id: c.id, name: c.name, department_name: c.departmentName }));
    }),
  );
}
