import { Entity, ManyToOne, PrimaryKey, type Rel } from '@mikro-orm/core';
import { entityColumns } from '../../lib/record/entity.js';
import type { ColumnsOf } from '../../lib/record/field.js';
import { HeldDevice } from '../devices/device.entity.js';
import { OfficeAccount } from '../office-accounts/office-account.entity.js';
import { COMPUTER_FIELDS } from './computer.fields.js';

@Entity({ tableName: 'computer' })
export class Computer extends HeldDevice<keyof ColumnsOf<typeof COMPUTER_FIELDS> | 'officeAccount'> {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  /** The spec's `ms365`. */
  @ManyToOne(() => OfficeAccount, { nullable: true, deleteRule: 'set null' })
  officeAccount?: Rel<OfficeAccount> | null;
}

/** The computer's own columns, as COMPUTER_FIELDS describes them (entityColumns maps them). */
export interface Computer extends ColumnsOf<typeof COMPUTER_FIELDS> {}
entityColumns(Computer, COMPUTER_FIELDS);
