import { Migration } from '@mikro-orm/migrations';

/**
 * Every save of a post keeps a revision (who, when, the whole post as saved), so an earlier version
 * can be read, compared and restored. Category and tags are kept by name too (they may be renamed or
 * deleted later); the attachment by name only (a replaced file is removed). Each post starts with its
 * current state as its first kept revision.
 */
export class Migration20261207100000_blog_post_revision extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "blog_post_revision" (
      "post_id" int not null references "blog_post" ("id") on delete cascade,
      "version" int not null,
      "saved_by_id" int null references "employee" ("id") on delete set null,
      "saved_at" timestamptz not null,
      "restored_from" int null,
      "title" text not null,
      "content" jsonb not null,
      "content_html" text not null,
      "category_id" int null,
      "category_name" text null,
      "tag_ids" int[] not null,
      "tag_names" text[] not null,
      "allow_comments" boolean not null,
      "allow_likes" boolean not null,
      "publish_start" date not null,
      "publish_end" date null,
      "is_pin" boolean not null,
      "pin_start" date null,
      "pin_end" date null,
      "is_draft" boolean not null,
      "require_confirmation" boolean not null,
      "attachment_name" text null,
      primary key ("post_id", "version")
    );`);
    this.addSql(`insert into "blog_post_revision"
      select p.id, p.version, coalesce(p.updated_by_id, p.author_id), p.updated_at, null, p.title, p.content, p.content_html,
             p.category_id, c.name,
             array(select t.id from blog_post_tag pt join blog_tag t on t.id = pt.tag_id where pt.post_id = p.id order by lower(t.content), t.id),
             array(select t.content from blog_post_tag pt join blog_tag t on t.id = pt.tag_id where pt.post_id = p.id order by lower(t.content), t.id),
             p.allow_comments, p.allow_likes, p.publish_start, p.publish_end, p.is_pin, p.pin_start, p.pin_end, p.is_draft,
             p.require_confirmation, p.attachment_name
        from blog_post p left join blog_category c on c.id = p.category_id;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "blog_post_revision";`);
  }
}
