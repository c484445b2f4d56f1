import { Migration } from '@mikro-orm/migrations';

/**
 * Required reading of 速報 posts: the author asks the post's readers to confirm (require_confirmation,
 * only with the pin), and each reader's confirmation is one row (post, employee) — a reset after a
 * major edit deletes a post's rows. The (employee, post) index reads one reader's flags of a feed page.
 */
export class Migration20261127050000_blog_required_reading extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "blog_post" add column "require_confirmation" boolean not null default false;`);
    this.addSql(`create table "blog_read_confirmation" (
      "post_id" int not null references "blog_post" ("id") on delete cascade,
      "employee_id" int not null references "employee" ("id") on delete cascade,
      "created_at" timestamptz not null default now(),
      primary key ("post_id", "employee_id"));`);
    this.addSql(
      `create index "blog_read_confirmation_employee_idx" on "blog_read_confirmation" ("employee_id", "post_id");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "blog_read_confirmation";`);
    this.addSql(`alter table "blog_post" drop column if exists "require_confirmation";`);
  }
}
