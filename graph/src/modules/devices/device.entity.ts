import { Enum, ManyToOne, type Rel } from '@mikro-orm/core';
import { VersionedEntity } from '../../platform/base.entity.js';
import { Department, Location } from '../departments/department.entity.js';
import type { Employee } from '../employees/employee.entity.js';
import { DeviceStatus } from './device.enums.js';

type HeldOptional = 'currentUser' | 'previousUser' | 'location' | 'department' | 'status';

/** What computers and smartphones share: who holds them, where, for which department, in what state. */
export abstract class HeldDevice<Optional extends string = never> extends VersionedEntity<HeldOptional | Optional> {
  abstract id: number;

  @ManyToOne('Employee', { nullable: true, deleteRule: 'set null' })
  currentUser?: Rel<Employee> | null;

  @ManyToOne('Employee', { nullable: true, deleteRule: 'set null' })
  previousUser?: Rel<Employee> | null;

  @ManyToOne(() => Location, { nullable: true, deleteRule: 'set null' })
  location?: Rel<Location> | null;

  @ManyToOne(() => Department, { nullable: true, deleteRule: 'set null' })
  department?: Rel<Department> | null;

  @Enum({ items: () => DeviceStatus, nativeEnumName: 'device_status', default: DeviceStatus.NORMAL })
  status: DeviceStatus = DeviceStatus.NORMAL;
}
