import { Authorized, Ctx, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../../platform/context.js';
import { NamedRef } from '../employees/employee.types.js';

@Resolver()
export class DepartmentResolver {
  @Authorized()
  @Query(() => [NamedRef], { description: '部署の一覧（名前のみ）' })
  departmentNames(@Ctx() ctx: AppContext): Promise<NamedRef[]> {
    return ctx.services.departments.names(ctx);
  }

  @Authorized()
  @Query(() => [NamedRef], { description: '拠点の一覧' })
  locations(@Ctx() ctx: AppContext): Promise<NamedRef[]> {
    return ctx.services.departments.locations(ctx);
  }
}
