import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { VersionedEntity } from '../../platform/base.entity.js';

/**
 * A blog category: admins create and edit them one at a time in a form (so it has an entity, see
 * docs/data-access.md). Who sees it lives in blog_category_employee / blog_category_department,
 * written with SQL beside the entity.
 */
@Entity({ tableName: 'blog_category' })
export class BlogCategory extends VersionedEntity<'color' | 'membersMayPost'> {
  @PrimaryKey({ autoincrement: true })
  id!: number;

  @Property({ length: 100, unique: 'blog_category_name_key' })
  name!: string;

  /** #rrggbb */
  @Property({ length: 7, default: '#000000' })
  color: string = '#000000';

  /** 書き込み: members post too; without it only 管理者 and システム管理者 post here. */
  @Property({ default: true })
  membersMayPost: boolean = true;
}
