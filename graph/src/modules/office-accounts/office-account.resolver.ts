import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../../platform/context.js';
import { PageArgs } from '../../platform/pagination.js';
import { DEVICE_ROLES } from '../employees/employee.enums.js';
import {
  OfficeAccountFilter,
  OfficeAccountInput,
  OfficeAccountPage,
  OfficeAccountView,
} from './office-account.types.js';

// Every field is the IT-asset register\'s: its roles, once for the class.
@Authorized(...DEVICE_ROLES)
@Resolver()
export class OfficeAccountResolver {
  @Query(() => OfficeAccountPage, { description: 'Microsoft Office アカウント一覧（使用台数・行の色付き）' })
  officeAccounts(
    @Ctx() ctx: AppContext,
    @Args() page: PageArgs,
    @Arg('filter', () => OfficeAccountFilter, { nullable: true }) filter?: OfficeAccountFilter,
  ): Promise<OfficeAccountPage> {
    return ctx.services.officeAccounts.read.list(ctx, filter ?? {}, page.offset, page.limit);
  }

  @Query(() => OfficeAccountView)
  officeAccount(@Ctx() ctx: AppContext, @Arg('id', () => Int) id: number): Promise<OfficeAccountView> {
    return ctx.services.officeAccounts.read.get(ctx, id);
  }

  @Mutation(() => OfficeAccountView, { description: 'Microsoft Office アカウントを登録する' })
  createOfficeAccount(
    @Ctx() ctx: AppContext,
    @Arg('input', () => OfficeAccountInput) input: OfficeAccountInput,
  ): Promise<OfficeAccountView> {
    return ctx.services.officeAccounts.write.create(ctx, input);
  }

  @Mutation(() => OfficeAccountView, {
    description: 'Microsoft Office アカウントを更新する。古い version なら CONFLICT。',
  })
  updateOfficeAccount(
    @Ctx() ctx: AppContext,
    @Arg('id', () => Int) id: number,
    @Arg('input', () => OfficeAccountInput) input: OfficeAccountInput,
  ): Promise<OfficeAccountView> {
    return ctx.services.officeAccounts.write.update(ctx, id, input);
  }
}
