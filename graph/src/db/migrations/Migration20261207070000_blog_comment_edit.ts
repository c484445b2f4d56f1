import { Migration } from '@mikro-orm/migrations';

/** A comment its author edited says so (「編集済み」, the time on hover): when it was last edited, null if never. */
export class Migration20261207070000_blog_comment_edit extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "blog_comment" add column "edited_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "blog_comment" drop column if exists "edited_at";`);
  }
}
