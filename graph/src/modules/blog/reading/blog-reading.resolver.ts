import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../../platform/context.js';
import { BlogPostView } from '../blog-post.types.js';
import { checkPage, PageArgs } from '../../../platform/pagination.js';
import { BlogConfirmedReader, BlogReader, BlogReadingStatus } from './blog-reading.types.js';
import type { ReadingStatus } from './blog-reading.service.js';
import { confirmationOpen } from './blog-reading.readers.js';

/** Required reading of 速報 posts: counts on every post view (batched per request; a live view carries its viewer's), confirming, and the author's list, reminder and reset. */
@Resolver(() => BlogPostView)
export class BlogReadingResolver {
  @FieldResolver(() => Int, { description: '確認（必読）した閲覧者の数' })
  async confirmedCount(@Ctx() ctx: AppContext, @Root() p: BlogPostView): Promise<number> {
    if (!p.requireConfirmation) return 0;
    return p.engagement?.confirmedCount ?? (await ctx.services.blog.reading.summary(ctx, p.id)).confirmedCount;
  }

  @FieldResolver(() => Boolean, { description: '閲覧中の社員が確認（必読）したか' })
  async confirmedByMe(@Ctx() ctx: AppContext, @Root() p: BlogPostView): Promise<boolean> {
    // A live view is rendered once per class and carries the viewer's own flag; never the context's.
    if (!p.requireConfirmation) return false;
    return p.engagement?.confirmedByMe ?? (await ctx.services.blog.reading.summary(ctx, p.id)).confirmedByMe;
  }

  @FieldResolver(() => Boolean, {
    description: '確認（必読）を受け付けているか（確認を求める投稿で、速報の掲載期間が終わっていない）',
  })
  confirmationOpen(@Root() p: BlogPostView): boolean {
    return confirmationOpen(p);
  }

  @Authorized()
  @Mutation(() => BlogPostView, {
    description:
      '「確認しました」: 確認を求める投稿を見られる閲覧者だけ（作成者は FORBIDDEN、求めていない投稿・速報の掲載が終わった投稿は BAD_USER_INPUT）',
  })
  async confirmBlogPostReading(@Ctx() ctx: AppContext, @Arg('id', () => Int) id: number): Promise<BlogPostView> {
    await ctx.services.blog.reading.confirm(ctx, id);
    return ctx.services.blog.posts.get(ctx, id);
  }

  @Authorized()
  @Query(() => BlogReadingStatus, {
    description: '確認した・まだの閲覧者（投稿の作成者だけ。他の人は FORBIDDEN、見られない投稿は NOT_FOUND）',
  })
  async blogReadingStatus(
    @Ctx() ctx: AppContext,
    @Arg('postId', () => Int) postId: number,
  ): Promise<BlogReadingStatus> {
    return statusView(await ctx.services.blog.reading.status(ctx, postId));
  }

  @Authorized()
  @Mutation(() => Int, {
    description:
      'まだ確認していない閲覧者に催促の通知を送る（作成者だけ。速報の掲載が終わった投稿は BAD_USER_INPUT）。送った人数を返す',
  })
  remindBlogPostReading(@Ctx() ctx: AppContext, @Arg('postId', () => Int) postId: number): Promise<number> {
    return ctx.services.blog.reading.remind(ctx, postId);
  }

  @Authorized()
  @Mutation(() => BlogReadingStatus, {
    description:
      '大きな修正のあとに確認をすべて取り消し、閲覧者にもう一度確認を求める（作成者だけ。速報の掲載が終わった投稿は BAD_USER_INPUT）',
  })
  async resetBlogPostReading(
    @Ctx() ctx: AppContext,
    @Arg('postId', () => Int) postId: number,
  ): Promise<BlogReadingStatus> {
    return statusView(await ctx.services.blog.reading.reset(ctx, postId));
  }
}

/** The lists are paged: a post all 5,000 employees read answers its readers a page at a time. */
@Resolver(() => BlogReadingStatus)
export class BlogReadingStatusResolver {
  @FieldResolver(() => [BlogConfirmedReader], { description: '確認した閲覧者の1ページ（部署・氏名順）' })
  confirmed(@Root() s: BlogReadingStatus, @Args() page: PageArgs): BlogConfirmedReader[] {
    const { offset, limit } = checkPage(page.offset, page.limit);
    return s.all.confirmed.slice(offset, offset + limit);
  }

  @FieldResolver(() => [BlogReader], { description: 'まだ確認していない閲覧者の1ページ（部署・氏名順）' })
  unconfirmed(@Root() s: BlogReadingStatus, @Args() page: PageArgs): BlogReader[] {
    const { offset, limit } = checkPage(page.offset, page.limit);
    return s.all.unconfirmed.slice(offset, offset + limit);
  }
}

function statusView(s: ReadingStatus): BlogReadingStatus {
  return {
    postId: s.postId,
    confirmedCount: s.confirmed.length,
    unconfirmedCount: s.unconfirmed.length,
    all: { confirmed: s.confirmed, unconfirmed: s.unconfirmed },
  };
}
