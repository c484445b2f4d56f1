import { pipeline } from 'node:stream/promises';
import type { Router } from 'express';
import { bodyTable, handle, writeRoute, type RestResource } from '../../platform/rest.js';
import { queryBool, queryId } from '../../platform/validation.js';
import { deleteRoute, fileRoutes } from '../../platform/rest-routes.js';
import { BlogFeedScope } from './blog.enums.js';
import { attachmentFromRest } from './blog-post.attachment.js';
import { contentFromRest } from './blog-post.content.js';
import { POST_FIELDS as F } from './blog-post.fields.js';
import type { BlogPostView } from './blog-post.types.js';
import type { AppContext } from '../../platform/context.js';
import { requireUser } from '../../platform/authz.js';
import { isNewFor } from './engagement/blog-engagement.service.js';

/** A mentioned person as `/api` names them. */
export const toApiMention = (m: { id: number; name: string }) => ({ employee_id: m.id, name: m.name });

/** The spec's `/api` record of a post (snake_case; content as sanitized HTML, the Editor.js document beside it). */
export function toApiPost(p: BlogPostView) {
  return {
    blog_id: p.id,
    title: p.title,
    content: p.contentHtml,
    content_document: p.content,
    category_id: p.category?.id ?? null,
    category_name: p.category?.name ?? null,
    category_color: p.category?.color ?? null,
    author_id: p.author.id,
    author_name: p.author.name,
    author_department: p.author.departmentName,
    options: [...(p.allowComments ? ['comment'] : []), ...(p.allowLikes ? ['like'] : [])].join(','),
    publish_start: p.publishStart,
    publish_end: p.publishEnd,
    has_publish_end: p.publishEnd !== null,
    is_pin: p.isPin ? 1 : 0,
    require_confirmation: p.requireConfirmation ? 1 : 0,
    pin_start_dt: p.pinStart,
    pin_end_dt: p.pinEnd,
    pinned: p.pinned,
    state: p.state,
    state_label: p.stateLabel,
    is_draft: p.state === 'DRAFT' ? 1 : 0,
    blog_tags: p.tags.map((t) => t.id).join(','),
    tags: p.tags.map((t) => ({ tag_id: t.id, tag_content: t.content })),
    mentions: p.mentions.map(toApiMention),
    // The spec's one-file JSON string, with a URL where the old client had the bytes.
    upload_files: p.attachment
      ? JSON.stringify([{ uid: String(p.id), name: p.attachment.name, url: p.attachment.url, type: p.attachment.type }])
      : null,
    attachment: p.attachment
      ? {
          name: p.attachment.name,
          type: p.attachment.type,
          size: p.attachment.size,
          url: p.attachment.url,
          thumbnail_url: p.attachment.thumbnailUrl,
        }
      : null,
    edit_date: p.updatedAt.toISOString(),
    created_at: p.createdAt.toISOString(),
    version: p.version,
    can_edit: p.canEdit,
    can_delete: p.canDelete,
  };
}

/**
 * Posts as `/api` reads them: the record plus likes_employee_ids, seen_employee_ids, the caller's
 * is_save, and what a tool needs without a second call: comment_count, is_new (New! for the caller:
 * the feed's rule), confirmed_count and is_confirmed (required reading).
 */
export async function withEngagement(ctx: AppContext, posts: BlogPostView[]) {
  const viewer = requireUser(ctx).id;
  const extra = await ctx.services.blog.engagement.forApi(
    ctx,
    posts.map((p) => p.id),
  );
  return posts.map((p) => {
    const { marks, ...e } = extra.get(p.id)!;
    return {
      ...toApiPost(p),
      ...e,
      is_new: isNewFor({ state: p.state, authorId: p.author.id }, viewer, marks) ? 1 : 0,
    };
  });
}

