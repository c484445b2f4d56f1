import { Entity, Index, ManyToOne, PrimaryKey, Property, type Rel } from '@mikro-orm/core';
import { Employee } from '../employees/employee.entity.js';

/** A server-side session. The id is the SHA-256 of the opaque token; the token itself is never stored. */
@Entity({ tableName: 'session' })
export class Session {
  @PrimaryKey({ length: 64 })
  id!: string;

  @ManyToOne(() => Employee, { deleteRule: 'cascade' })
  @Index()
  employee!: Rel<Employee>;

  @Property({ type: 'timestamptz' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz' })
  lastSeenAt: Date = new Date();

  @Property({ type: 'timestamptz' })
  idleExpiresAt!: Date;

  @Property({ type: 'timestamptz' })
  absoluteExpiresAt!: Date;

  @Property()
  remember!: boolean;

  @Property({ length: 400, nullable: true })
  userAgent?: string | null;

  @Property({ length: 64, nullable: true })
  ip?: string | null;
}

/** Failed-login counters shared by every graph instance. */
@Entity({ tableName: 'login_throttle' })
export class LoginThrottle {
  @PrimaryKey({ length: 400 })
  key!: string;

  @Property()
  failures!: number;

  @Property({ type: 'timestamptz' })
  windowStartedAt!: Date;
}
