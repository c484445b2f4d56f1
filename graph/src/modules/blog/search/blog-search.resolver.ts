import { Arg, Authorized, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../../../platform/context.js';
import { BlogSearchPage, QUERY_DESCRIPTION } from './blog-search.types.js';

@Resolver()
export class BlogSearchResolver {
  @Authorized()
  @Query(() => BlogSearchPage, {
    description:
      'ブログ検索: 見られる投稿のタイトル・本文・コメントから、1文字・2文字の言葉も探す。すべての言葉がタイトルにある投稿が先、次に本文まで、コメントまで。同じ順位の中は公開開始日の新しい順。続きは nextCursor を after に渡す。',
  })
  blogSearch(
    @Ctx() ctx: AppContext,
    @Arg('query', { description: QUERY_DESCRIPTION }) query: string,
    @Arg('after', () => String, { nullable: true, description: '前のページの nextCursor' }) after?: string | null,
    @Arg('first', () => Int, { nullable: true, defaultValue: 20, description: '1〜200（既定 20）' }) first?: number,
  ): Promise<BlogSearchPage> {
    return ctx.services.blog.search.search(ctx, query, after, first);
  }
}