/**
 * The spec's body (title, content, category_id, author_id, options, publish_start_date,
 * hasPublishEnd, publish_end_date, is_pin, pin_start_dt, pin_end_dt, blog_tags, upload_files) → the service's
 * input. author_id, when sent, must be the signed-in employee; likes_employee_ids is not written
 * here (likes toggle on their own route, issue 26).
 */
const post: RestResource<BlogPostView> = {
  toApi: async (p, ctx) => (await withEngagement(ctx, [p]))[0],
  body: bodyTable({
    title: F.title.body,
    content: { from: 'content', read: (v) => contentFromRest(v) },
    categoryId: F.categoryId.body,
    authorId: 'author_id',
    tagIds: F.tagIds.body,
    allowComments: F.allowComments.body,
    allowLikes: F.allowLikes.body,
    publishStart: F.publishStart.body,
    publishEnd: F.publishEnd.body,
    isPin: F.isPin.body,
    pinStart: F.pinStart.body,
    pinEnd: F.pinEnd.body,
    isDraft: F.isDraft.body,
    requireConfirmation: F.requireConfirmation.body,
    attachment: { from: 'upload_files', read: (v) => attachmentFromRest(v) },
    version: 'version',
  }),
};

/** GET/POST /blogs, GET/PUT/DELETE /blogs/{id}, GET /blogs/{id}/attachment (and /thumbnail): the file, to those who may read the post; POST /blog_images, GET /blog_images/{file}: the body's pictures. */
export function blogPostRoutes(r: Router): void {
  r.get(
    '/blogs',
    handle(async (ctx, req, res) => {
      const q = req.query as Record<string, string | undefined>;
      const page = await ctx.services.blog.posts.feed(
        ctx,
        {
          scope: queryBool(q.saved, 'saved')
            ? BlogFeedScope.SAVED
            : queryBool(q.mine, 'mine')
              ? BlogFeedScope.MINE
              : BlogFeedScope.ALL,
          title: q.title,
          tagId: queryId(q.tag_id, 'tag_id'),
          categoryId: queryId(q.category_id, 'category_id'),
          departmentId: queryId(q.department_id, 'department_id'),
          includeOutsideWindow: queryBool(q.include_outside_window, 'include_outside_window'),
          withoutPinned: queryBool(q.without_pinned, 'without_pinned'),
        },
        q.cursor,
        q.limit,
      );
      if (page.nextCursor) res.setHeader('X-Next-Cursor', page.nextCursor);
      return withEngagement(ctx, page.items);
    }),
  );
  fileRoutes(r, '/blogs/:id/attachment', (ctx, id, thumbnail) =>
    ctx.services.blog.posts.attachment(ctx, id, thumbnail),
  );
  r.post(
    '/blog_images',
    handle(async (ctx, req) => {
      const b = (req.body ?? {}) as Record<string, unknown>;
      // The answer of Editor.js's image tool: { success: 1, file: { url } }.
      return { success: 1, file: await ctx.services.blog.images.upload(ctx, { name: b.name, dataUrl: b.data_url }) };
    }, 201),
  );
  r.get(
    '/blog_images/:file',
    handle(async (ctx, req, res) => {
      const image = await ctx.services.blog.posts.image(ctx, String(req.params.file));
      res.set(image.headers);
      await pipeline(image.stream, res);
    }),
  );
  r.get(
    '/blogs/:id',
    handle(async (ctx, req) => post.toApi(await ctx.services.blog.posts.get(ctx, Number(req.params.id)), ctx)),
  );
  r.post(
    '/blogs',
    writeRoute(post, (ctx, input) => ctx.services.blog.posts.create(ctx, input), 201),
  );
  r.put(
    '/blogs/:id',
    writeRoute(post, (ctx, input, req) => ctx.services.blog.posts.update(ctx, Number(req.params.id), input)),
  );
  r.delete(
    '/blogs/:id',
    deleteRoute('blog_id', '投稿', (ctx, id) => ctx.services.blog.posts.delete(ctx, id)),
  );
}
