import { Entity, ManyToOne, PrimaryKey, Property, type Rel } from '@mikro-orm/core';
import { HeldDevice } from '../devices/device.entity.js';
import { OfficeAccount } from '../office-accounts/office-account.entity.js';

type Optional = 'assetNumber' | 'deviceType' | 'model' | 'reason' | 'purchaseDate' | 'introductionDate' | 'officeAccount' | 'pinCode' | 'pass' | 'acAdapter' | 'powerCable';

@Entity({ tableName: 'computer' })
export class Computer extends HeldDevice<Optional> {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  /** 管理番号: the stable key of the Excel import (unique when set). */
  @Property({ length: 50, nullable: true, unique: 'computer_asset_number_key' })
  assetNumber?: string | null;

  @Property({ length: 100 })
  maker!: string;

  @Property({ length: 50, nullable: true })
  deviceType?: string | null;

  @Property({ length: 100, nullable: true })
  model?: string | null;

  @Property({ length: 500, nullable: true })
  reason?: string | null;

  /** YYYY-MM-DD */
  @Property({ type: 'date', nullable: true })
  purchaseDate?: string | null;

  /** YYYY-MM-DD */
  @Property({ type: 'date', nullable: true })
  introductionDate?: string | null;

  /** The spec's `ms365`. */
  @ManyToOne(() => OfficeAccount, { nullable: true, deleteRule: 'set null' })
  officeAccount?: Rel<OfficeAccount> | null;

  @Property({ length: 100, nullable: true })
  pinCode?: string | null;

  @Property({ length: 100, nullable: true })
  pass?: string | null;

  @Property({ length: 100, nullable: true })
  acAdapter?: string | null;

  @Property({ length: 100, nullable: true })
  powerCable?: string | null;
}
