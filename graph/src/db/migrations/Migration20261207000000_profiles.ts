import { Migration } from '@mikro-orm/migrations';

/**
 * Employee profiles (modules/profiles): one per employee, written only by that employee. Name,
 * department, location, status and email are read from the employee (never copied). The list
 * fields are text arrays of at most 10 entries; address and phone each carry who may see them.
 * `search_text` is what the list's search looks in (lower-cased, NFKC), kept by the service.
 */
export class Migration20261207000000_profiles extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "profile" (
      "id" serial primary key,
      "employee_id" int not null unique references "employee" ("id") on delete cascade,
      "title" text not null default '',
      "address" text not null default '',
      "address_visibility" text not null default 'DEPARTMENT' check ("address_visibility" in ('EVERYONE', 'DEPARTMENT', 'PRIVATE')),
      "phone" text not null default '',
      "phone_visibility" text not null default 'EVERYONE' check ("phone_visibility" in ('EVERYONE', 'DEPARTMENT', 'PRIVATE')),
      "skills" text[] not null default '{}' check (cardinality("skills") <= 10),
      "languages" text[] not null default '{}' check (cardinality("languages") <= 10),
      "work_experience" text[] not null default '{}' check (cardinality("work_experience") <= 10),
      "education" text[] not null default '{}' check (cardinality("education") <= 10),
      "about_me" jsonb not null default '{"blocks": []}',
      "about_me_html" text not null default '',
      "hobbies" text not null default '',
      "talents" text not null default '',
      "search_text" text not null default '',
      "version" int not null default 1,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    );`);
    this.addSql(`create index "profile_search_trgm" on "profile" using gin ("search_text" gin_trgm_ops);`);
    this.addSql(`create index "profile_title_trgm" on "profile" using gin (lower("title") gin_trgm_ops);`);
    this.addSql(`create table "profile_like" (
      "profile_id" int not null references "profile" ("id") on delete cascade,
      "employee_id" int not null references "employee" ("id") on delete cascade,
      "created_at" timestamptz not null default clock_timestamp(),
      primary key ("profile_id", "employee_id")
    );`);
    this.addSql(`create index "profile_like_employee" on "profile_like" ("employee_id");`);
    this.addSql(`create table "profile_comment" (
      "id" serial primary key,
      "profile_id" int not null references "profile" ("id") on delete cascade,
      "author_id" int null references "employee" ("id") on delete set null,
      "parent_id" int null references "profile_comment" ("id") on delete cascade,
      "content" text not null,
      "created_at" timestamptz not null default clock_timestamp()
    );`);
    this.addSql(
      `create index "profile_comment_thread" on "profile_comment" ("profile_id", "created_at", "id") where "parent_id" is null;`,
    );
    this.addSql(
      `create index "profile_comment_replies" on "profile_comment" ("parent_id", "created_at", "id") where "parent_id" is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "profile_comment";`);
    this.addSql(`drop table if exists "profile_like";`);
    this.addSql(`drop table if exists "profile";`);
  }
}
