import { Migration } from '@mikro-orm/migrations';

/**
 * Google Calendar sync: one connection per employee (refresh token encrypted at rest, the
 * incremental sync token, status shown to the user), tombstones of imported Google events the
 * user deleted here (never imported again), the ICS feed token, and when each entry was last
 * written to Google (an entry is "pending" while updated_at is later).
 */
export class Migration20261122050000_google extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "google_connection" (
      "employee_id" int primary key references "employee" ("id") on delete cascade,
      "google_email" varchar(320) not null,
      "refresh_token_enc" text not null,
      "scope" text not null default '',
      "sync_token" text null,
      "connected_at" timestamptz not null default now(),
      "last_pull_started_at" timestamptz null,
      "last_pull_at" timestamptz null,
      "last_success_at" timestamptz null,
      "last_error" text null,
      "last_error_at" timestamptz null,
      "sync_requested_at" timestamptz null,
      "requested_month" varchar(7) null);`);
    this.addSql(`create index "google_connection_due_idx" on "google_connection" ("last_pull_at");`);
    this.addSql(`create table "google_tombstone" (
      "employee_id" int not null references "employee" ("id") on delete cascade,
      "google_event_id" varchar(1024) not null,
      "deleted_at" timestamptz not null default now(),
      primary key ("employee_id", "google_event_id"));`);
    this.addSql(`create table "ics_feed" (
      "employee_id" int primary key references "employee" ("id") on delete cascade,
      "token_hash" char(64) not null unique,
      "created_at" timestamptz not null default now());`);
    this.addSql(`alter table "schedule" add column "google_synced_at" timestamptz null;`);
  }
}
