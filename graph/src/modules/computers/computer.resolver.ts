import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { DeviceKind } from '../devices/device.enums.js';
import { DeviceSecret, secretsSetOf } from '../devices/device.secrets.js';
import type { AppContext } from '../../platform/context.js';
import { PageArgs } from '../../platform/pagination.js';
import { DEVICE_ROLES } from '../employees/employee.enums.js';
import { ComputerFilter, ComputerInput, ComputerPage, ComputerView } from './computer.types.js';

// Every field is the IT-asset register\'s: its roles, once for the class.
@Authorized(...DEVICE_ROLES)
@Resolver(() => ComputerView)
export class ComputerResolver {
  @Query(() => ComputerPage, {
    description: 'パソコン一覧（管理者・デバイス管理者・システム管理者）。廃棄・処分済みは showDiscarded のときだけ。',
  })
  computers(
    @Ctx() ctx: AppContext,
    @Args() page: PageArgs,
    @Arg('filter', () => ComputerFilter, { nullable: true }) filter?: ComputerFilter,
  ): Promise<ComputerPage> {
    return ctx.services.computers.read.list(ctx, filter ?? {}, page.offset, page.limit);
  }

  @Query(() => ComputerView)
  computer(@Ctx() ctx: AppContext, @Arg('id', () => Int) id: number): Promise<ComputerView> {
    return ctx.services.computers.read.get(ctx, id);
  }

  @Mutation(() => ComputerView, { description: 'パソコンを登録する' })
  createComputer(
    @Ctx() ctx: AppContext,
    @Arg('input', () => ComputerInput) input: ComputerInput,
  ): Promise<ComputerView> {
    return ctx.services.computers.write.create(ctx, input);
  }

  @Mutation(() => ComputerView, { description: 'パソコンを更新する。古い version なら CONFLICT。' })
  updateComputer(
    @Ctx() ctx: AppContext,
    @Arg('id', () => Int) id: number,
    @Arg('input', () => ComputerInput) input: ComputerInput,
  ): Promise<ComputerView> {
    return ctx.services.computers.write.update(ctx, id, input);
  }

  @FieldResolver(() => [DeviceSecret], {
    description: '値が登録されている PIN・パスワード（値は revealDeviceSecret で、履歴に残して読む）',
  })
  secretsSet(@Root() d: ComputerView): DeviceSecret[] {
    return secretsSetOf(DeviceKind.COMPUTER, d);
  }
}
