import { Arg, Authorized, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../../../platform/context.js';
import { BlogMentionCandidate } from './blog-mention.types.js';
import { MENTION_CANDIDATES } from './blog-mention.service.js';

@Resolver()
export class BlogMentionResolver {
  @Authorized()
  @Query(() => [BlogMentionCandidate], {
    description:
      'メンション（@）できる社員: 投稿のカテゴリのメンバーと作成者（自分を除く在籍者）。氏名（漢字）、ログインID・メールの名前（ローマ字）、かな（ローマ字に読んで）で探す。categoryId（書いている投稿のカテゴリ）か postId（コメントする投稿）のどちらか一方',
  })
  blogMentionCandidates(
    @Ctx() ctx: AppContext,
    @Arg('query', () => String, { nullable: true, description: '@ の後に打った文字（30文字以内）' })
    query: string | null,
    @Arg('categoryId', () => Int, { nullable: true }) categoryId: number | null,
    @Arg('postId', () => Int, { nullable: true }) postId: number | null,
    @Arg('limit', () => Int, {
      nullable: true,
      description: `件数（1〜${MENTION_CANDIDATES.max}、既定 ${MENTION_CANDIDATES.default}）`,
    })
    limit: number | null,
  ): Promise<BlogMentionCandidate[]> {
    return ctx.services.blog.mentions.candidates(ctx, { query, categoryId, postId, limit });
  }
}
