import { Migration } from '@mikro-orm/migrations';

/**
 * The bell also tells of a profile: its owner hears when it is liked or commented on, a commenter
 * when someone replies. A notification is about a post or about a profile, never both.
 */
export class Migration20261207080000_profile_notifications extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "notification" alter column "post_id" drop not null;`);
    this.addSql(
      `alter table "notification" add column "profile_id" int null references "profile" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "notification" add column "profile_comment_id" int null references "profile_comment" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "notification" add constraint "notification_subject_check" check (("post_id" is null) <> ("profile_id" is null));`,
    );
    this.addSql(
      `create index "notification_profile_idx" on "notification" ("profile_id", "kind") where "profile_id" is not null;`,
    );
    this.addSql(
      `create index "notification_profile_comment_idx" on "notification" ("profile_comment_id") where "profile_comment_id" is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "notification" where "profile_id" is not null;`);
    this.addSql(`alter table "notification" drop constraint if exists "notification_subject_check";`);
    this.addSql(`alter table "notification" drop column if exists "profile_comment_id";`);
    this.addSql(`alter table "notification" drop column if exists "profile_id";`);
    this.addSql(`alter table "notification" alter column "post_id" set not null;`);
  }
}
