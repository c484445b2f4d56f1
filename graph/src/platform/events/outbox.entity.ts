import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * Domain events written in the same transaction as the change they describe. The table is the
 * queue of events not yet published: the relay moves each published row to `outbox_sent` (same
 * columns + `sent_at`, no entity: only the relay and the prune touch it); the view `outbox_all`
 * shows both.
 */
@Entity({ tableName: 'outbox_event' })
export class OutboxEvent {
  /** Commit order of the outbox (the relay claims in this order); assigned by the database. */
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  seq!: string;

  @Property({ type: 'uuid' })
  id!: string;

  @Property({ length: 100 })
  type!: string;

  @Property({ length: 60 })
  aggregateType!: string;

  @Property({ length: 100 })
  aggregateId!: string;

  @Property({ type: 'timestamptz' })
  occurredAt!: Date;

  @Property({ type: 'integer', nullable: true })
  actorId?: number | null;

  @Property({ type: 'jsonb' })
  payload!: Record<string, unknown>;

  @Property()
  version!: number;
}
