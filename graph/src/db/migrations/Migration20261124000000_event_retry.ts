import { Migration } from '@mikro-orm/migrations';

/**
 * The embedded transport's retry queue: an event a consumer failed on waits here (with its
 * attempts, error and next try) instead of being retried in line while the relay holds its claim,
 * so one failing event no longer holds up the other consumers and the live updates. Rows are
 * taken per (consumer, aggregate) in `id` order, which keeps each aggregate's order.
 */
export class Migration20261124000000_event_retry extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "event_retry" (
      "id" bigserial primary key,
      "consumer" varchar(100) not null,
      "event_id" uuid not null,
      "aggregate" text not null,
      "envelope" jsonb not null,
      "attempts" int not null,
      "last_error" text null,
      "due_at" timestamptz not null,
      "queued_at" timestamptz not null default now(),
      constraint "event_retry_consumer_event_unique" unique ("consumer", "event_id"));`);
    this.addSql(`create index "event_retry_aggregate_idx" on "event_retry" ("consumer", "aggregate", "id");`);
  }
}
