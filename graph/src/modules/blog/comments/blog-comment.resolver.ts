import { Arg, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../../platform/context.js';
import { BlogPostView } from '../blog-post.types.js';
import { BlogComment, BlogCommentInput } from './blog-comment.types.js';

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
  @Query(() => [BlogComment], { description: '投稿のコメント（古い順、それぞれに返信）。見られない投稿は NOT_FOUND' })
  blogComments(@Ctx() ctx: AppContext, @Arg('postId', () => Int) postId: number): Promise<BlogComment[]> {
    return ctx.services.blog.comments.list(ctx, postId);
  }

  @Authorized()
  @Mutation(() => BlogComment, {
    description: 'コメント・返信する（コメントを受け付けない投稿は FORBIDDEN、空は BAD_USER_INPUT）。返信への返信は元のコメントに付く',
  })
  addBlogComment(@Ctx() ctx: AppContext, @Arg('input', () => BlogCommentInput) input: BlogCommentInput): Promise<BlogComment> {
    return ctx.services.blog.comments.add(ctx, { postId: input.postId, content: input.content, parentId: input.parentId ?? null });
  }

  @Authorized()
  @Mutation(() => Boolean, { description: 'コメントを削除する（返信も消える）。コメントした本人と投稿の作成者だけ' })
  deleteBlogComment(@Ctx() ctx: AppContext, @Arg('id', () => Int) id: number): Promise<boolean> {
    return ctx.services.blog.comments.delete(ctx, id);
  }
}
