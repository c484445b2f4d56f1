import { Migration } from '@mikro-orm/migrations';

/**
 * Likes, seen marks and saves of blog posts: one row per (post, employee). The primary key reads a
 * post's rows (counts, likers); the (employee, post) index reads one employee's (New! and saved
 * flags of a feed page, the Saved blogs filter).
 */
export class Migration20261127020000_blog_engagement extends Migration {
  override async up(): Promise<void> {
    for (const t of ['blog_like', 'blog_seen', 'blog_save']) {
      this.addSql(`create table "${t}" (
        "post_id" int not null references "blog_post" ("id") on delete cascade,
        "employee_id" int not null references "employee" ("id") on delete cascade,
        "created_at" timestamptz not null default now(),
        primary key ("post_id", "employee_id"));`);
      this.addSql(`create index "${t}_employee_idx" on "${t}" ("employee_id", "post_id");`);
    }
  }

  override async down(): Promise<void> {
    for (const t of ['blog_save', 'blog_seen', 'blog_like']) this.addSql(`drop table if exists "${t}";`);
  }
}
