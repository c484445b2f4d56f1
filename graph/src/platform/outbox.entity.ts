import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';

/** Domain events written in the same transaction as the change they describe. */
@Entity({ tableName: 'outbox_event' })
@Index({ name: 'outbox_unsent', expression: 'create index "outbox_unsent" on "outbox_event" ("seq") where "sent_at" is null' })
export class OutboxEvent {
  @PrimaryKey({ type: 'uuid' })
  id!: string;

  @Property({ type: 'bigint', autoincrement: true, unique: true, persist: false })
  seq!: string;

  @Property({ length: 100 })
  type!: string;

  @Property({ length: 60 })
  aggregateType!: string;

  @Property({ length: 100 })
  aggregateId!: string;

  @Property({ type: 'timestamptz' })
  occurredAt!: Date;

  @Property({ nullable: true })
  actorId?: number | null;

  @Property({ type: 'jsonb' })
  payload!: Record<string, unknown>;

  @Property()
  version!: number;

  @Property({ type: 'timestamptz', nullable: true })
  sentAt?: Date | null;
}
