import { z } from 'zod';
import type { AppContext } from '../../platform/context.js';
import { SMARTPHONE_STATUSES, DeviceKind } from '../devices/device.enums.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { heldEntity, heldHooks, heldSnapshot, heldValues, returnHeld } from '../devices/device.held.js';
import { date, heldFields, optionalText, version } from '../devices/device.validation.js';
import { createRecord, updateRecord, type WriteSpec } from '../devices/device.writer.js';
import { Smartphone } from './smartphone.entity.js';
import type { SmartphoneService } from './smartphone.service.js';
import type { SmartphoneView } from './smartphone.types.js';

const fields = {
  phoneNumber: z
    .string({ error: '電話番号を入力してください。' })
    .trim()
    .min(1, '電話番号を入力してください。')
    .max(20, '電話番号は数字とハイフン（先頭の + は可）で20文字以内で入力してください。')
    .regex(/^\+?[0-9][0-9-]{2,18}[0-9]$/, '電話番号は数字とハイフン（先頭の + は可）で20文字以内で入力してください。'),
  carrier: optionalText('キャリア', 50),
  os: optionalText('OS', 50),
  price: z
    .number({ error: '価格は数値で入力してください。' })
    .int('価格は整数（円）で入力してください。')
    .min(0, '価格は0以上で入力してください。')
    .max(10_000_000, '価格は1,000万円以下で入力してください。')
    .nullish()
    .transform((n) => n ?? null),
  ...heldFields(SMARTPHONE_STATUSES),
  exchangeDate: date('交換日'),
  pinPw: optionalText('PIN・パスワード', 100),
};
type Data = z.infer<z.ZodObject<typeof fields>>;
const createSchema = z.object(fields);
const updateSchema = z.object({ ...fields, version: version() });

const snapshot = (e: Smartphone) => ({
  ...heldSnapshot(e),
  phoneNumber: e.phoneNumber,
  carrier: e.carrier ?? null,
  os: e.os ?? null,
  price: e.price ?? null,
  exchangeDate: e.exchangeDate ?? null,
});

/** Smartphone writes (管理者, デバイス管理者, システム管理者). */
export class SmartphoneAdminService {
  private readonly hooks = heldHooks<Smartphone, Data>(DeviceKind.SMARTPHONE, { created: 'device.smartphone.created', updated: 'device.smartphone.updated' }, snapshot);
  private readonly spec: WriteSpec<Smartphone, Data, SmartphoneView>;

  constructor(smartphones: SmartphoneService) {
    this.spec = {
      noun: 'スマートフォン',
      entity: Smartphone,
      createSchema,
      updateSchema,
      ...this.hooks,
      values: (e) => ({
        phoneNumber: e.phoneNumber,
        carrier: e.carrier ?? null,
        os: e.os ?? null,
        price: e.price ?? null,
        ...heldValues(e),
        exchangeDate: e.exchangeDate ?? null,
        pinPw: e.pinPw ?? null,
      }),
      toEntity: (d) => heldEntity(d),
      get: (ctx, id) => smartphones.get(ctx, id),
    };
  }

  create(ctx: AppContext, input: unknown): Promise<SmartphoneView> {
    return createRecord(ctx, this.spec, input);
  }

  update(ctx: AppContext, id: number, input: unknown): Promise<SmartphoneView> {
    return updateRecord(ctx, this.spec, id, input);
  }

  /** Hands back every smartphone `employeeId` holds, inside the caller's transaction (offboarding). */
  returnFrom(tx: EntityManager, employeeId: number, actorId: number): Promise<number[]> {
    return returnHeld(tx, Smartphone, employeeId, actorId, this.hooks.recordUpdated);
  }
}
