import { z } from 'zod';
import type { AppContext } from '../../platform/context.js';
import { AssetKind } from '../devices/device.enums.js';
import { aggregateIdOf, recordDeviceEvent } from '../devices/device.history.js';
import { version } from '../devices/device.validation.js';
import { createRecord, updateRecord, type WriteSpec } from '../devices/device.writes.js';
import { rulesOf } from '../../lib/record/field.js';
import { entityData, entityValues } from '../devices/device.record.js';
import { OfficeAccount } from './office-account.entity.js';
import { OFFICE_ACCOUNT_FIELDS } from './office-account.fields.js';
import type { OfficeAccountService } from './office-account.service.js';
import type { OfficeAccountView } from './office-account.types.js';

const fields = rulesOf(OFFICE_ACCOUNT_FIELDS);
type Data = z.infer<z.ZodObject<typeof fields>>;
const UNIQUE = {
  office_account_account_key: { field: 'account', message: 'このアカウントはすでに登録されています。' },
};

const snapshot = (e: OfficeAccount) => ({ id: e.id, account: e.account, status: e.status, version: e.version });

/** Office account writes (管理者, デバイス管理者, システム管理者). The usage count is never written: it is counted. */
export class OfficeAccountAdminService {
  private readonly spec: WriteSpec<OfficeAccount, Data, OfficeAccountView>;

  constructor(accounts: OfficeAccountService) {
    this.spec = {
      noun: 'Microsoft Office アカウント',
      entity: OfficeAccount,
      createSchema: z.object(fields),
      updateSchema: z.object({ ...fields, version: version() }),
      unique: UNIQUE,
      values: entityValues<Data>(OFFICE_ACCOUNT_FIELDS),
      checkRefs: async () => undefined,
      toEntity: entityData(OFFICE_ACCOUNT_FIELDS),
      recordCreated: (tx, e, actorId) =>
        recordDeviceEvent(tx, {
          type: 'device.office_account.created',
          aggregateId: aggregateIdOf(AssetKind.OFFICE_ACCOUNT, e.id),
          actorId,
          payload: { device: snapshot(e) },
        }),
      recordUpdated: (tx, e, changed, _before, actorId) =>
        recordDeviceEvent(tx, {
          type: 'device.office_account.updated',
          aggregateId: aggregateIdOf(AssetKind.OFFICE_ACCOUNT, e.id),
          actorId,
          payload: { device: snapshot(e), changed },
        }),
      get: (ctx, id) => accounts.get(ctx, id),
    };
  }

  create(ctx: AppContext, input: unknown): Promise<OfficeAccountView> {
    return createRecord(ctx, this.spec, input);
  }

  update(ctx: AppContext, id: number, input: unknown): Promise<OfficeAccountView> {
    return updateRecord(ctx, this.spec, id, input);
  }
}
