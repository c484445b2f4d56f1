import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../../platform/context.js';
import { EmployeeRole } from '../employees/employee.enums.js';
import { BlogCategoryInput, BlogCategoryView } from './blog-category.types.js';

@Resolver()
export class BlogCategoryResolver {
  @Authorized()
  @Query(() => [BlogCategoryView], {
    description: 'ブログのカテゴリ。管理者・システム管理者にはすべて、ほかの社員には自分がメンバーのカテゴリだけ。',
  })
  blogCategories(@Ctx() ctx: AppContext): Promise<BlogCategoryView[]> {
    return ctx.services.blog.categories.list(ctx);
  }

  @Authorized()
  @Query(() => BlogCategoryView, {
    description: 'ブログのカテゴリ1件（メンバーでないカテゴリは管理者・システム管理者以外には NOT_FOUND）',
  })
  blogCategory(@Ctx() ctx: AppContext, @Arg('id', () => Int) id: number): Promise<BlogCategoryView> {
    return ctx.services.blog.categories.get(ctx, id);
  }

  @Authorized(EmployeeRole.ADMIN, EmployeeRole.SYSTEM_ADMIN)
  @Mutation(() => BlogCategoryView, { description: 'ブログのカテゴリを登録する（管理者・システム管理者）' })
  createBlogCategory(
    @Ctx() ctx: AppContext,
    @Arg('input', () => BlogCategoryInput) input: BlogCategoryInput,
  ): Promise<BlogCategoryView> {
    return ctx.services.blog.categories.create(ctx, input);
  }

  @Authorized(EmployeeRole.ADMIN, EmployeeRole.SYSTEM_ADMIN)
  @Mutation(() => BlogCategoryView, {
    description: 'ブログのカテゴリを更新する（管理者・システム管理者）。古い version なら CONFLICT。',
  })
  updateBlogCategory(
    @Ctx() ctx: AppContext,
    @Arg('id', () => Int) id: number,
    @Arg('input', () => BlogCategoryInput) input: BlogCategoryInput,
  ): Promise<BlogCategoryView> {
    return ctx.services.blog.categories.update(ctx, id, input);
  }
}
