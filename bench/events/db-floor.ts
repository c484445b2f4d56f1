/**
 * The events bench's second reference, "kafka + database floor": what the pipeline must do at the
 * least, without the platform's code. The same writers record the events in the outbox; then, in
 * this process, with pg and kafkajs alone:
 *
 *   relay     one connection in a loop: claim up to 2,000 of the oldest unsent rows (FOR UPDATE SKIP
 *             LOCKED) and mark them sent by deleting them, send them (key = aggregate id, value =
 *             the envelope's JSON), commit after the broker's acknowledgement
 *   consumer  a consumer group; per fetched batch one statement: the (consumer, event id) rows not
 *             there yet and the effect rows of those, committed before kafkajs commits the offsets
 *
 * Left out, against the platform: the archive of sent events, lanes (several relays), contract
 * checks, retries, dead letters, metrics, the live group. Its CPU per event is the least the
 * issue's three durable writes and the Kafka hop cost on this machine.
 */
import { Partitioners, type Kafka } from 'kafkajs';
import pg from 'pg';
import type { OutboxRow } from '@intranet/graph/events';

const CONSUMER = 'db-floor';

/** The relay's claim: lock, mark sent (delete), return, as one statement. */
const CLAIM = `
  with c as materialized (select seq from outbox_event order by seq limit $1 for update skip locked)
  delete from outbox_event o using c where o.seq = c.seq
  returning o.seq, o.id, o.type, o.aggregate_type, o.aggregate_id, o.occurred_at, o.actor_id, o.payload, o.version`;

type Claimed = OutboxRow & { seq: string };

export interface DbFloor {
  /** Relays until `n` events have been sent (the caller writes them and waits for the effects). */
  relay(n: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startDbFloor(opts: {
  dbUrl: string;
  kafka: Kafka;
  topic: string;
  groupId: string;
  partitions: number;
}): Promise<DbFloor> {
  const pool = new pg.Pool({ connectionString: opts.dbUrl, max: opts.partitions + 1 });
  const producer = opts.kafka.producer({
    allowAutoTopicCreation: false,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  await producer.connect();
  const consumer = opts.kafka.consumer({
    groupId: opts.groupId,
    allowAutoTopicCreation: false,
    maxWaitTimeInMs: 100,
    maxBytesPerPartition: 4 << 20,
  });
  await consumer.connect();
  await consumer.subscribe({ topics: [opts.topic], fromBeginning: true });
  const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
  await consumer.run({
    partitionsConsumedConcurrently: opts.partitions,
    eachBatch: async ({ batch }) => {
      const events = batch.messages.map(
        (m) => JSON.parse(m.value!.toString()) as { id: string; aggregateId: string; payload: { seq: number } },
      );
      // One statement, so one transaction: the ids not consumed before, and their effects (a batch
      // delivered again after a rebalance has its effects once).
      await pool.query(
        `with fresh as (insert into event_consumed (consumer, event_id) select $1, unnest($2::uuid[]) on conflict do nothing returning event_id)
         insert into event_probe_effect (consumer, event_id, aggregate_id, seq)
         select $1, x.id, x.agg, x.seq from unnest($2::uuid[], $3::text[], $4::int[]) as x(id, agg, seq) join fresh on fresh.event_id = x.id`,
        [CONSUMER, events.map((e) => e.id), events.map((e) => e.aggregateId), events.map((e) => e.payload.seq)],
      );
    },
  });
  await joined;
  return {
    async relay(n) {
      const client = await pool.connect();
      try {
        for (let sent = 0; sent < n;) {
          // The same session settings as the platform's relay: the mark needs no synchronous commit
          // (a lost mark means a resend), and the planner must read the queue by key.
          await client.query(
            'begin; set local synchronous_commit to off; set local enable_seqscan to off; set local enable_bitmapscan to off',
          );
          const { rows } = await client.query<Claimed>(CLAIM, [2000]);
          if (rows.length === 0) {
            await client.query('commit');
            await new Promise((r) => setTimeout(r, 1));
            continue;
          }
          rows.sort((a, b) => a.seq.length - b.seq.length || (a.seq < b.seq ? -1 : 1));
          await producer.sendBatch({
            acks: -1,
            topicMessages: [
              {
                topic: opts.topic,
                messages: rows.map((r) => ({
                  key: r.aggregate_id,
                  value: JSON.stringify({
                    id: r.id,
                    type: r.type,
                    aggregateType: r.aggregate_type,
                    aggregateId: r.aggregate_id,
                    occurredAt: r.occurred_at.toISOString(),
                    actorId: r.actor_id,
                    payload: r.payload,
                    version: r.version,
                  }),
                })),
              },
            ],
          });
          await client.query('commit');
          sent += rows.length;
        }
      } catch (err) {
        await client.query('rollback').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    async stop() {
      await consumer.disconnect().catch(() => undefined);
      await producer.disconnect().catch(() => undefined);
      await pool.end();
    },
  };
}
