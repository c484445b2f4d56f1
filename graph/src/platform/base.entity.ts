import { OptionalProps, Property } from '@mikro-orm/core';

/** Timestamps and the optimistic-lock version every editable record carries. */
export abstract class VersionedEntity<Optional extends string = never> {
  [OptionalProps]?: 'createdAt' | 'updatedAt' | 'version' | 'updatedById' | Optional;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Date = new Date();

  @Property({ version: true, default: 1 })
  version!: number;

  /** The employee who saved last (for conflict messages and history). */
  @Property({ nullable: true, fieldName: 'updated_by_id' })
  updatedById?: number | null;
}
