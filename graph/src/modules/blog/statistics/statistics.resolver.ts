import { Args, Authorized, Ctx, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../../../platform/context.js';
import { BlogStatistics, BlogStatisticsArgs } from './statistics.types.js';

@Resolver()
export class BlogStatisticsResolver {
  @Authorized()
  @Query(() => BlogStatistics, {
    description:
      '月別ブログ統計: year と month（省略時は今月）、または startDate と endDate（5年以内）。見られる公開中の投稿だけを集計する',
  })
  blogStatistics(@Ctx() ctx: AppContext, @Args() args: BlogStatisticsArgs): Promise<BlogStatistics> {
    return ctx.services.blog.statistics.report(ctx, args);
  }
}
