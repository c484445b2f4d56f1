import type { MikroORM } from '@mikro-orm/postgresql';
import { type Config, createLogger } from '@intranet/graph';
import {
  kafkaSettings,
  QUICK_CLIENT,
  createKafka,
  consumerLag,
  deadLetterTopic,
  groupFor,
  topicFor,
  readDeadLetterTopic,
} from '@intranet/graph/events';
import { contractFor } from '@intranet/schema/events/validate';
import { consumerFactories } from './registry.js';

export interface Status {
  transport: 'embedded' | 'kafka';
  relayBacklog: number;
  oldestUnsentSeconds: number | null;
  /** Events parked and not replayed yet (null: could not be read; `error` says why). */
  deadLetters: { where: string; count: number | null; error?: string };
  /**
   * Per consumer: lag, parked events not yet replayed (null: unknown) and, embedded, how many of
   * its lag wait in the retry queue (table event_retry) after a failed attempt or behind one.
   */
  groups: {
    consumer: string;
    group: string;
    lag: number | null;
    parked: number | null;
    retrying?: number;
    /** Embedded, when something waits after a failure: the event failing longest, and when it is tried next. */
    failing?: { eventId: string; attempts: number; lastError: string; nextTryInSeconds: number } | null;
  }[];
  /** Kafka mode: the brokers, and why they could not be asked when they could not. */
  kafka?: { brokers: string[]; error?: string };
}

/**
 * What `workers status` prints: relay backlog, parked events, lag per consumer group. The database
 * part is always there; with Kafka unreachable, `kafka.error` says so (within a few seconds: the
 * client's connection and retry settings are short here).
 */
