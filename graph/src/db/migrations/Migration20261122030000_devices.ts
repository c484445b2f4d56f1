import { Migration } from '@mikro-orm/migrations';

/**
 * IT-asset register: Microsoft Office accounts, computers, smartphones and the assignment history
 * of devices (current user, status, location changes, written in the same transaction as the change).
 */
export class Migration20261122030000_devices extends Migration {
  override async up(): Promise<void> {
    // One status set for both device kinds; smartphones never take LOST (紛失).
    this.addSql(
      `create type "device_status" as enum ('NORMAL', 'REPLACE', 'BROKEN', 'DISCARDED', 'LOST', 'DISPOSED');`,
    );
    this.addSql(`create type "office_account_status" as enum ('IN_USE', 'SUSPENDED');`);
    const versioned = `
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      "version" int not null default 1,
      "updated_by_id" int null references "employee" ("id") on delete set null`;
    const held = `
      "current_user_id" int null references "employee" ("id") on delete set null,
      "previous_user_id" int null references "employee" ("id") on delete set null,
      "location_id" int null references "location" ("id") on delete set null,
      "department_id" int null references "department" ("id") on delete set null,
      "status" "device_status" not null default 'NORMAL',`;

    this.addSql(`create table "office_account" (
      "id" serial primary key,
      "account" varchar(254) not null,
      "status" "office_account_status" not null default 'IN_USE',${versioned});`);
    this.addSql(`create unique index "office_account_account_key" on "office_account" (lower("account"));`);
    this.addSql(`create index "office_account_account_trgm" on "office_account" using gin ("account" gin_trgm_ops);`);

    this.addSql(`create table "computer" (
      "id" serial primary key,
      "maker" varchar(100) not null,
      "device_type" varchar(50) null,
      "model" varchar(100) null,${held}
      "reason" varchar(500) null,
      "purchase_date" date null,
      "introduction_date" date null,
      "office_account_id" int null references "office_account" ("id") on delete set null,
      "pin_code" varchar(100) null,
      "pass" varchar(100) null,
      "ac_adapter" varchar(100) null,
      "power_cable" varchar(100) null,${versioned});`);
    this.addSql(`create index "computer_maker_trgm" on "computer" using gin ("maker" gin_trgm_ops);`);

    this.addSql(`create table "smartphone" (
      "id" serial primary key,
      "phone_number" varchar(20) not null,
      "carrier" varchar(50) null,
      "os" varchar(50) null,
      "price" int null check ("price" >= 0),${held}
      "exchange_date" date null,
      "pin_pw" varchar(100) null,${versioned},
      constraint "smartphone_status_check" check ("status" <> 'LOST'));`);
    this.addSql(`create index "smartphone_phone_trgm" on "smartphone" using gin ("phone_number" gin_trgm_ops);`);

    for (const t of ['computer', 'smartphone']) {
      for (const c of ['status', 'current_user_id', 'location_id', 'department_id']) {
        this.addSql(`create index "${t}_${c}_idx" on "${t}" ("${c}");`);
      }
    }
    this.addSql(`create index "computer_office_account_id_idx" on "computer" ("office_account_id");`);

    // One row per save that created a device or changed its current user, status or location.
    this.addSql(`create table "device_history" (
      "id" bigserial primary key,
      "device_kind" varchar(20) not null check ("device_kind" in ('COMPUTER', 'SMARTPHONE')),
      "device_id" int not null,
      "event_id" uuid null,
      "changed_at" timestamptz not null default now(),
      "actor_id" int null references "employee" ("id") on delete set null,
      "reason" varchar(20) not null check ("reason" in ('created', 'edit', 'returned')),
      "changed" text[] not null,
      "from_user_id" int null references "employee" ("id") on delete set null,
      "to_user_id" int null references "employee" ("id") on delete set null,
      "from_status" "device_status" null,
      "to_status" "device_status" not null,
      "from_location_id" int null references "location" ("id") on delete set null,
      "to_location_id" int null references "location" ("id") on delete set null);`);
    this.addSql(
      `create index "device_history_device_idx" on "device_history" ("device_kind", "device_id", "changed_at", "id");`,
    );
    this.addSql(`create index "device_history_to_user_idx" on "device_history" ("to_user_id");`);
  }
}
