import { Migration } from '@mikro-orm/migrations';

export class Migration20261122040000_schedules extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create type "schedule_type" as enum ('TASK', 'REMOTE', 'APPOINTMENT');`);
    this.addSql(`create type "guest_response" as enum ('PENDING', 'ACCEPTED', 'DECLINED');`);
    this.addSql(`create table "schedule" (
      "id" serial primary key,
      "owner_id" int not null references "employee" ("id") on delete cascade,
      "title" varchar(200) not null,
      "start_date" date not null,
      "end_date" date not null,
      "is_all_day" boolean not null default false,
      "start_time" time null,
      "end_time" time null,
      "type" "schedule_type" not null default 'TASK',
      "meet_link" varchar(500) null,
      "description" text null,
      "sync_google" boolean not null default false,
      "is_private" boolean not null default false,
      "external_guests" text[] not null default '{}',
      "google_event_id" varchar(1024) null,
      "google_etag" varchar(200) null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      "updated_by_id" int null references "employee" ("id") on delete set null,
      "version" int not null default 1,
      constraint "schedule_dates" check ("end_date" >= "start_date"),
      constraint "schedule_times" check (("is_all_day" and "start_time" is null and "end_time" is null)
        or (not "is_all_day" and "start_time" is not null and "end_time" is not null)));`);
    this.addSql(`create index "schedule_range_idx" on "schedule" ("start_date", "end_date");`);
    this.addSql(`create index "schedule_owner_idx" on "schedule" ("owner_id", "start_date");`);
    this.addSql(
      `create unique index "schedule_google_event_idx" on "schedule" ("owner_id", "google_event_id") where "google_event_id" is not null;`,
    );
    this.addSql(`create table "schedule_guest" (
      "schedule_id" int not null references "schedule" ("id") on delete cascade,
      "employee_id" int not null references "employee" ("id") on delete cascade,
      "response" "guest_response" not null default 'PENDING',
      "responded_at" timestamptz null,
      primary key ("schedule_id", "employee_id"));`);
    this.addSql(`create index "schedule_guest_employee_idx" on "schedule_guest" ("employee_id", "schedule_id");`);
  }
}
