import { Migration } from '@mikro-orm/migrations';

/**
 * Blog statistics read from coarse rollups (statistics.rollup.ts), so a month's or a year's report
 * reads about as many rows as it shows:
 * - the day rows gain the category they were counted in (0 for a draft's: no one's statistics show one) and the post's
 *   publication (1 on its publish start, once published), and lose their foreign keys: a deleted
 *   post's rows stay until the consumer takes them out of the sums below;
 * - per category and day (the series, any period's totals); per post and month or year ('M', 'Y')
 *   with the rankings' indexes; per category and month or year (totals and the ranking's length);
 *   per employee, category and month or year, and per employee and month or year (all categories).
 * The new rows are filled from the source tables here, as `statistics rebuild` does.
 */
export class Migration20261207030000_blog_statistics_spans extends Migration {
  override async up(): Promise<void> {
    const sums = `"likes" int not null default 0, "views" int not null default 0, "comments" int not null default 0`;
    this.addSql(`drop table "blog_stat_actor_day", "blog_stat_post_day";`);
    this
      .addSql(`create table "blog_stat_post_day" ("post_id" int not null, "day" date not null, "category_id" int not null, "published" int not null default 0, ${sums},
      primary key ("post_id", "day"));`);
    this.addSql(`create index "blog_stat_post_day_day_idx" on "blog_stat_post_day" ("day");`);
    this
      .addSql(`create table "blog_stat_actor_day" ("post_id" int not null, "employee_id" int not null, "day" date not null, "category_id" int not null, ${sums},
      primary key ("post_id", "employee_id", "day"));`);
    this.addSql(`create index "blog_stat_actor_day_day_idx" on "blog_stat_actor_day" ("day");`);
    this
      .addSql(`create table "blog_stat_category_day" ("category_id" int not null, "day" date not null, "published" int not null default 0, ${sums},
      primary key ("category_id", "day"));`);
    this
      .addSql(`create table "blog_stat_post_span" ("span" char(1) not null check ("span" in ('M', 'Y')), "at" date not null, "post_id" int not null,
      "category_id" int not null, "publish_start" date not null, "published" int not null default 0, ${sums}, primary key ("span", "at", "post_id"));`);
    this.addSql(`create index "blog_stat_post_span_post_idx" on "blog_stat_post_span" ("post_id");`);
    const rank = (first: string[]) =>
      [...first, ...['likes', 'views', 'comments'].filter((c) => !first.includes(c))]
        .map((c) => `"${c}" desc`)
        .join(', ');
    for (const [name, first] of [
      ['likes', ['likes']],
      ['views', ['views']],
      ['comments', ['comments']],
      ['category', []],
    ] as const) {
      const lead = name === 'category' ? `"category_id", ${rank(['likes'])}` : rank([...first]);
      this.addSql(
        `create index "blog_stat_post_span_${name}_idx" on "blog_stat_post_span" ("span", "at", ${lead}, "publish_start" desc, "post_id" desc);`,
      );
    }
    this
      .addSql(`create table "blog_stat_category_span" ("span" char(1) not null, "at" date not null, "category_id" int not null, "posts" int not null default 0,
      "published" int not null default 0, ${sums}, primary key ("span", "at", "category_id"));`);
    this
      .addSql(`create table "blog_stat_actor_span" ("span" char(1) not null, "at" date not null, "category_id" int not null, "employee_id" int not null, ${sums},
      primary key ("span", "at", "category_id", "employee_id"));`);
    this
      .addSql(`create table "blog_stat_actor_total" ("span" char(1) not null, "at" date not null, "employee_id" int not null, ${sums},
      primary key ("span", "at", "employee_id"));`);
    // The posts out of their window in a category a viewer reads (statistics.visibility.ts), read from the index alone.
    this.addSql(
      `create index "blog_post_end_idx" on "blog_post" ("category_id", "publish_end") include ("id", "author_id") where not "is_draft" and "publish_end" is not null;`,
    );
    const day = (c: string) => `(${c} at time zone 'Asia/Tokyo')::date`;
    this
      .addSql(`insert into "blog_stat_post_day" ("post_id", "day", "category_id", "published", "likes", "views", "comments")
      select f.post_id, f.day, case when p.is_draft then 0 else p.category_id end, sum(f.published), sum(f.likes), sum(f.views), sum(f.comments)
        from (select post_id, ${day('created_at')} as day, 0 as published, 1 as likes, 0 as views, 0 as comments from blog_like
              union all select post_id, ${day('viewed_at')}, 0, 0, 1, 0 from blog_view
              union all select post_id, ${day('created_at')}, 0, 0, 0, 1 from blog_comment
              union all select id, publish_start, case when is_draft then 0 else 1 end, 0, 0, 0 from blog_post) f
        join blog_post p on p.id = f.post_id group by 1, 2, 3;`);
    this
      .addSql(`insert into "blog_stat_actor_day" ("post_id", "employee_id", "day", "category_id", "likes", "views", "comments")
      select f.post_id, f.employee_id, f.day, case when p.is_draft then 0 else p.category_id end, sum(f.likes), sum(f.views), sum(f.comments)
        from (select post_id, employee_id, ${day('created_at')} as day, 1 as likes, 0 as views, 0 as comments from blog_like
              union all select post_id, employee_id, ${day('viewed_at')}, 0, 1, 0 from blog_view
              union all select post_id, author_id, ${day('created_at')}, 0, 0, 1 from blog_comment where author_id is not null) f
        join blog_post p on p.id = f.post_id group by 1, 2, 3, 4;`);
    this.addSql(
      `insert into "blog_stat_category_day" select category_id, day, sum(published), sum(likes), sum(views), sum(comments) from blog_stat_post_day group by 1, 2;`,
    );
    this.addSql(`insert into "blog_stat_post_span"
      select s.span, date_trunc(case s.span when 'M' then 'month' else 'year' end, d.day)::date, d.post_id, d.category_id, p.publish_start,
             sum(d.published), sum(d.likes), sum(d.views), sum(d.comments)
        from blog_stat_post_day d join blog_post p on p.id = d.post_id cross join (values ('M'), ('Y')) s(span) group by 1, 2, 3, 4, 5;`);
    this.addSql(
      `insert into "blog_stat_category_span" select span, at, category_id, count(*), sum(published), sum(likes), sum(views), sum(comments) from blog_stat_post_span group by 1, 2, 3;`,
    );
    this.addSql(`insert into "blog_stat_actor_span"
      select s.span, date_trunc(case s.span when 'M' then 'month' else 'year' end, d.day)::date, d.category_id, d.employee_id, sum(d.likes), sum(d.views), sum(d.comments)
        from blog_stat_actor_day d cross join (values ('M'), ('Y')) s(span) group by 1, 2, 3, 4;`);
    this.addSql(
      `insert into "blog_stat_actor_total" select span, at, employee_id, sum(likes), sum(views), sum(comments) from blog_stat_actor_span group by 1, 2, 3;`,
    );
  }

  override async down(): Promise<void> {
    for (const t of [
      'blog_stat_actor_total',
      'blog_stat_actor_span',
      'blog_stat_category_span',
      'blog_stat_post_span',
      'blog_stat_category_day',
    ])
      this.addSql(`drop table if exists "${t}";`);
    this.addSql(`drop index if exists "blog_post_end_idx";`);
  }
}
