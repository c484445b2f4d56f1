import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { HeldDevice } from '../devices/device.entity.js';

type Optional = 'carrier' | 'os' | 'price' | 'exchangeDate' | 'pinPw';

@Entity({ tableName: 'smartphone' })
export class Smartphone extends HeldDevice<Optional> {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @Property({ length: 20 })
  phoneNumber!: string;

  @Property({ length: 50, nullable: true })
  carrier?: string | null;

  @Property({ length: 50, nullable: true })
  os?: string | null;

  /** Yen. */
  @Property({ nullable: true })
  price?: number | null;

  /** YYYY-MM-DD */
  @Property({ type: 'date', nullable: true })
  exchangeDate?: string | null;

  @Property({ length: 100, nullable: true })
  pinPw?: string | null;
}
