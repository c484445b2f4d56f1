import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../../graph/src/config/config.js';
import { createLogger } from '../../graph/src/platform/logger.js';
import { kafkaSettings } from '../../graph/src/platform/events/index.js';
import { QUICK_CLIENT, consumerLag, createKafka, deadLetterTopic, groupFor, readDeadLetterTopic, topicFor } from '../../graph/src/platform/events/kafka.js';
import { contractFor } from '../../schema/events/validate.js';
import { consumerFactories } from './registry.js';

export interface Status {
  transport: 'embedded' | 'kafka';
  relayBacklog: number;
  oldestUnsentSeconds: number | null;
  /** Events parked and not replayed yet (null: could not be read; `error` says why). */
  deadLetters: { where: string; count: number | null; error?: string };
  /** Per consumer: lag and parked events not yet replayed (null: unknown). */
  groups: { consumer: string; group: string; lag: number | null; parked: number | null }[];
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
    return {
      transport: 'embedded',
      relayBacklog: b.n,
      oldestUnsentSeconds: b.age,
      deadLetters: { where: 'table event_dead_letter', count: rows.reduce((s, r) => s + r.n, 0) },
      groups: names.map((consumer) => ({ consumer, group: '(in-process)', lag: null, parked: parkedBy.get(consumer) ?? 0 })),
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
      const topics = [...new Set(handles.map((t) => contractFor(t)?.aggregateType).filter((a): a is string => !!a))].map((a) => topicFor(settings, a));
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
    // one parked again by a replay counts once, as its new message).
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
    `${'consumer'.padEnd(16)} ${'group'.padEnd(36)} ${'lag'.padEnd(8)} parked`,
    ...s.groups.map((g) => `${g.consumer.padEnd(16)} ${g.group.padEnd(36)} ${String(g.lag ?? 'n/a').padEnd(8)} ${g.parked ?? 'n/a'}`),
  );
  return lines.join('\n');
}
