import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { MAX_PAGE_SIZE } from '../../platform/pagination.js';
import type { AppContext } from '../../platform/context.js';
import { BlogTagInput, BlogTagView } from './blog-tag.types.js';

@Resolver()
export class BlogTagResolver {
  @Authorized()
  @Query(() => [BlogTagView], {
    description: `ブログのタグ（内容順、${MAX_PAGE_SIZE}件までのページ）。query を含むタグだけに絞れる。全件数は blogTagCount`,
  })
  async blogTags(
    @Ctx() ctx: AppContext,
    @Arg('query', () => String, { nullable: true, description: 'タグの内容に含まれる文字（100文字以内）' })
    query: string | null,
    @Arg('offset', () => Int, { defaultValue: 0 }) offset: number,
    @Arg('limit', () => Int, { defaultValue: MAX_PAGE_SIZE, description: `1〜${MAX_PAGE_SIZE}` }) limit: number,
  ): Promise<BlogTagView[]> {
    return (await ctx.services.blog.tags.list(ctx, { query, offset, limit })).items;
  }

  @Authorized()
  @Query(() => BlogTagView, { description: 'タグ1件（ないタグは NOT_FOUND）' })
  blogTag(@Ctx() ctx: AppContext, @Arg('id', () => Int) id: number): Promise<BlogTagView> {
    return ctx.services.blog.tags.get(ctx, id);
  }

  @Authorized()
  @Query(() => Int, { description: 'タグの数（query を含むものだけ）' })
  async blogTagCount(
    @Ctx() ctx: AppContext,
    @Arg('query', () => String, { nullable: true }) query: string | null,
  ): Promise<number> {
    return ctx.services.blog.tags.count(ctx, query);
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
