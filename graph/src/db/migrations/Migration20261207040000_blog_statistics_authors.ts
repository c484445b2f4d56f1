import { Migration } from '@mikro-orm/migrations';

/**
 * Blog statistics: the posts each employee published, per category and month or year
 * (`blog_stat_author_span`, a sum of the post span rows, which now carry their author), so the
 * per-employee table ranks employees without reading the period's posts.
 */
export class Migration20261207040000_blog_statistics_authors extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "blog_stat_post_span" add column "author_id" int not null default 0;`);
    this.addSql(
      `update "blog_stat_post_span" s set "author_id" = p."author_id" from "blog_post" p where p."id" = s."post_id";`,
    );
    this.addSql(`alter table "blog_stat_post_span" alter column "author_id" drop default;`);
    this
      .addSql(`create table "blog_stat_author_span" ("span" char(1) not null, "at" date not null, "category_id" int not null, "employee_id" int not null,
      "posts" int not null default 0, primary key ("span", "at", "category_id", "employee_id"));`);
    this.addSql(
      `insert into "blog_stat_author_span" select span, at, category_id, author_id, sum(published) from blog_stat_post_span group by 1, 2, 3, 4 having sum(published) > 0;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "blog_stat_author_span";`);
    this.addSql(`alter table "blog_stat_post_span" drop column if exists "author_id";`);
  }
}
