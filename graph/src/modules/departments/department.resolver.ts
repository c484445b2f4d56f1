import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../../platform/context.js';
import { PageArgs } from '../../platform/pagination.js';
import { EmployeeRole } from '../employees/employee.enums.js';
import { NamedRef } from '../employees/employee.types.js';
import { DepartmentInput, DepartmentPage, DepartmentView } from './department.types.js';

@Resolver()
export class DepartmentResolver {
  @Authorized()
  @Query(() => [NamedRef], { description: '部署の一覧（名前のみ、絞り込み用）' })
  departmentNames(@Ctx() ctx: AppContext): Promise<NamedRef[]> {
    return ctx.services.departments.names(ctx);
  }

  @Authorized()
  @Query(() => [NamedRef], { description: '拠点の一覧' })
  locations(@Ctx() ctx: AppContext): Promise<NamedRef[]> {
    return ctx.services.departments.locations(ctx);
  }

  @Authorized()
  @Query(() => DepartmentPage, { description: '部署（責任者・メンバー付き）' })
  departments(
    @Ctx() ctx: AppContext,
    @Args() page: PageArgs,
    @Arg('name', () => String, { nullable: true }) name?: string | null,
  ): Promise<DepartmentPage> {
    return ctx.services.departments.list(ctx, { name }, page.offset, page.limit);
  }

  @Authorized()
  @Query(() => DepartmentView)
  department(@Ctx() ctx: AppContext, @Arg('id', () => Int) id: number): Promise<DepartmentView> {
    return ctx.services.departments.get(ctx, id);
  }

  @Authorized(EmployeeRole.ADMIN, EmployeeRole.SYSTEM_ADMIN)
  @Mutation(() => DepartmentView, { description: '部署を登録する（管理者・システム管理者）' })
  createDepartment(
    @Ctx() ctx: AppContext,
    @Arg('input', () => DepartmentInput) input: DepartmentInput,
  ): Promise<DepartmentView> {
    return ctx.services.departments.create(ctx, input);
  }

  @Authorized(EmployeeRole.ADMIN, EmployeeRole.SYSTEM_ADMIN)
  @Mutation(() => DepartmentView, {
    description: '部署を更新する（管理者・システム管理者）。古い version なら CONFLICT。',
  })
  updateDepartment(
    @Ctx() ctx: AppContext,
    @Arg('id', () => Int) id: number,
    @Arg('input', () => DepartmentInput) input: DepartmentInput,
  ): Promise<DepartmentView> {
    return ctx.services.departments.update(ctx, id, input);
  }
}
