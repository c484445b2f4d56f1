import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../../platform/context.js';
import { BlogAuthor, BlogPostView } from '../blog-post.types.js';
import { requireUser } from '../../../platform/authz.js';
import { PageArgs } from '../../../platform/pagination.js';
import { LIKERS_SHOWN } from '../blog-post.rules.js';
import { isNewFor, type Engagement } from './blog-engagement.service.js';

/** What a live delivery carries, or what the request's batch reads. */
const engagementOf = async (ctx: AppContext, p: BlogPostView): Promise<Engagement> =>
  p.engagement ?? ctx.services.blog.engagement.summary(ctx, p.id);

/**
 * Likes, seen marks and saves on the post views (the feed, 速報, the detail): each field batched per
 * request; a live delivery's view carries them already (BlogPostView.engagement, read once per event). The mutations answer with the post, so a client's cache updates its card.
 */
@Resolver(() => BlogPostView)
export class BlogEngagementResolver {
  @FieldResolver(() => Int, { description: 'いいねの数' })
  async likeCount(@Ctx() ctx: AppContext, @Root() p: BlogPostView): Promise<number> {
    return (await engagementOf(ctx, p)).likeCount;
  }

  @FieldResolver(() => Boolean, { description: '閲覧中の社員がいいねしているか' })
  async likedByMe(@Ctx() ctx: AppContext, @Root() p: BlogPostView): Promise<boolean> {
    return (await engagementOf(ctx, p)).likedByMe;
  }

  @FieldResolver(() => [BlogAuthor], {
    description: `いいねした社員のうち最初の ${LIKERS_SHOWN} 人（いいねした順。全体の数は likeCount、全員は blogPostLikers）`,
  })
  async likers(@Ctx() ctx: AppContext, @Root() p: BlogPostView): Promise<BlogAuthor[]> {
    return (await engagementOf(ctx, p)).likers;
  }

  @FieldResolver(() => Int, { description: '既読にした社員の数' })
  async seenCount(@Ctx() ctx: AppContext, @Root() p: BlogPostView): Promise<number> {
    return (await engagementOf(ctx, p)).seenCount;
  }

  @FieldResolver(() => Boolean, {
    description:
      'New!: 公開中の他の社員の投稿で、閲覧中の社員がまだ開いていない・コメントしていない・確認していない（自分の投稿・下書き・公開予定には付かない）',
  })
  async isNew(@Ctx() ctx: AppContext, @Root() p: BlogPostView): Promise<boolean> {
    const marks = await engagementOf(ctx, p);
    return isNewFor({ state: p.state, authorId: p.author.id }, requireUser(ctx).id, marks);
  }

  @FieldResolver(() => Boolean, { description: '閲覧中の社員が保存しているか（is_save）' })
  async saved(@Ctx() ctx: AppContext, @Root() p: BlogPostView): Promise<boolean> {
    return (await engagementOf(ctx, p)).savedByMe;
  }

  @Authorized()
  @Mutation(() => BlogPostView, {
    description:
      'いいねする・取り消す（自分のいいねだけ。いいねを受け付けない投稿は FORBIDDEN、見られない投稿は NOT_FOUND）',
  })
  async likeBlogPost(
    @Ctx() ctx: AppContext,
    @Arg('id', () => Int) id: number,
    @Arg('liked', () => Boolean) liked: boolean,
  ): Promise<BlogPostView> {
    await ctx.services.blog.engagement.set(ctx, 'like', id, liked);
    return ctx.services.blog.posts.get(ctx, id);
  }

  @Authorized()
  @Query(() => [BlogAuthor], {
    description:
      'いいねした社員の1ページ（いいねした順。全体の数は BlogPostView.likeCount。見られない投稿は NOT_FOUND）',
  })
  blogPostLikers(
    @Ctx() ctx: AppContext,
    @Arg('id', () => Int) id: number,
    @Args() page: PageArgs,
  ): Promise<BlogAuthor[]> {
    return ctx.services.blog.engagement.likers(ctx, id, page.offset, page.limit);
  }

  @Authorized()
  @Mutation(() => BlogPostView, { description: '投稿を既読にする（開いたとき。既読は取り消さない: New! が消える）' })
  async markBlogPostSeen(@Ctx() ctx: AppContext, @Arg('id', () => Int) id: number): Promise<BlogPostView> {
    await ctx.services.blog.engagement.set(ctx, 'seen', id, true);
    return ctx.services.blog.posts.get(ctx, id);
  }

  @Authorized()
  @Mutation(() => BlogPostView, { description: '投稿を保存する・保存をやめる（自分の保存だけ）' })
  async saveBlogPost(
    @Ctx() ctx: AppContext,
    @Arg('id', () => Int) id: number,
    @Arg('saved', () => Boolean) saved: boolean,
  ): Promise<BlogPostView> {
    await ctx.services.blog.engagement.set(ctx, 'save', id, saved);
    return ctx.services.blog.posts.get(ctx, id);
  }
}
