import { Migration } from '@mikro-orm/migrations';

/**
 * Pictures in a post's body (the editor's image tool): uploaded one by one before the post is
 * saved, then bound to the post that shows them. Served to their uploader, and to whoever may read
 * that post; an image no post shows stays its uploader's.
 */
export class Migration20261126232000_blog_images extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "blog_image" (
      "key" varchar(255) primary key,
      "name" varchar(255) not null,
      "content_type" varchar(100) not null,
      "size" int not null,
      "uploaded_by_id" int not null references "employee" ("id") on delete cascade,
      "post_id" int null references "blog_post" ("id") on delete set null,
      "created_at" timestamptz not null default now());`);
    this.addSql(`create index "blog_image_post_idx" on "blog_image" ("post_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "blog_image";`);
  }
}
