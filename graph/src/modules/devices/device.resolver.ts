import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { EventEnvelope } from '@intranet/schema/events';
import type { AppContext } from '../../platform/context.js';
import { DEVICE_ROLES } from '../employees/employee.enums.js';
import { AssetKind, DeviceKind } from './device.enums.js';
import { parseAggregateId } from './device.history.js';
import { DeviceSecret } from './device.secrets.js';
import { DeviceChange, DeviceOptions, DeviceTimeline } from './device.types.js';

/** What the three kinds share: options, history and live changes. */
// Every field is the IT-asset register\'s: its roles, once for the class.
@Authorized(...DEVICE_ROLES)
@Resolver()
export class DeviceResolver {
  @Query(() => DeviceOptions, { description: '端末フォーム・絞り込みの状態の選択肢' })
  deviceOptions(@Ctx() ctx: AppContext): DeviceOptions {
    return ctx.services.devices.options(ctx);
  }

  @Query(() => DeviceTimeline, { description: '端末の使用履歴（誰がいつからいつまで使ったか、誰が変更したか）' })
  deviceHistory(
    @Ctx() ctx: AppContext,
    @Arg('kind', () => DeviceKind) kind: DeviceKind,
    @Arg('id', () => Int) id: number,
  ): Promise<DeviceTimeline> {
    return ctx.services.devices.history.timeline(ctx, kind, id);
  }

  @Mutation(() => String, {
    nullable: true,
    description:
      '端末の PIN コード・パスワードを表示する（未設定なら null）。誰がどの項目を表示したかを使用履歴に残す。',
  })
  revealDeviceSecret(
    @Ctx() ctx: AppContext,
    @Arg('kind', () => DeviceKind) kind: DeviceKind,
    @Arg('id', () => Int) id: number,
    @Arg('secret', () => DeviceSecret) secret: DeviceSecret,
  ): Promise<string | null> {
    return ctx.services.devices.secrets.reveal(ctx, kind, id, secret);
  }

  @Subscription(() => DeviceChange, {
    topics: 'event',
    topicId: () => 'device',
    filter: ({ payload, args }: { payload: EventEnvelope; args: { kinds?: AssetKind[] | null } }) =>
      !args.kinds?.length || args.kinds.includes(parseAggregateId(payload.aggregateId)?.kind as AssetKind),
    description: 'パソコン・スマートフォン・Office アカウントの登録・更新（コミット済みのイベントのみ）',
  })
  deviceChanged(
    @Root() envelope: EventEnvelope,
    @Arg('kinds', () => [AssetKind], { nullable: true, description: '省略時はすべて' }) _kinds?: AssetKind[] | null,
  ): DeviceChange {
    const target = parseAggregateId(envelope.aggregateId)!;
    const p = envelope.payload as { changed?: string[]; created?: number[]; updated?: number[] };
    // An import announces a chunk of computers at once (device.computers.imported).
    const ids = p.created || p.updated ? [...(p.created ?? []), ...(p.updated ?? [])] : [target.id];
    return {
      type: envelope.type,
      kind: target.kind,
      id: ids[0] ?? 0,
      ids,
      changed: p.changed ?? [],
      occurredAt: envelope.occurredAt,
    };
  }
}
