import { Migration } from '@mikro-orm/migrations';

/**
 * The blog scheduler's progress: the last Tokyo day whose time-based changes (publish start, publish
 * end, pin start and end) have been recorded as events. One row; a worker firing a day holds it
 * FOR UPDATE and moves it forward in the transaction that records the events, so a day fires once
 * across workers and a restart resumes from it (workers/src/blog-schedule).
 */
export class Migration20261127010000_blog_scheduler extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "blog_scheduler" (
      "id" boolean primary key default true check ("id"),
      "fired_day" date not null,
      "fired_at" timestamptz not null default now());`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "blog_scheduler";`);
  }
}
