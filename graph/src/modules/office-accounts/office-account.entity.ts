import { Entity, Enum, PrimaryKey } from '@mikro-orm/core';
import { entityColumns } from '../../lib/record/entity.js';
import type { ColumnsOf } from '../../lib/record/field.js';
import { VersionedEntity } from '../../platform/base.entity.js';
import { OfficeAccountStatus } from '../devices/device.enums.js';
import { OFFICE_ACCOUNT_FIELDS } from './office-account.fields.js';

/** A Microsoft Office (365) account; computers point at it, its usage count is derived from them. */
@Entity({ tableName: 'office_account' })
export class OfficeAccount extends VersionedEntity<'status'> {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @Enum({
    items: () => OfficeAccountStatus,
    nativeEnumName: 'office_account_status',
    default: OfficeAccountStatus.IN_USE,
  })
  status: OfficeAccountStatus = OfficeAccountStatus.IN_USE;
}

/** The account's own columns, as OFFICE_ACCOUNT_FIELDS describes them (entityColumns maps them). */
export interface OfficeAccount extends ColumnsOf<typeof OFFICE_ACCOUNT_FIELDS> {}
entityColumns(OfficeAccount, OFFICE_ACCOUNT_FIELDS);
