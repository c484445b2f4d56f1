import { Entity, Enum, PrimaryKey, Property } from '@mikro-orm/core';
import { VersionedEntity } from '../../platform/base.entity.js';
import { OfficeAccountStatus } from '../devices/device.enums.js';

/** A Microsoft Office (365) account; computers point at it, its usage count is derived from them. */
@Entity({ tableName: 'office_account' })
export class OfficeAccount extends VersionedEntity<'status'> {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  /** Unique regardless of case (index office_account_account_key on lower(account)). */
  @Property({ length: 254 })
  account!: string;

  @Enum({ items: () => OfficeAccountStatus, nativeEnumName: 'office_account_status', default: OfficeAccountStatus.IN_USE })
  status: OfficeAccountStatus = OfficeAccountStatus.IN_USE;
}
