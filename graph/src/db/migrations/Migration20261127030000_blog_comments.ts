import { Migration } from '@mikro-orm/migrations';

/**
 * Comments on blog posts, one level of replies (parent_id: a top-level comment), one attachment
 * each (stored like a post's). A commenter whose employee row is gone leaves the comment with no
 * author ('Unknown'). The (post_id, created_at) index reads a post's thread in order and its count.
 */
export class Migration20261127030000_blog_comments extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "blog_comment" (
      "id" serial primary key,
      "post_id" int not null references "blog_post" ("id") on delete cascade,
      "author_id" int null references "employee" ("id") on delete set null,
      "parent_id" int null references "blog_comment" ("id") on delete cascade,
      "content" text not null check (length(btrim("content")) > 0 and char_length("content") <= 2000),
      "attachment_key" text null,
      "attachment_name" text null,
      "attachment_type" text null,
      "attachment_size" int null,
      "attachment_thumb_key" text null,
      "created_at" timestamptz not null default now());`);
    this.addSql(`create index "blog_comment_post_idx" on "blog_comment" ("post_id", "created_at");`);
    this.addSql(
      `create index "blog_comment_parent_idx" on "blog_comment" ("parent_id") where "parent_id" is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "blog_comment";`);
  }
}
