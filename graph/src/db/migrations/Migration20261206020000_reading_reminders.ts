import { Migration } from '@mikro-orm/migrations';

/** When a post's readers were last reminded to confirm it: once a day (Asia/Tokyo) at most. */
export class Migration20261206020000_reading_reminders extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "blog_post" add column "reading_reminded_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "blog_post" drop column "reading_reminded_at";`);
  }
}
