import { Migration } from '@mikro-orm/migrations';

const COLUMNS = `"id", "seq", "type", "aggregate_type", "aggregate_id", "occurred_at", "actor_id", "payload", "version"`;

/**
 * The outbox becomes a queue plus an archive, so an event costs fewer index writes:
 * - `outbox_event` holds only unsent events, keyed by `seq` (its one index; the uuid is a plain
 *   column, the partial "unsent" index and `sent_at` are gone);
 * - the relay's sent mark moves a claimed row into `outbox_sent` (delete + insert in the claim's
 *   statement) instead of updating `sent_at`, which was a non-HOT update (new heap tuple and two
 *   index entries) because `sent_at` was in the partial index's predicate;
 * - `outbox_sent` has no btree index, only a BRIN on `sent_at` for the weekly prune;
 * - `outbox_all` (view) shows both, sent or not, for tests and operators.
 * `event_consumed.consumed_at` is read only by the prune: its btree becomes a BRIN too.
 * Rows already sent move to `outbox_sent`; unsent ones stay queued.
 */
export class Migration20261122080000_outbox_queue extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "outbox_sent" (
      "id" uuid not null,
      "seq" bigint not null,
      "type" varchar(100) not null,
      "aggregate_type" varchar(60) not null,
      "aggregate_id" varchar(100) not null,
      "occurred_at" timestamptz not null,
      "actor_id" int null,
      "payload" jsonb not null,
      "version" int not null,
      "sent_at" timestamptz not null);`);
    this.addSql(`insert into "outbox_sent" (${COLUMNS}, "sent_at")
      select ${COLUMNS}, "sent_at" from "outbox_event" where "sent_at" is not null order by "sent_at", "seq";`);
    this.addSql(`create index "outbox_sent_at_brin" on "outbox_sent" using brin ("sent_at");`);
    this.addSql(`delete from "outbox_event" where "sent_at" is not null;`);
    this.addSql(`drop index "outbox_unsent";`);
    this.addSql(
      `alter table "outbox_event" drop constraint "outbox_event_pkey", drop constraint "outbox_event_seq_key", drop column "sent_at";`,
    );
    this.addSql(`alter table "outbox_event" add constraint "outbox_event_pkey" primary key ("seq");`);
    this.addSql(`create view "outbox_all" as
      select ${COLUMNS}, null::timestamptz as "sent_at" from "outbox_event"
      union all
      select ${COLUMNS}, "sent_at" from "outbox_sent";`);
    this.addSql(`drop index "event_consumed_at_idx";`);
    this.addSql(`create index "event_consumed_at_brin" on "event_consumed" using brin ("consumed_at");`);
  }
}
