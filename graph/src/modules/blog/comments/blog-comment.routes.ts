import type { Router } from 'express';
import { badInput, forbidden } from '../../../platform/errors.js';
import { handle } from '../../../platform/rest.js';
import { bodyId, bodyIds, checkId, pathId } from '../../../platform/validation.js';
import { toApiMention } from '../blog-post.routes.js';
import { cursorPage, deleteRoute, fileRoutes } from '../../../platform/rest-routes.js';
import { attachmentFromDataUrl } from '../blog-post.attachment.js';
import type { BlogComment } from './blog-comment.types.js';

/** The spec's `/api` record of a comment (the attachment as its URL, never the bytes). */
function toApiComment(c: BlogComment): Record<string, unknown> {
  return {
    comment_id: c.id,
    blog_id: c.postId,
    user_id: c.author.id,
    username: c.author.name,
    content: c.content,
    parent_comment_id: c.parentId,
    attachment: c.attachment?.url ?? null,
    attachment_type: c.attachment?.type ?? null,
    attachment_filename: c.attachment?.name ?? null,
    attachment_thumbnail: c.attachment?.thumbnailUrl ?? null,
    created_at: c.createdAt.toISOString(),
    edited_at: c.editedAt?.toISOString() ?? null,
    mentions: c.mentions.map(toApiMention),
    can_edit: c.canEdit,
    can_delete: c.canDelete,
    replies: c.replies.map(toApiComment),
    reply_count: c.replyCount,
  };
}

/**
 * GET /comments/{blog_id}, POST /comments, PUT /comments/{comment_id} (its author edits the text),
 * DELETE /comments/{comment_id},
 * GET /comments/{comment_id}/attachment (and /thumbnail): to those who may read the post.
 */
export function blogCommentRoutes(r: Router): void {
  fileRoutes(r, '/comments/:id/attachment', (ctx, id, thumbnail) =>
    ctx.services.blog.comments.attachment(ctx, id, thumbnail),
  );
  r.get(
    // The spec's /comments/{blog_id}: the same path as DELETE /comments/{comment_id}, so one parameter name.
    '/comments/:id',
    handle(async (ctx, req, res) => {
      const blogId = Number(req.params.id);
      checkId(blogId, '投稿');
      const q = req.query as Record<string, string | undefined>;
      const p = await ctx.services.blog.comments.list(ctx, blogId, q.cursor, q.limit);
      res.setHeader('X-Total-Count', String(p.totalCount));
      return cursorPage(res, p, toApiComment);
    }),
  );
  r.get(
    '/comments/:id/replies',
    handle(async (ctx, req, res) => {
      const q = req.query as Record<string, string | undefined>;
      return cursorPage(
        res,
        await ctx.services.blog.comments.replies(ctx, Number(req.params.id), q.cursor, q.limit),
        toApiComment,
      );
    }),
  );
  r.post(
    '/comments',
    handle(async (ctx, req) => {
      const b = (req.body ?? {}) as Record<string, unknown>;
      const userId = bodyId(b.user_id, 'user_id');
      // The spec's user_id names the commenter: only the signed-in employee comments as themself.
      if (userId !== null && userId !== ctx.user?.id)
        throw forbidden('user_id はログイン中の社員の ID にしてください（ほかの社員としてはコメントできません）。');
      const blogId = bodyId(b.blog_id, 'blog_id');
      if (blogId === null) throw badInput('blog_id を指定してください。', [{ field: 'blog_id', message: '必須' }]);
      const comment = await ctx.services.blog.comments.add(ctx, {
        postId: blogId,
        content: b.content,
        parentId: bodyId(b.parent_comment_id, 'parent_comment_id'),
        attachment: attachmentFromDataUrl(b.attachment, b.attachment_filename),
        mentionIds: bodyIds(b.mention_ids, 'mention_ids'),
      });
      return toApiComment(comment);
    }, 201),
  );
  r.put(
    '/comments/:id',
    handle(async (ctx, req) => {
      const b = (req.body ?? {}) as Record<string, unknown>;
      if (b.attachment !== undefined || b.attachment_filename !== undefined)
        throw badInput('コメントの添付は編集できません（本文だけ）。', [
          { field: 'attachment', message: '指定できません' },
        ]);
      const id = pathId(req.params.id, 'コメント');
      return toApiComment(
        await ctx.services.blog.comments.edit(ctx, id, b.content, bodyIds(b.mention_ids, 'mention_ids')),
      );
    }),
  );
  r.delete(
    '/comments/:id',
    deleteRoute('comment_id', 'コメント', (ctx, id) => ctx.services.blog.comments.delete(ctx, id)),
  );
}
