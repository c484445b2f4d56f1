import { Migration } from '@mikro-orm/migrations';

/**
 * The owner's choice of what their ICS feed shows of their private entries. The feed URL is a
 * bearer secret (whoever has it reads the feed), so by default a private entry is busy time only
 * (予定あり, no description or meeting link); the owner may opt in to titles and details. The
 * choice lives with the feed: regenerating the URL keeps it, revoking the feed forgets it.
 */
export class Migration20261126181000_ics_private_details extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "ics_feed" add column "show_private_details" boolean not null default false;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "ics_feed" drop column "show_private_details";`);
  }
}
