import type { Router } from 'express';
import { handle } from '../../../platform/rest.js';
import { pathId } from '../../../platform/validation.js';
import { withEngagement } from '../blog-post.routes.js';
import type { BlogPostView } from '../blog-post.types.js';
import type { Revision } from './blog-post-revision.service.js';

/** A revision as `/api` answers it (snake_case, like the post's record). */
function toApiRevision(r: Revision, withBody: boolean) {
  return {
    blog_id: r.post_id,
    version: r.version,
    saved_at: r.saved_at.toISOString(),
    saved_by_id: r.saved_by_id,
    saved_by_name: r.saved_by_name,
    restored_from: r.restored_from,
    changes: r.changes,
    title: r.title,
    ...(withBody ? { content: r.content_html, content_document: r.content } : {}),
    category_id: r.category_id,
    category_name: r.category_name,
    tag_names: r.tag_names,
    options: [...(r.allow_comments ? ['comment'] : []), ...(r.allow_likes ? ['like'] : [])].join(','),
    publish_start: r.publish_start,
    publish_end: r.publish_end,
    is_pin: r.is_pin ? 1 : 0,
    pin_start_dt: r.pin_start,
    pin_end_dt: r.pin_end,
    require_confirmation: r.require_confirmation ? 1 : 0,
    is_draft: r.is_draft ? 1 : 0,
    attachment_name: r.attachment_name,
  };
}

/**
 * GET /blogs/{id}/revisions (a page of the post's history, newest first, without the bodies),
 * GET /blogs/{id}/revisions/{version} (one, with its body), POST /blogs/{id}/revisions/{version}/restore
 * (body: the post's current `version`, or If-Match; answers the post as saved).
 */
export function blogPostRevisionRoutes(r: Router): void {
  r.get(
    '/blogs/:id/revisions',
    handle(async (ctx, req) =>
      (
        await ctx.services.blog.revisions.list(ctx, pathId(req.params.id, '投稿'), req.query.offset, req.query.limit)
      ).map((x) => toApiRevision(x, false)),
    ),
  );
  r.get(
    '/blogs/:id/revisions/:version',
    handle(async (ctx, req) =>
      toApiRevision(
        await ctx.services.blog.revisions.get(ctx, pathId(req.params.id, '投稿'), pathId(req.params.version, '版')),
        true,
      ),
    ),
  );
  r.post(
    '/blogs/:id/revisions/:version/restore',
    handle(
      async (ctx, req) => {
        const body = (req.body ?? {}) as { version?: unknown };
        const saved = await ctx.services.blog.revisions.restore(
          ctx,
          pathId(req.params.id, '投稿'),
          pathId(req.params.version, '版'),
          body.version,
        );
        return (await withEngagement(ctx, [saved]))[0];
      },
      { toApi: async (p: BlogPostView, ctx) => (await withEngagement(ctx, [p]))[0] },
    ),
  );
}
