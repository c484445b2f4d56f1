import { z } from 'zod';
import type { AppContext } from '../../platform/context.js';
import { Computer } from './computer.entity.js';
import type { ComputerService } from './computer.service.js';
import type { ComputerView } from './computer.types.js';
import { COMPUTER_STATUSES, DeviceKind } from '../devices/device.enums.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { heldEntity, heldHooks, heldSnapshot, heldValues, returnHeld } from '../devices/device.held.js';
import { date, heldFields, keptText, optionalText, ref, text, version } from '../devices/device.validation.js';
import { createRecord, updateRecord, type WriteSpec } from '../devices/device.writer.js';

/** The field rules of a computer (one definition: the form, the API and the import use these). */
export const computerFields = {
  assetNumber: keptText('管理番号', 50),
  maker: text('メーカー', 100),
  deviceType: optionalText('種類', 50),
  model: optionalText('型番', 100),
  ...heldFields(COMPUTER_STATUSES),
  reason: optionalText('理由', 500),
  purchaseDate: date('購入日'),
  introductionDate: date('導入日'),
  officeAccountId: ref('Microsoft Office アカウント'),
  pinCode: optionalText('PINコード', 100),
  pass: optionalText('パスワード', 100),
  acAdapter: optionalText('ACアダプター', 100),
  powerCable: optionalText('電源ケーブル', 100),
};
const fields = computerFields;
export type ComputerData = z.infer<z.ZodObject<typeof fields>>;
type Data = ComputerData;

/** A computer cannot be introduced before it was bought. */
export const datesInOrder = (d: { purchaseDate: string | null; introductionDate: string | null }) =>
  !d.purchaseDate || !d.introductionDate || d.purchaseDate <= d.introductionDate;
const order = { message: '導入日は購入日以降の日付にしてください。', path: ['introductionDate'] };
/** The rules of a computer's fields (the form, the API and the Excel import alike). */
export const computerSchema = z.object(fields).refine(datesInOrder, order);
const createSchema = computerSchema;
const updateSchema = z.object({ ...fields, version: version() }).refine(datesInOrder, order);

const snapshot = (e: Computer) => ({
  ...heldSnapshot(e),
  assetNumber: e.assetNumber ?? null,
  maker: e.maker,
  deviceType: e.deviceType ?? null,
  model: e.model ?? null,
  officeAccountId: e.officeAccount?.id ?? null,
  purchaseDate: e.purchaseDate ?? null,
  introductionDate: e.introductionDate ?? null,
});

/** 管理番号 is unique; a save that clashes names the field. */
export const ASSET_NUMBER_TAKEN = 'この管理番号は既に使われています。';

/** Computer writes (管理者, デバイス管理者, システム管理者). */
export class ComputerAdminService {
  private readonly hooks = heldHooks<Computer, Data>(DeviceKind.COMPUTER, { created: 'device.computer.created', updated: 'device.computer.updated' }, snapshot);
  private readonly spec: WriteSpec<Computer, Data, ComputerView>;

  constructor(computers: ComputerService) {
    this.spec = {
      noun: 'パソコン',
      entity: Computer,
      createSchema,
      updateSchema,
      unique: { computer_asset_number: { field: 'assetNumber', message: ASSET_NUMBER_TAKEN } },
      ...this.hooks,
      // An update that leaves 管理番号 out keeps it (forms and tools that predate it never clear it).
      prepare: (data, before) => this.hooks.prepare(data.assetNumber === undefined ? { ...data, assetNumber: before.assetNumber } : data, before),
      values: (e) => ({
        assetNumber: e.assetNumber ?? null,
        maker: e.maker,
        deviceType: e.deviceType ?? null,
        model: e.model ?? null,
        ...heldValues(e),
        reason: e.reason ?? null,
        purchaseDate: e.purchaseDate ?? null,
        introductionDate: e.introductionDate ?? null,
        officeAccountId: e.officeAccount?.id ?? null,
        pinCode: e.pinCode ?? null,
        pass: e.pass ?? null,
        acAdapter: e.acAdapter ?? null,
        powerCable: e.powerCable ?? null,
      }),
      toEntity: ({ officeAccountId, assetNumber, ...rest }) => ({ ...heldEntity(rest), assetNumber: assetNumber ?? null, officeAccount: officeAccountId }),
      get: (ctx, id) => computers.get(ctx, id),
    };
  }

  create(ctx: AppContext, input: unknown): Promise<ComputerView> {
    return createRecord(ctx, this.spec, input);
  }

  update(ctx: AppContext, id: number, input: unknown): Promise<ComputerView> {
    return updateRecord(ctx, this.spec, id, input);
  }

  /** Hands back every computer `employeeId` holds, inside the caller's transaction (offboarding). */
  returnFrom(tx: EntityManager, employeeId: number, actorId: number): Promise<number[]> {
    return returnHeld(tx, Computer, employeeId, actorId, this.hooks.recordUpdated);
  }
}
