import { z } from 'zod';
import type { EntityManager } from '@mikro-orm/postgresql';
import { rulesOf } from '../../lib/record/field.js';
import type { AppContext } from '../../platform/context.js';
import { DeviceKind } from '../devices/device.enums.js';
import { heldHooks, heldSnapshot, returnHeld } from '../devices/device.held.js';
import { entityData, entityValues, eventValues, keptKeys } from '../devices/device.record.js';
import { version } from '../devices/device.validation.js';
import { createRecord, updateRecord, type WriteSpec } from '../devices/device.writer.js';
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
      keptWhenOmitted: keptKeys(SMARTPHONE_FIELDS),
      values: entityValues<Data>(SMARTPHONE_FIELDS),
      toEntity: entityData(SMARTPHONE_FIELDS),
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
