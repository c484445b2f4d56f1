import type { GraphQLResolveInfo } from 'graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Authorized, Ctx, Info, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../../platform/context.js';
import { selectedUnder } from '../../platform/graphql-selection.js';
import { BlogFeedFilter, BlogFeedPage, BlogPostInput, BlogPostView } from './blog-post.types.js';

@Resolver()
export class BlogPostResolver {
  @Authorized()
  @Query(() => BlogFeedPage, {
    description:
      'ブログ一覧（見られる投稿だけ: カテゴリのメンバーに公開期間中のもの、自分の投稿）。ピン留め中が先、次に公開開始日の新しい順。続きは nextCursor を after に渡す（10万件でも一定の速さ）。pinned を選ぶと速報も同じ要求で返す。',
  })
  blogFeed(
    @Ctx() ctx: AppContext,
    @Arg('filter', () => BlogFeedFilter, { nullable: true }) filter?: BlogFeedFilter | null,
    @Arg('after', () => String, { nullable: true, description: '前のページの nextCursor' }) after?: string | null,
    @Arg('limit', () => Int, { nullable: true, defaultValue: 20, description: '1〜200（既定 20）' }) limit?: number,
    @Info() info?: GraphQLResolveInfo,
  ): Promise<BlogFeedPage> {
    return ctx.services.blog.posts.feed(ctx, filter ?? {}, after, limit, {
      withPinned: !!info && selectedUnder(info, []).has('pinned'),
    });
  }

  @Authorized()
  @Query(() => [BlogPostView], { description: '速報: 今日ピン留め中の投稿（見られるものだけ、最大50件）' })
  blogPinned(@Ctx() ctx: AppContext): Promise<BlogPostView[]> {
    return ctx.services.blog.posts.pinned(ctx);
  }

  @Authorized()
  @Query(() => BlogPostView, { description: '投稿1件（見られない投稿は NOT_FOUND）' })
  blogPost(@Ctx() ctx: AppContext, @Arg('id', () => Int) id: number): Promise<BlogPostView> {
    return ctx.services.blog.posts.get(ctx, id);
  }

  @Authorized()
  @Query(() => String, {
    description:
      '本文のプレビュー: Editor.js の文書を、読む人に見える HTML にする（保存と同じ検査と描画。保存はしない。正しくない文書は BAD_USER_INPUT）',
  })
  blogContentPreview(
    @Ctx() ctx: AppContext,
    @Arg('content', () => GraphQLJSONObject) content: Record<string, unknown>,
  ): string {
    return ctx.services.blog.posts.preview(content);
  }

  @Authorized()
  @Mutation(() => BlogPostView, {
    description: '投稿する（作成者はログイン中の社員。投稿できるカテゴリだけ）。isDraft で下書き。',
  })
  createBlogPost(
    @Ctx() ctx: AppContext,
    @Arg('input', () => BlogPostInput) input: BlogPostInput,
  ): Promise<BlogPostView> {
    return ctx.services.blog.posts.create(ctx, { ...input });
  }

  @Authorized()
  @Mutation(() => BlogPostView, { description: '投稿を更新する（作成者だけ）。古い version なら CONFLICT。' })
  updateBlogPost(
    @Ctx() ctx: AppContext,
    @Arg('id', () => Int) id: number,
    @Arg('input', () => BlogPostInput) input: BlogPostInput,
  ): Promise<BlogPostView> {
    return ctx.services.blog.posts.update(ctx, id, { ...input });
  }

  @Authorized()
  @Mutation(() => Boolean, { description: '投稿を削除する（作成者と管理者・システム管理者）' })
  deleteBlogPost(@Ctx() ctx: AppContext, @Arg('id', () => Int) id: number): Promise<boolean> {
    return ctx.services.blog.posts.delete(ctx, id);
  }
}
