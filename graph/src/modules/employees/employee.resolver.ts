import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { EmployeeRole } from './employee.enums.js';
import type { AppContext } from '../../platform/context.js';
import { PageArgs } from '../../platform/pagination.js';
import { EmployeeChange } from './employee.live.js';
import { EmployeeFilter, EmployeeInput, EmployeePage, EmployeeView } from './employee.types.js';

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

  @Authorized(EmployeeRole.ADMIN, EmployeeRole.SYSTEM_ADMIN)
  @Mutation(() => EmployeeView, { description: '社員を登録する（管理者・システム管理者）' })
  createEmployee(
    @Ctx() ctx: AppContext,
    @Arg('input', () => EmployeeInput) input: EmployeeInput,
  ): Promise<EmployeeView> {
    return ctx.services.employeeAdmin.create(ctx, input);
  }

  @Authorized(EmployeeRole.ADMIN, EmployeeRole.SYSTEM_ADMIN)
  @Mutation(() => EmployeeView, {
    description: '社員を更新する（管理者・システム管理者）。古い version なら CONFLICT。',
  })
  updateEmployee(
    @Ctx() ctx: AppContext,
    @Arg('id', () => Int) id: number,
    @Arg('input', () => EmployeeInput) input: EmployeeInput,
  ): Promise<EmployeeView> {
    return ctx.services.employeeAdmin.update(ctx, id, input);
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
