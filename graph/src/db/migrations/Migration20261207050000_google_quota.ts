import { Migration } from '@mikro-orm/migrations';

/** Google's per-user quota shared by every process (google-quota.ts): one token bucket per employee. */
export class Migration20261207050000_google_quota extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "google_quota" (
      "employee_id" int not null primary key references "employee" ("id") on delete cascade,
      "tokens" float8 not null,
      "at" timestamptz not null
    );`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "google_quota";`);
  }
}
