import { Migration } from '@mikro-orm/migrations';

/**
 * Every outbox event carries the id of the transaction that recorded it (`xid`, PostgreSQL's 64-bit
 * xid8, which never wraps): a position in the event stream that every graph instance agrees on and
 * that a query's snapshot can be compared with (platform/live/position.ts). Queued rows get the
 * migration's own id: later than their true one, which only makes a screen refetch once more.
 * Archived rows keep none (they were delivered long ago).
 */
export class Migration20261127060000_outbox_xid extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "outbox_event" add column "xid" xid8 not null default pg_current_xact_id();`);
    this.addSql(`alter table "outbox_sent" add column "xid" xid8 null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "outbox_sent" drop column "xid";`);
    this.addSql(`alter table "outbox_event" drop column "xid";`);
  }
}
