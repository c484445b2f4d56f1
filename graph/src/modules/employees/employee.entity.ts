import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, type Rel } from '@mikro-orm/core';
import { VersionedEntity } from '../../platform/base.entity.js';
import { Department, Location } from '../departments/department.entity.js';
import { EmployeeRole, EmployeeStatus } from './employee.enums.js';

@Entity({ tableName: 'employee' })
@Index({ properties: ['status', 'department'] })
export class Employee extends VersionedEntity<'googleSub' | 'department' | 'location' | 'status'> {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @Property({ length: 100 })
  @Index({
    name: 'employee_name_trgm',
    expression: 'create index "employee_name_trgm" on "employee" using gin ("name" gin_trgm_ops)',
  })
  name!: string;

  @Property({ length: 254, nullable: true, unique: true })
  email?: string | null;

  /** Unique regardless of case (index employee_login_id_lower_key on lower(login_id)); sign-in compares lower-case too. */
  @Property({ length: 64 })
  loginId!: string;

  /** argon2id hash; never selected unless asked for, never serialised. */
  @Property({ lazy: true, hidden: true, length: 255 })
  passwordHash!: string;

  @Enum({ items: () => EmployeeRole, nativeEnumName: 'employee_role' })
  role!: EmployeeRole;

  @Enum({ items: () => EmployeeStatus, nativeEnumName: 'employee_status', default: EmployeeStatus.ACTIVE })
  status: EmployeeStatus = EmployeeStatus.ACTIVE;

  @ManyToOne(() => Department, { nullable: true, deleteRule: 'set null' })
  department?: Rel<Department> | null;

  @ManyToOne(() => Location, { nullable: true, deleteRule: 'set null' })
  location?: Rel<Location> | null;

  @Property({ length: 255, nullable: true, unique: true })
  googleSub?: string | null;
}
