import { Migration } from '@mikro-orm/migrations';

/**
 * Blog statistics. `blog_view`: an employee's first opening of a post (written with the first seen
 * mark and never cleared by taking the mark back), so a view is counted once, in the period it
 * happened. The rollups, kept by the `statistics` consumer from the blog's events and rebuilt from
 * the source tables by `npm run workers -- statistics rebuild`: per post and Tokyo day, and per
 * employee, post and day (the actor's likes, first views and comments).
 */
export class Migration20261206040000_blog_statistics extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "blog_view" (
      "post_id" int not null references "blog_post" ("id") on delete cascade,
      "employee_id" int not null references "employee" ("id") on delete cascade,
      "viewed_at" timestamptz not null default now(),
      primary key ("post_id", "employee_id"));`);
    this.addSql(
      `insert into "blog_view" ("post_id", "employee_id", "viewed_at") select "post_id", "employee_id", "created_at" from "blog_seen";`,
    );
    this.addSql(`create table "blog_stat_post_day" (
      "post_id" int not null references "blog_post" ("id") on delete cascade,
      "day" date not null,
      "likes" int not null default 0,
      "views" int not null default 0,
      "comments" int not null default 0,
      primary key ("post_id", "day"));`);
    this.addSql(`create index "blog_stat_post_day_day_idx" on "blog_stat_post_day" ("day", "post_id");`);
    this.addSql(`create table "blog_stat_actor_day" (
      "post_id" int not null references "blog_post" ("id") on delete cascade,
      "employee_id" int not null references "employee" ("id") on delete cascade,
      "day" date not null,
      "likes" int not null default 0,
      "views" int not null default 0,
      "comments" int not null default 0,
      primary key ("post_id", "employee_id", "day"));`);
    this.addSql(`create index "blog_stat_actor_day_day_idx" on "blog_stat_actor_day" ("day", "post_id");`);
  }

  override async down(): Promise<void> {
    for (const t of ['blog_stat_actor_day', 'blog_stat_post_day', 'blog_view'])
      this.addSql(`drop table if exists "${t}";`);
  }
}
