import { Arg, Args, Authorized, Ctx, Int, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { AppContext } from '../../platform/context.js';
import { PageArgs } from '../../platform/pagination.js';
import { EmployeeChange } from './employee.live.js';
import { EmployeeFilter, EmployeePage, EmployeeView } from './employee.types.js';

@Resolver()
export class EmployeeResolver {
  @Authorized()
  @Query(() => EmployeePage, { description: '社員名簿（氏名・部署・退職者で絞り込み、ページ単位）' })
  employees(
    @Ctx() ctx: AppContext,
    @Args() page: PageArgs,
    @Arg('filter', () => EmployeeFilter, { nullable: true }) filter?: EmployeeFilter,
  ): Promise<EmployeePage> {
    return ctx.services.employees.list(ctx, filter ?? {}, page.offset, page.limit);
  }

  @Authorized()
  @Query(() => EmployeeView)
  employee(@Ctx() ctx: AppContext, @Arg('id', () => Int) id: number): Promise<EmployeeView> {
    return ctx.services.employees.get(ctx, id);
  }

  @Authorized()
  @Subscription(() => EmployeeChange, {
    topics: 'event',
    topicId: () => 'employee',
    description: '社員の登録・更新（コミット済みのイベントのみ）',
  })
  employeeChanged(@Root() envelope: { type: string; aggregateId: string; occurredAt: string }): EmployeeChange {
    return { type: envelope.type, employeeId: Number(envelope.aggregateId), occurredAt: envelope.occurredAt };
  }
}
