import { OptionalProps, Property } from '@mikro-orm/core';

/** Timestamps and the optimistic-lock version every editable record carries. */
export abstract class VersionedEntity<Optional extends string = never> {
  [OptionalProps]?: 'createdAt' | 'updatedAt' | 'version' | Optional;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Property({ type: 'timestamptz', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Date = new Date();

  @Property({ version: true, default: 1 })
  version!: number;
}
