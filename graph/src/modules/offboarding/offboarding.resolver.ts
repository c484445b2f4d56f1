import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../../platform/context.js';
import { DEVICE_ROLES } from '../employees/employee.enums.js';
import { EmployeeDevices } from './offboarding.types.js';

/** Offboarding: what an employee holds, and handing it all back. */
// Every field is the IT-asset register\'s: its roles, once for the class.
@Authorized(...DEVICE_ROLES)
@Resolver()
export class OffboardingResolver {
  @Query(() => EmployeeDevices, {
    description: '社員が使用中の端末と、そのパソコンに紐付く Office アカウント（退職時の確認用）',
  })
  employeeDevices(@Ctx() ctx: AppContext, @Arg('employeeId', () => Int) employeeId: number): Promise<EmployeeDevices> {
    return ctx.services.offboarding.holdings(ctx, employeeId);
  }

  @Mutation(() => EmployeeDevices, {
    description:
      '社員が使用中の端末をすべて返却する（使用者→前使用者、使用者を空に、履歴を記録）。返却した端末を返す。',
  })
  returnEmployeeDevices(
    @Ctx() ctx: AppContext,
    @Arg('employeeId', () => Int) employeeId: number,
  ): Promise<EmployeeDevices> {
    return ctx.services.offboarding.returnAll(ctx, employeeId);
  }
}
