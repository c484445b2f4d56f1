import { z } from 'zod';
import { rulesOf } from '../../lib/record/field.js';
import { DeviceKind } from '../devices/device.enums.js';
import { HeldDeviceAdmin } from '../devices/device.held-admin.js';
import { heldHooks, heldSnapshot } from '../devices/device.held.js';
import { entityData, entityValues, eventValues, keptKeys } from '../devices/device.record.js';
import { version } from '../devices/device.validation.js';
import { Computer } from './computer.entity.js';
import { COMPUTER_FIELDS } from './computer.fields.js';
import type { ComputerService } from './computer.service.js';
import type { ComputerView } from './computer.types.js';

/** The field rules of a computer (one definition: the form, the API and the import use these). */
export const computerFields = rulesOf(COMPUTER_FIELDS);
const fields = computerFields;
export type ComputerData = z.infer<z.ZodObject<typeof fields>>;
type Data = ComputerData;

/** A computer cannot be introduced before it was bought. */
export const datesInOrder = (d: { purchaseDate: string | null; introductionDate: string | null }) =>
  !d.purchaseDate || !d.introductionDate || d.purchaseDate <= d.introductionDate;
const order = {
  message: '導入日は購入日以降の日付にしてください。',
  path: ['introductionDate'],
};
/** The rules of a computer's fields (the form, the API and the Excel import alike). */
export const computerSchema = z.object(fields).refine(datesInOrder, order);
const createSchema = computerSchema;
const updateSchema = z.object({ ...fields, version: version() }).refine(datesInOrder, order);

/** 管理番号 is unique; a save that clashes names the field. */
export const ASSET_NUMBER_TAKEN = 'この管理番号は既に使われています。';

const events = eventValues(COMPUTER_FIELDS);
const snapshot = (e: Computer) => ({ ...heldSnapshot(e), ...events(e) });

/** Computer writes (管理者, デバイス管理者, システム管理者). */
export class ComputerAdminService extends HeldDeviceAdmin<Computer, Data, ComputerView> {
  constructor(computers: ComputerService) {
    const hooks = heldHooks<Computer, Data>(
      DeviceKind.COMPUTER,
      {
        created: 'device.computer.created',
        updated: 'device.computer.updated',
      },
      snapshot,
    );
    super(
      {
        noun: 'パソコン',
        entity: Computer,
        createSchema,
        updateSchema,
        unique: {
          computer_asset_number: {
            field: 'assetNumber',
            message: ASSET_NUMBER_TAKEN,
          },
        },
        ...hooks,
        keptWhenOmitted: keptKeys(COMPUTER_FIELDS),
        values: entityValues<Data>(COMPUTER_FIELDS),
        toEntity: entityData(COMPUTER_FIELDS),
        get: (ctx, id) => computers.get(ctx, id),
      },
      hooks.recordUpdated,
    );
  }
}
