import type { Router } from 'express';
import { bodyTable, handle, writeRoute, type RestResource } from '../../platform/rest.js';
import { deleteRoute } from '../../platform/rest-routes.js';
import { toApiTag } from './blog-tag.service.js';
import type { BlogTagView } from './blog-tag.types.js';

/** The spec's body: { tag_content } (and, optionally, the version it was loaded with). */
const tag: RestResource<BlogTagView> = {
  toApi: toApiTag,
  body: bodyTable({ content: { from: ['tag_content', 'content'] }, version: 'version' }),
};

/** GET /blog_tags?q=&offset=&limit= (a page, the total in X-Total-Count), POST /blog_tags, GET/PUT/DELETE /blog_tags/{id}. POST answers the tag with its tag_id. */
export function blogTagRoutes(r: Router): void {
  r.get(
    '/blog_tags',
    handle(async (ctx, req, res) => {
      const q = req.query as Record<string, string | undefined>;
      const page = await ctx.services.blog.tags.list(ctx, { query: q.q, offset: q.offset, limit: q.limit });
      res.setHeader('X-Total-Count', String(page.total));
      return page.items.map(toApiTag);
    }),
  );
  r.get(
    '/blog_tags/:id',
    handle(async (ctx, req) => toApiTag(await ctx.services.blog.tags.get(ctx, Number(req.params.id)))),
  );
  r.post(
    '/blog_tags',
    writeRoute(tag, (ctx, input) => ctx.services.blog.tags.create(ctx, input), 201),
  );
  r.put(
    '/blog_tags/:id',
    writeRoute(tag, (ctx, input, req) => ctx.services.blog.tags.update(ctx, Number(req.params.id), input)),
  );
  r.delete(
    '/blog_tags/:id',
    deleteRoute('tag_id', 'タグ', (ctx, id) => ctx.services.blog.tags.delete(ctx, [id])),
  );
}