export async function collectStatus(config: Config, orm: MikroORM, names: string[]): Promise<Status> {
  const em = orm.em.fork();
  const [b] = await em.execute(
    `select count(*)::int as n, extract(epoch from now() - min(occurred_at))::float as age from outbox_event`,
  );
  const settings = kafkaSettings(config);
  if (!settings) {
    const rows: { consumer: string; n: number }[] = await em.execute(
      `select consumer, count(*)::int as n from event_dead_letter where replayed_at is null group by consumer`,
    );
    const parkedBy = new Map(rows.map((r) => [r.consumer, r.n]));
    // Lag, as the embedded /metrics counts it: the queued events of the types a consumer handles,
    // plus its events waiting in the retry queue.
    const queued: { type: string; n: number }[] = await em.execute(
      `select type, count(*)::int as n from outbox_event group by type`,
    );
    const waiting: { consumer: string; n: number }[] = await em.execute(
      `select consumer, count(*)::int as n from event_retry group by consumer`,
    );
    const waitingBy = new Map(waiting.map((r) => [r.consumer, r.n]));
    const failing: { consumer: string; event_id: string; attempts: number; last_error: string; next: number }[] =
      await em.execute(
        `select distinct on (consumer) consumer, event_id, attempts, last_error, greatest(0, extract(epoch from due_at - now()))::float8 as next
         from event_retry where attempts > 0 order by consumer, attempts desc, id`,
      );
    const failingBy = new Map(
      failing.map((r) => [
        r.consumer,
        { eventId: r.event_id, attempts: r.attempts, lastError: r.last_error, nextTryInSeconds: r.next },
      ]),
    );
    return {
      transport: 'embedded',
      relayBacklog: b.n,
      oldestUnsentSeconds: b.age,
      deadLetters: { where: 'table event_dead_letter', count: rows.reduce((s, r) => s + r.n, 0) },
      groups: names.map((consumer) => {
        const handles = new Set(consumerFactories[consumer]!({}).handles);
        const retrying = waitingBy.get(consumer) ?? 0;
        const lag = queued.reduce((sum, q) => sum + (handles.has(q.type) ? q.n : 0), retrying);
        return {
          consumer,
          group: '(in-process)',
          lag,
          parked: parkedBy.get(consumer) ?? 0,
          retrying,
          failing: failingBy.get(consumer) ?? null,
        };
      }),
    };
  }
  const status: Status = {
    transport: 'kafka',
    relayBacklog: b.n,
    oldestUnsentSeconds: b.age,
    deadLetters: { where: `topic ${deadLetterTopic(settings)}`, count: null },
    groups: names.map((consumer) => ({ consumer, group: groupFor(settings, consumer), lag: null, parked: null })),
    kafka: { brokers: settings.brokers },
  };
  // The caller prints one line about an unreachable broker: the client itself stays quiet.
  const kafka = createKafka(settings, createLogger('silent'), QUICK_CLIENT);
  const admin = kafka.admin();
  try {
    await admin.connect();
    const groups = names.map((consumer) => {
      const handles = consumerFactories[consumer]!({}).handles;
      const topics = [
        ...new Set(handles.map((t) => contractFor(t)?.aggregateType).filter((a): a is string => !!a)),
      ].map((a) => topicFor(settings, a));
      return { consumer, groupId: groupFor(settings, consumer), topics };
    });
    const lag = await consumerLag(admin, groups);
    for (const g of status.groups) g.lag = lag[g.group] ?? 0;
  } catch (err) {
    status.kafka!.error = `unreachable (brokers ${settings.brokers.join(', ')}): ${(err as Error).message}`;
    return status;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
  try {
    // What is still parked: past each consumer's replay offset (a replayed event is not counted,
    // one parked again by a replay counts once, as its new message; so does one parked twice).
    const parked = await readDeadLetterTopic(kafka, settings, { timeoutMs: 10_000 });
    status.deadLetters.count = parked.length;
    for (const g of status.groups) g.parked = parked.filter((m) => m.consumer === g.consumer).length;
  } catch (err) {
    status.deadLetters.error = `could not read: ${(err as Error).message}`;
  }
  return status;
}

export function formatStatus(s: Status): string {
  const parked =
    s.deadLetters.count === null
      ? `unknown (${s.deadLetters.error ?? 'Kafka unreachable'})`
      : `${s.deadLetters.count} in ${s.deadLetters.where}, not yet replayed${s.transport === 'kafka' ? " (read from each consumer's replay offset)" : ''}`;
  const lines = [
    `transport:      ${s.transport}`,
    `relay backlog:  ${s.relayBacklog} unsent outbox event(s)${s.oldestUnsentSeconds !== null ? `, oldest ${s.oldestUnsentSeconds.toFixed(1)} s` : ''}`,
    `dead letters:   ${parked}`,
  ];
  if (s.kafka) lines.push(`kafka:          ${s.kafka.error ?? `brokers ${s.kafka.brokers.join(', ')}`}`);
  lines.push(
    '',
    `${'consumer'.padEnd(16)} ${'group'.padEnd(36)} ${'lag'.padEnd(8)} ${'parked'.padEnd(8)}${s.transport === 'embedded' ? ' retrying' : ''}`,
    ...s.groups.map((g) =>
      `${g.consumer.padEnd(16)} ${g.group.padEnd(36)} ${String(g.lag ?? 'n/a').padEnd(8)} ${String(g.parked ?? 'n/a').padEnd(8)}${s.transport === 'embedded' ? ` ${g.retrying ?? 0}` : ''}`.trimEnd(),
    ),
  );
  // Why a consumer's events wait: its longest-failing one (embedded; with Kafka see the worker's log).
  for (const g of s.groups) {
    if (!g.failing) continue;
    const first = g.failing.lastError.split('\n')[0]!;
    lines.push(
      `${g.consumer}: event ${g.failing.eventId} failed ${g.failing.attempts} time(s), next try in ${g.failing.nextTryInSeconds.toFixed(1)} s: ${first.length > 120 ? `${first.slice(0, 119)}…` : first}`,
    );
  }
  return lines.join('\n');
}
