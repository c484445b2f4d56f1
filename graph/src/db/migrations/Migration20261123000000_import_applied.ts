import { Migration } from '@mikro-orm/migrations';

/**
 * A preview remembers the apply job started from it, so applying it again (a double click, a
 * retried request) answers that job instead of starting a second import of the same file.
 */
export class Migration20261123000000_import_applied extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "import_job" add column "applied_as" uuid null references "import_job" ("id") on delete set null;`,
    );
  }
}
