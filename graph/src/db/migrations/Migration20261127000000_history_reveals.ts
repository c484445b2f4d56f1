import { Migration } from '@mikro-orm/migrations';

/**
 * device_history also records who was shown a device's PIN code or password (reason `revealed`,
 * `changed` names the field). Such a row changes nothing: its before/after columns hold the
 * device's holder, status and location at that moment on both sides.
 */
export class Migration20261127000000_history_reveals extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "device_history" drop constraint if exists "device_history_reason_check";`);
    this.addSql(
      `alter table "device_history" add constraint "device_history_reason_check" check ("reason" in ('created', 'edit', 'returned', 'revealed'));`,
    );
  }
}
