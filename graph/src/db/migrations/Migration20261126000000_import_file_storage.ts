import { Migration } from '@mikro-orm/migrations';

/**
 * An import job's uploaded file is stored as it came (`STORAGE EXTERNAL`: out of line, not
 * compressed). An .xlsx is a zip, already compressed: PostgreSQL's default (`EXTENDED`) ran pglz
 * over every upload only to find it did not shrink, about a third of storing a 6.6 MB file, on
 * the path between the upload and the job's start. Affects rows written from now on.
 */
export class Migration20261126000000_import_file_storage extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "import_job" alter column "file" set storage external;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "import_job" alter column "file" set storage extended;`);
  }
}
