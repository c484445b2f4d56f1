import { Migration } from '@mikro-orm/migrations';

export class Migration20261122000000_foundation extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create extension if not exists pg_trgm;`);
    this.addSql(`create type "employee_role" as enum ('ADMIN', 'DEVICE_ADMIN', 'SYSTEM_ADMIN', 'GENERAL');`);
    this.addSql(`create type "employee_status" as enum ('ACTIVE', 'RETIRED');`);
    this.addSql(`create table "location" (
      "id" serial primary key,
      "name" varchar(50) not null unique,
      "sort_order" int not null default 0);`);
    this.addSql(`create table "department" (
      "id" serial primary key,
      "name" varchar(100) not null unique,
      "manager_id" int null,
      "sort_order" int not null default 0,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      "version" int not null default 1);`);
    this.addSql(`create table "employee" (
      "id" serial primary key,
      "name" varchar(100) not null,
      "email" varchar(254) null unique,
      "login_id" varchar(64) not null unique,
      "password_hash" varchar(255) not null,
      "role" "employee_role" not null,
      "status" "employee_status" not null default 'ACTIVE',
      "department_id" int null references "department" ("id") on delete set null,
      "location_id" int null references "location" ("id") on delete set null,
      "google_sub" varchar(255) null unique,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      "version" int not null default 1);`);
    this.addSql(`create index "employee_status_department_idx" on "employee" ("status", "department_id");`);
    this.addSql(`create index "employee_department_idx" on "employee" ("department_id");`);
    this.addSql(`create index "employee_name_trgm" on "employee" using gin ("name" gin_trgm_ops);`);
    this.addSql(`alter table "department" add constraint "department_manager_id_foreign"
      foreign key ("manager_id") references "employee" ("id") on delete set null;`);
    this.addSql(`create table "session" (
      "id" varchar(64) primary key,
      "employee_id" int not null references "employee" ("id") on delete cascade,
      "created_at" timestamptz not null,
      "last_seen_at" timestamptz not null,
      "idle_expires_at" timestamptz not null,
      "absolute_expires_at" timestamptz not null,
      "remember" boolean not null,
      "user_agent" varchar(400) null,
      "ip" varchar(64) null);`);
    this.addSql(`create index "session_employee_id_index" on "session" ("employee_id");`);
    this.addSql(`create table "login_throttle" (
      "key" varchar(400) primary key,
      "failures" int not null,
      "window_started_at" timestamptz not null);`);
    this.addSql(`create table "outbox_event" (
      "id" uuid primary key,
      "seq" bigserial not null unique,
      "type" varchar(100) not null,
      "aggregate_type" varchar(60) not null,
      "aggregate_id" varchar(100) not null,
      "occurred_at" timestamptz not null,
      "actor_id" int null,
      "payload" jsonb not null,
      "version" int not null,
      "sent_at" timestamptz null);`);
    this.addSql(`create index "outbox_unsent" on "outbox_event" ("seq") where "sent_at" is null;`);
    // Wake the relay the moment an event commits (NOTIFY is delivered at commit, never before).
    this.addSql(`create function outbox_notify() returns trigger language plpgsql as $$
      begin perform pg_notify('outbox', ''); return null; end $$;`);
    this.addSql(`create trigger outbox_notify after insert on "outbox_event"
      for each statement execute function outbox_notify();`);
  }
}
