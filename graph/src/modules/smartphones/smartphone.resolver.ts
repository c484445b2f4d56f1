import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { DeviceKind } from '../devices/device.enums.js';
import { DeviceSecret, secretsSetOf } from '../devices/device.secrets.js';
import type { AppContext } from '../../platform/context.js';
import { PageArgs } from '../../platform/pagination.js';
import { DEVICE_ROLES } from '../employees/employee.enums.js';
import { SmartphoneFilter, SmartphoneInput, SmartphonePage, SmartphoneView } from './smartphone.types.js';

// Every field is the IT-asset register\'s: its roles, once for the class.
@Authorized(...DEVICE_ROLES)
@Resolver(() => SmartphoneView)
export class SmartphoneResolver {
  @Query(() => SmartphonePage, {
    description:
      'スマートフォン一覧（管理者・デバイス管理者・システム管理者）。廃棄・処分済みは showDiscarded のときだけ。',
  })
  smartphones(
    @Ctx() ctx: AppContext,
    @Args() page: PageArgs,
    @Arg('filter', () => SmartphoneFilter, { nullable: true }) filter?: SmartphoneFilter,
  ): Promise<SmartphonePage> {
    return ctx.services.smartphones.read.list(ctx, filter ?? {}, page.offset, page.limit);
  }

  @Query(() => SmartphoneView)
  smartphone(@Ctx() ctx: AppContext, @Arg('id', () => Int) id: number): Promise<SmartphoneView> {
    return ctx.services.smartphones.read.get(ctx, id);
  }

  @Mutation(() => SmartphoneView, { description: 'スマートフォンを登録する' })
  createSmartphone(
    @Ctx() ctx: AppContext,
    @Arg('input', () => SmartphoneInput) input: SmartphoneInput,
  ): Promise<SmartphoneView> {
    return ctx.services.smartphones.write.create(ctx, input);
  }

  @Mutation(() => SmartphoneView, { description: 'スマートフォンを更新する。古い version なら CONFLICT。' })
  updateSmartphone(
    @Ctx() ctx: AppContext,
    @Arg('id', () => Int) id: number,
    @Arg('input', () => SmartphoneInput) input: SmartphoneInput,
  ): Promise<SmartphoneView> {
    return ctx.services.smartphones.write.update(ctx, id, input);
  }

  @FieldResolver(() => [DeviceSecret], {
    description: '値が登録されている PIN・パスワード（値は revealDeviceSecret で、履歴に残して読む）',
  })
  secretsSet(@Root() d: SmartphoneView): DeviceSecret[] {
    return secretsSetOf(DeviceKind.SMARTPHONE, d);
  }
}
