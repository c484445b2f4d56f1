import { Migration } from '@mikro-orm/migrations';

/**
 * Drops two indexes that no query used, each paid for by every computer write (and an import
 * writes 100,000 in a job):
 *
 * - `computer_maker_trgm` (trigram GIN on `maker`). A maker is one of a handful of names, so a
 *   term that matches at all matches a large share of the register, and PostgreSQL reads the table
 *   instead: with 20,000 computers it never used the index (a seq scan for every term, 7–8 ms);
 *   with 100,000, only for a term that matches nothing (2 ms against 38 ms). It cost a GIN entry
 *   per trigram of every maker written: 15 % of PostgreSQL's time in an import's writes (0.30 of
 *   2.05 CPU-s per 100,000 rows). Fields with many distinct values keep theirs (employee name,
 *   phone number, Office account).
 * - `device_history_to_user_idx`. It served the foreign key on `to_user_id`, dropped by
 *   Migration20261122090000_history_audit_refs; the timeline reads a device's history by
 *   `device_history_device_idx`. 0.09 CPU-s per 100,000 history rows.
 */
export class Migration20261126010000_unused_indexes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop index if exists "computer_maker_trgm";`);
    this.addSql(`drop index if exists "device_history_to_user_idx";`);
  }

  override async down(): Promise<void> {
    this.addSql(`create index if not exists "computer_maker_trgm" on "computer" using gin ("maker" gin_trgm_ops);`);
    this.addSql(`create index if not exists "device_history_to_user_idx" on "device_history" ("to_user_id");`);
  }
}
