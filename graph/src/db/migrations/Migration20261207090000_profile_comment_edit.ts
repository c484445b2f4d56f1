import { Migration } from '@mikro-orm/migrations';

/** A profile comment its author edited says so, as a blog comment does: when it was last edited, null if never. */
export class Migration20261207090000_profile_comment_edit extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "profile_comment" add column "edited_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "profile_comment" drop column if exists "edited_at";`);
  }
}
