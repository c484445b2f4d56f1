import { Migration } from '@mikro-orm/migrations';

/**
 * Event backbone: consumer idempotency, the embedded dead-letter table, the probe consumer's
 * effect table.
 */
export class Migration20261122020000_events extends Migration {
  override async up(): Promise<void> {
    // (consumer, event id) recorded in the same transaction as the consumer's effect.
    this.addSql(`create table "event_consumed" (
      "consumer" varchar(100) not null,
      "event_id" uuid not null,
      "consumed_at" timestamptz not null default now(),
      primary key ("consumer", "event_id"));`);
    this.addSql(`create index "event_consumed_at_idx" on "event_consumed" ("consumed_at");`);
    // Events a consumer gave up on (embedded transport; Kafka uses the dead-letter topic).
    this.addSql(`create table "event_dead_letter" (
      "id" bigserial primary key,
      "consumer" varchar(100) not null,
      "event_id" uuid not null,
      "event_type" varchar(100) not null,
      "envelope" jsonb not null,
      "error" text not null,
      "attempts" int not null,
      "parked_at" timestamptz not null default now(),
      "replayed_at" timestamptz null,
      constraint "event_dead_letter_consumer_event_unique" unique ("consumer", "event_id"));`);
    this.addSql(
      `create index "event_dead_letter_parked_idx" on "event_dead_letter" ("consumer", "parked_at") where "replayed_at" is null;`,
    );
    // Effects of the platform's probe consumer (benchmarks, fault tests, `workers status --probe`).
    // No unique key on purpose: a double delivery would show as two rows.
    this.addSql(`create table "event_probe_effect" (
      "id" bigserial primary key,
      "consumer" varchar(100) not null,
      "event_id" uuid not null,
      "aggregate_id" varchar(100) not null,
      "seq" int not null,
      "latency_ms" double precision null,
      "at" timestamptz not null default clock_timestamp());`);
  }
}
