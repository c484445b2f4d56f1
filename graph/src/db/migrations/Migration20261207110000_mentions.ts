import { Migration } from '@mikro-orm/migrations';

/**
 * @mentions in posts and comments: who each one mentions now (a post's are read from its body at
 * every save, a comment's are given with its text), and the bell's MENTION notification.
 */
export class Migration20261207110000_mentions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "blog_post" add column "mention_ids" int[] not null default '{}';`);
    this.addSql(`alter table "blog_comment" add column "mention_ids" int[] not null default '{}';`);
    this.addSql(`alter table "notification" drop constraint "notification_kind_check";`);
    this.addSql(
      `alter table "notification" add constraint "notification_kind_check" check ("kind" in ('COMMENT', 'REPLY', 'LIKE', 'READ_REQUEST', 'MENTION'));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "notification" where "kind" = 'MENTION';`);
    this.addSql(`alter table "notification" drop constraint "notification_kind_check";`);
    this.addSql(
      `alter table "notification" add constraint "notification_kind_check" check ("kind" in ('COMMENT', 'REPLY', 'LIKE', 'READ_REQUEST'));`,
    );
    this.addSql(`alter table "blog_comment" drop column if exists "mention_ids";`);
    this.addSql(`alter table "blog_post" drop column if exists "mention_ids";`);
  }
}
