import { Migration } from '@mikro-orm/migrations';

/**
 * A one-time password (the first administrator's, or one `npm run admin -- reset-password` set)
 * must be replaced at the next sign-in: until then the session may only change it, ask who it is
 * and sign out.
 */
export class Migration20261206010000_password_change extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "employee" add column "must_change_password" boolean not null default false;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "employee" drop column "must_change_password";`);
  }
}
