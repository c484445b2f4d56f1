import { Migration } from '@mikro-orm/migrations';

/**
 * Notifications (the header's bell): one row per recipient and thing that happened to them — a
 * comment on their post, a reply to their comment, a like of their post, a required-reading
 * request. Each hangs off its post (and comment), so it goes with them. The (recipient, id) index
 * reads a page of one employee's bell, the partial one counts their unread.
 */
export class Migration20261127040000_notifications extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "notification" (
      "id" serial primary key,
      "recipient_id" int not null references "employee" ("id") on delete cascade,
      "kind" text not null check ("kind" in ('COMMENT', 'REPLY', 'LIKE', 'READ_REQUEST')),
      "actor_id" int null references "employee" ("id") on delete set null,
      "post_id" int not null references "blog_post" ("id") on delete cascade,
      "comment_id" int null references "blog_comment" ("id") on delete cascade,
      "created_at" timestamptz not null default now(),
      "read_at" timestamptz null);`);
    this.addSql(`create index "notification_recipient_idx" on "notification" ("recipient_id", "id" desc);`);
    this.addSql(
      `create index "notification_unread_idx" on "notification" ("recipient_id", "post_id") where "read_at" is null;`,
    );
    this.addSql(`create index "notification_post_idx" on "notification" ("post_id", "kind");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "notification";`);
  }
}
