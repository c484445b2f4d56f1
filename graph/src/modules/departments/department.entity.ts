import { Entity, ManyToOne, PrimaryKey, Property, type Rel } from '@mikro-orm/core';
import { VersionedEntity } from '../../platform/base.entity.js';
import type { Employee } from '../employees/employee.entity.js';

@Entity({ tableName: 'department' })
export class Department extends VersionedEntity<'manager' | 'sortOrder'> {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @Property({ length: 100, unique: true })
  name!: string;

  @ManyToOne('Employee', { nullable: true, deleteRule: 'set null' })
  manager?: Rel<Employee> | null;

  @Property({ default: 0 })
  sortOrder: number = 0;
}

/** Office locations (東京, 姫路, 大阪 …) are master data, not a hard-coded list. */
@Entity({ tableName: 'location' })
export class Location {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @Property({ length: 50, unique: true })
  name!: string;

  @Property({ default: 0 })
  sortOrder: number = 0;
}
