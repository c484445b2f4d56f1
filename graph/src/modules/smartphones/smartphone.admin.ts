import { z } from 'zod';
import { rulesOf } from '../../lib/record/field.js';
import { DeviceKind } from '../devices/device.enums.js';
import { HeldDeviceAdmin } from '../devices/device.held-admin.js';
import { heldHooks, heldSnapshot } from '../devices/device.held.js';
import { entityData, entityValues, eventValues, keptKeys } from '../devices/device.record.js';
import { version } from '../devices/device.validation.js';
import { Smartphone } from './smartphone.entity.js';
import { SMARTPHONE_FIELDS } from './smartphone.fields.js';
import type { SmartphoneService } from './smartphone.service.js';
import type { SmartphoneView } from './smartphone.types.js';

const fields = rulesOf(SMARTPHONE_FIELDS);
type Data = z.infer<z.ZodObject<typeof fields>>;
const createSchema = z.object(fields);
const updateSchema = z.object({ ...fields, version: version() });

const events = eventValues(SMARTPHONE_FIELDS);
const snapshot = (e: Smartphone) => ({ ...heldSnapshot(e), ...events(e) });

/** Smartphone writes (管理者, デバイス管理者, システム管理者). */
export class SmartphoneAdminService extends HeldDeviceAdmin<Smartphone, Data, SmartphoneView> {
  constructor(smartphones: SmartphoneService) {
    const hooks = heldHooks<Smartphone, Data>(
      DeviceKind.SMARTPHONE,
      {
        created: 'device.smartphone.created',
        updated: 'device.smartphone.updated',
      },
      snapshot,
    );
    super(
      {
        noun: 'スマートフォン',
        entity: Smartphone,
        createSchema,
        updateSchema,
        ...hooks,
        keptWhenOmitted: keptKeys(SMARTPHONE_FIELDS),
        values: entityValues<Data>(SMARTPHONE_FIELDS),
        toEntity: entityData(SMARTPHONE_FIELDS),
        get: (ctx, id) => smartphones.get(ctx, id),
      },
      hooks.recordUpdated,
    );
  }
}
