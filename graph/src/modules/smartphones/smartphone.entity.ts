import { Entity, PrimaryKey } from '@mikro-orm/core';
import { entityColumns } from '../../lib/record/entity.js';
import type { ColumnsOf } from '../../lib/record/field.js';
import { HeldDevice } from '../devices/device.entity.js';
import { SMARTPHONE_FIELDS } from './smartphone.fields.js';

@Entity({ tableName: 'smartphone' })
export class Smartphone extends HeldDevice<keyof ColumnsOf<typeof SMARTPHONE_FIELDS>> {
  @PrimaryKey({ autoincrement: true })
  id!: number;
}

/** The smartphone's own columns, as SMARTPHONE_FIELDS describes them (entityColumns maps them). */
export interface Smartphone extends ColumnsOf<typeof SMARTPHONE_FIELDS> {}
entityColumns(Smartphone, SMARTPHONE_FIELDS);
