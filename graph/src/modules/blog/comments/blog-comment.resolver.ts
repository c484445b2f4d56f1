import { Arg, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../../platform/context.js';
import { BlogPostView } from '../blog-post.types.js';
import { BlogComment, BlogCommentInput, BlogCommentPage, BlogCommentReplyPage } from './blog-comment.types.js';
import { COMMENT_PAGE, REPLY_PAGE } from '../../../platform/comment-thread.js';

/**
 * Comments of a post (見られない投稿は NOT_FOUND) and commentCount on every post view, batched
 * per request. Attachments are added through POST /api/comments (GraphQL bodies are capped at 2 MB).
 */
@Resolver(() => BlogPostView)
export class BlogCommentResolver {
  @FieldResolver(() => Int, { description: 'コメントの数（返信を含む）' })
  async commentCount(@Ctx() ctx: AppContext, @Root() p: BlogPostView): Promise<number> {
    return p.engagement?.commentCount ?? ctx.services.blog.comments.count(ctx, p.id);
  }

  @Authorized()
  @Query(() => BlogCommentPage, {
    description: '投稿のコメントの1ページ（古い順、それぞれ最初の返信つき）。見られない投稿は NOT_FOUND',
  })
  blogComments(
    @Ctx() ctx: AppContext,
    @Arg('postId', () => Int) postId: number,
    @Arg('after', () => String, { nullable: true, description: '前のページの nextCursor' }) after: string | null,
    @Arg('limit', () => Int, {
      nullable: true,
      description: `1〜${COMMENT_PAGE.max}（省略すると${COMMENT_PAGE.fallback}）`,
    })
    limit: number | null,
  ): Promise<BlogCommentPage> {
    return ctx.services.blog.comments.list(ctx, postId, after, limit);
  }

  @Authorized()
  @Query(() => BlogCommentReplyPage, {
    description: 'コメントへの返信の1ページ（古い順）。見られない投稿のコメントは NOT_FOUND',
  })
  blogCommentReplies(
    @Ctx() ctx: AppContext,
    @Arg('commentId', () => Int) commentId: number,
    @Arg('after', () => String, { nullable: true, description: '前のページの nextCursor' }) after: string | null,
    @Arg('limit', () => Int, {
      nullable: true,
      description: `1〜${REPLY_PAGE.max}（省略すると${REPLY_PAGE.fallback}）`,
    })
    limit: number | null,
  ): Promise<BlogCommentReplyPage> {
    return ctx.services.blog.comments.replies(ctx, commentId, after, limit);
  }

  @Authorized()
  @Mutation(() => BlogComment, {
    description:
      'コメント・返信する（コメントを受け付けない投稿は FORBIDDEN、空は BAD_USER_INPUT）。返信への返信は元のコメントに付く',
  })
  addBlogComment(
    @Ctx() ctx: AppContext,
    @Arg('input', () => BlogCommentInput) input: BlogCommentInput,
  ): Promise<BlogComment> {
    return ctx.services.blog.comments.add(ctx, {
      postId: input.postId,
      content: input.content,
      parentId: input.parentId ?? null,
      mentionIds: input.mentionIds,
    });
  }

  @Authorized()
  @Mutation(() => BlogComment, {
    description:
      'コメント・返信の本文を編集する（コメントした本人だけ: 他の人は FORBIDDEN。添付はそのまま。編集すると editedAt が付く）',
  })
  editBlogComment(
    @Ctx() ctx: AppContext,
    @Arg('id', () => Int) id: number,
    @Arg('content', { description: '本文（空白だけは不可、2000 文字以内）' }) content: string,
    @Arg('mentionIds', () => [Int], {
      nullable: true,
      description: 'メンションする社員の ID（省略すると、新しい本文にまだ @氏名 が書かれている人のメンションを残す）',
    })
    mentionIds: number[] | null,
  ): Promise<BlogComment> {
    return ctx.services.blog.comments.edit(ctx, id, content, mentionIds);
  }

  @Authorized()
  @Mutation(() => Boolean, { description: 'コメントを削除する（返信も消える）。コメントした本人と投稿の作成者だけ' })
  deleteBlogComment(@Ctx() ctx: AppContext, @Arg('id', () => Int) id: number): Promise<boolean> {
    return ctx.services.blog.comments.delete(ctx, id);
  }
}
