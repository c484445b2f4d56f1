import { Migration } from '@mikro-orm/migrations';

/**
 * Google Calendar sync: the guest list Google had at the stored etag ("email=responseStatus",
 * the owner and rooms left out), so a push sends attendees only when our guest list changed, and
 * then merged with Google's (guests' answers kept). Null: not known, fetched before it is needed.
 */
export class Migration20261122070000_google_attendees extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "schedule" add column "google_attendees" text[] null;`);
  }
}
