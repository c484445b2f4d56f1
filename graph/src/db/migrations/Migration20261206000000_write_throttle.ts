import { Migration } from '@mikro-orm/migrations';

/** Per-person write counts in fixed one-minute windows (platform/write-throttle.ts), shared by every instance. */
export class Migration20261206000000_write_throttle extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "write_throttle" (
      "employee_id" int not null references "employee" ("id") on delete cascade,
      "kind" text not null,
      "window_started_at" timestamptz not null,
      "count" int not null,
      primary key ("employee_id", "kind")
    );`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "write_throttle";`);
  }
}
