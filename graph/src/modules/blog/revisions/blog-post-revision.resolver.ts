import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../../../platform/context.js';
import { PageArgs } from '../../../platform/pagination.js';
import { BlogPostView } from '../blog-post.types.js';
import { BlogPostRevision } from './blog-post-revision.types.js';
import { revisionView } from './blog-post-revision.view.js';

@Resolver()
export class BlogPostRevisionResolver {
  @Authorized()
  @Query(() => [BlogPostRevision], {
    description:
      '投稿の履歴の1ページ（新しい版から。作成者と管理者・システム管理者だけ: ほかの社員は FORBIDDEN、見られない投稿は NOT_FOUND）',
  })
  async blogPostRevisions(
    @Ctx() ctx: AppContext,
    @Arg('id', () => Int) id: number,
    @Args() page: PageArgs,
  ): Promise<BlogPostRevision[]> {
    return (await ctx.services.blog.revisions.list(ctx, id, page.offset, page.limit)).map(revisionView);
  }

  @Authorized()
  @Query(() => BlogPostRevision, { description: '投稿の版1つ（ない版は NOT_FOUND）' })
  async blogPostRevision(
    @Ctx() ctx: AppContext,
    @Arg('id', () => Int) id: number,
    @Arg('version', () => Int) version: number,
  ): Promise<BlogPostRevision> {
    return revisionView(await ctx.services.blog.revisions.get(ctx, id, version));
  }

  @Authorized()
  @Mutation(() => BlogPostView, {
    description:
      '版を復元する（作成者だけ）: その版の内容で新しく保存する（今の版も履歴に残る）。公開状態と今の添付ファイルはそのまま。expectedVersion が古ければ CONFLICT',
  })
  restoreBlogPostRevision(
    @Ctx() ctx: AppContext,
    @Arg('id', () => Int) id: number,
    @Arg('version', () => Int, { description: '復元する版' }) version: number,
    @Arg('expectedVersion', () => Int, { description: '画面で見ている投稿の version' }) expectedVersion: number,
  ): Promise<BlogPostView> {
    return ctx.services.blog.revisions.restore(ctx, id, version, expectedVersion);
  }
}
