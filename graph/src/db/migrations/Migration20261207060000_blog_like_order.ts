import { Migration } from '@mikro-orm/migrations';

/**
 * A post's likes in the order they were given: the card names the first few and the likers' list
 * pages through them, each an index walk however many people liked the post.
 */
export class Migration20261207060000_blog_like_order extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "blog_like_order_idx" on "blog_like" ("post_id", "created_at", "employee_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "blog_like_order_idx";`);
  }
}
