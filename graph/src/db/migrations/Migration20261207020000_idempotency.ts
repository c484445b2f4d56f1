import { Migration } from '@mikro-orm/migrations';

/**
 * A write sent with an `Idempotency-Key` (platform/idempotency.ts): the first answer, kept 24 hours
 * per person and key, so a retry whose first answer was lost writes nothing and gets that answer.
 * `status` null: the first request is still running.
 */
export class Migration20261207020000_idempotency extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "idempotent_request" (
      "employee_id" int not null references "employee" ("id") on delete cascade,
      "key" text not null,
      "request_hash" text not null,
      "status" int null,
      "response" jsonb null,
      "created_at" timestamptz not null default now(),
      primary key ("employee_id", "key")
    );`);
    this.addSql(`create index "idempotent_request_created" on "idempotent_request" ("created_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "idempotent_request";`);
  }
}
