import { Arg, Authorized, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../../../platform/context.js';
import { BlogSearchFilter, BlogSearchOrder, BlogSearchPage, QUERY_DESCRIPTION } from './blog-search.types.js';

@Resolver()
export class BlogSearchResolver {
  @Authorized()
  @Query(() => BlogSearchPage, {
    description:
      'ブログ検索: 見られる投稿のタイトル・本文・コメントから、1文字・2文字の言葉も探す。すべての言葉がタイトルにある投稿が先、次に本文まで、コメントまで。同じ順位の中は公開開始日の新しい順（order: NEWEST なら新しい順だけ）。filter でカテゴリ・作成者・期間に絞る。続きは nextCursor を after に渡す。',
  })
  blogSearch(
    @Ctx() ctx: AppContext,
    @Arg('query', { description: QUERY_DESCRIPTION }) query: string,
    @Arg('after', () => String, { nullable: true, description: '前のページの nextCursor' }) after?: string | null,
    @Arg('first', () => Int, { nullable: true, defaultValue: 20, description: '1〜200（既定 20）' }) first?: number,
    @Arg('filter', () => BlogSearchFilter, { nullable: true }) filter?: BlogSearchFilter | null,
    @Arg('order', () => BlogSearchOrder, {
      nullable: true,
      defaultValue: BlogSearchOrder.RELEVANCE,
      description: '並び順（既定は関連度）。nextCursor は同じ並び順でだけ使える',
    })
    order?: BlogSearchOrder,
  ): Promise<BlogSearchPage> {
    return ctx.services.blog.search.search(ctx, query, after, first, { filter, order });
  }
}
