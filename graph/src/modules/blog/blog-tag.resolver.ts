import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../../platform/context.js';
import { BlogTagInput, BlogTagView } from './blog-tag.types.js';

@Resolver()
export class BlogTagResolver {
  @Authorized()
  @Query(() => [BlogTagView], { description: 'ブログのタグ（内容順）' })
  blogTags(@Ctx() ctx: AppContext): Promise<BlogTagView[]> {
    return ctx.services.blog.tags.list(ctx);
  }

  @Authorized()
  @Mutation(() => BlogTagView, {
    description: 'タグを登録する（社員なら誰でも）。空なら reason TAG_CONTENT_EMPTY、重複なら TAG_CONTENT_TAKEN。',
  })
  createBlogTag(@Ctx() ctx: AppContext, @Arg('input', () => BlogTagInput) input: BlogTagInput): Promise<BlogTagView> {
    return ctx.services.blog.tags.create(ctx, input);
  }

  @Authorized()
  @Mutation(() => BlogTagView, { description: 'タグを変更する（作成者と管理者・システム管理者）' })
  updateBlogTag(
    @Ctx() ctx: AppContext,
    @Arg('id', () => Int) id: number,
    @Arg('input', () => BlogTagInput) input: BlogTagInput,
  ): Promise<BlogTagView> {
    return ctx.services.blog.tags.update(ctx, id, input);
  }

  @Authorized()
  @Mutation(() => [Int], {
    description:
      '選択したタグを削除する（作成者と管理者・システム管理者）。空の選択は reason TAGS_NONE_SELECTED。タグは付いていた投稿から外れる。削除したIDを返す。',
  })
  deleteBlogTags(@Ctx() ctx: AppContext, @Arg('ids', () => [Int]) ids: number[]): Promise<number[]> {
    return ctx.services.blog.tags.delete(ctx, ids);
  }
}
