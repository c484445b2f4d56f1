import { Migration } from '@mikro-orm/migrations';

/**
 * The internal blog: categories (who sees them, who posts in them), tags, posts with their tags and
 * one attachment. Dates of the publish and pin windows are calendar dates in Asia/Tokyo, inclusive.
 * Likes, seen marks, saves and comments (issue 26) get tables of their own keyed by post id.
 */
export class Migration20261126220000_blog extends Migration {
  override async up(): Promise<void> {
    // members_may_post: the spec's permissions. true = 書き込み + 閲覧 (members read and post),
    // false = 閲覧 only (members read; 管理者 and システム管理者 post).
    this.addSql(`create table "blog_category" (
      "id" serial primary key,
      "name" varchar(100) not null,
      "color" varchar(7) not null default '#000000',
      "members_may_post" boolean not null default true,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      "updated_by_id" int null references "employee" ("id") on delete set null,
      "version" int not null default 1,
      constraint "blog_category_name_key" unique ("name"),
      constraint "blog_category_color" check ("color" ~ '^#[0-9a-f]{6}$'));`);
    // Who sees a category: employees named one by one, and whole departments (their members as
    // they are at the time of reading, so a transfer moves visibility with the person).
    this.addSql(`create table "blog_category_employee" (
      "category_id" int not null references "blog_category" ("id") on delete cascade,
      "employee_id" int not null references "employee" ("id") on delete cascade,
      primary key ("category_id", "employee_id"));`);
    this.addSql(
      `create index "blog_category_employee_employee_idx" on "blog_category_employee" ("employee_id", "category_id");`,
    );
    this.addSql(`create table "blog_category_department" (
      "category_id" int not null references "blog_category" ("id") on delete cascade,
      "department_id" int not null references "department" ("id") on delete cascade,
      primary key ("category_id", "department_id"));`);
    this.addSql(
      `create index "blog_category_department_department_idx" on "blog_category_department" ("department_id", "category_id");`,
    );

    this.addSql(`create table "blog_tag" (
      "id" serial primary key,
      "content" varchar(50) not null,
      "created_by_id" int null references "employee" ("id") on delete set null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      "updated_by_id" int null references "employee" ("id") on delete set null,
      "version" int not null default 1);`);
    this.addSql(`create unique index "blog_tag_content_key" on "blog_tag" (lower("content"));`);

    this.addSql(`create table "blog_post" (
      "id" serial primary key,
      "title" varchar(200) not null,
      "content" jsonb not null,
      "content_html" text not null,
      "category_id" int null references "blog_category" ("id") on delete restrict,
      "author_id" int not null references "employee" ("id") on delete restrict,
      "allow_comments" boolean not null default true,
      "allow_likes" boolean not null default true,
      "publish_start" date not null,
      "publish_end" date null,
      "is_pin" boolean not null default false,
      "pin_start" date null,
      "pin_end" date null,
      "is_draft" boolean not null default false,
      "attachment_key" varchar(255) null,
      "attachment_name" varchar(255) null,
      "attachment_type" varchar(100) null,
      "attachment_size" int null,
      "attachment_thumb_key" varchar(255) null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      "updated_by_id" int null references "employee" ("id") on delete set null,
      "version" int not null default 1,
      constraint "blog_post_category" check ("is_draft" or "category_id" is not null),
      constraint "blog_post_publish_window" check ("publish_end" is null or "publish_end" >= "publish_start"),
      constraint "blog_post_pin_window" check (("is_pin" and "pin_start" is not null and "pin_end" is not null and "pin_end" >= "pin_start")
        or (not "is_pin" and "pin_start" is null and "pin_end" is null)),
      constraint "blog_post_attachment" check (("attachment_key" is null) = ("attachment_name" is null)
        and ("attachment_key" is null) = ("attachment_type" is null) and ("attachment_key" is null) = ("attachment_size" is null)));`);
    // The feed reads each of the viewer's categories newest first from this index and merges them
    // (a few categories × one page of rows, whatever the table's size); keyset paging continues
    // from (publish_start, id).
    this.addSql(
      `create index "blog_post_feed_idx" on "blog_post" ("category_id", "publish_start" desc, "id" desc) where not "is_draft";`,
    );
    // 速報: the few posts with a pin, by category.
    this.addSql(
      `create index "blog_post_pin_idx" on "blog_post" ("category_id", "pin_end") where "is_pin" and not "is_draft";`,
    );
    // My blogs: every post of one author, drafts included.
    this.addSql(`create index "blog_post_author_idx" on "blog_post" ("author_id", "publish_start" desc, "id" desc);`);

    this.addSql(`create table "blog_post_tag" (
      "post_id" int not null references "blog_post" ("id") on delete cascade,
      "tag_id" int not null references "blog_tag" ("id") on delete cascade,
      primary key ("post_id", "tag_id"));`);
    this.addSql(`create index "blog_post_tag_tag_idx" on "blog_post_tag" ("tag_id", "post_id");`);
  }

  override async down(): Promise<void> {
    for (const t of [
      'blog_post_tag',
      'blog_post',
      'blog_tag',
      'blog_category_department',
      'blog_category_employee',
      'blog_category',
    ]) {
      this.addSql(`drop table if exists "${t}";`);
    }
  }
}
