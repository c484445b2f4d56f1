import type { MikroORM } from '@mikro-orm/postgresql';
import { type Config, createLogger } from '@intranet/graph';
import { kafkaSettings, QUICK_CLIENT, createKafka, deadLetterTopic, readDeadLetterTopic } from '@intranet/graph/events';

/** An event parked after its last failed attempt and not replayed yet. */
export interface ParkedEvent {
  /** Embedded: the event_dead_letter row id (what `replay --ids` takes). Kafka: partition:offset in the dead-letter topic. */
  id: string;
  consumer: string;
  eventId: string;
  type: string;
  error: string;
  attempts: number;
  parkedAt: string;
}

export interface DeadLetterList {
  transport: 'embedded' | 'kafka';
  where: string;
  events: ParkedEvent[];
}

/**
 * `workers dead-letters`: the parked events not yet replayed, of `consumers` (all when empty).
 * Embedded: the event_dead_letter table. Kafka: the dead-letter topic from each consumer's replay
 * position, read without committing anything.
 */
export async function listDeadLetters(
  config: Config,
  orm: MikroORM,
  consumers: string[] = [],
): Promise<DeadLetterList> {
  const settings = kafkaSettings(config);
  if (!settings) {
    const rows: {
      id: string;
      consumer: string;
      event_id: string;
      event_type: string;
      error: string;
      attempts: number;
      parked_at: Date;
    }[] = await orm.em.fork().execute(
      `select id, consumer, event_id, event_type, error, attempts, parked_at from event_dead_letter
          where replayed_at is null ${consumers.length ? 'and consumer = any(?::text[])' : ''} order by id`,
      consumers.length ? [`{${consumers.join(',')}}`] : [],
    );
    return {
      transport: 'embedded',
      where: 'table event_dead_letter',
      events: rows.map((r) => ({
        id: String(r.id),
        consumer: r.consumer,
        eventId: r.event_id,
        type: r.event_type,
        error: r.error,
        attempts: r.attempts,
        parkedAt: new Date(r.parked_at).toISOString(),
      })),
    };
  }
  // Operator command: fail within seconds when the broker is unreachable; the caller reports it.
  const kafka = createKafka(settings, createLogger('silent'), QUICK_CLIENT);
  const parked = await readDeadLetterTopic(kafka, settings, { consumers, timeoutMs: 15_000 });
  return {
    transport: 'kafka',
    where: `topic ${deadLetterTopic(settings)}`,
    events: parked.map((m) => ({
      id: `${m.partition}:${m.offset}`,
      consumer: m.consumer,
      eventId: m.eventId,
      type: m.eventType,
      error: m.error,
      attempts: m.attempts,
      parkedAt: m.parkedAt,
    })),
  };
}

export function formatDeadLetters(l: DeadLetterList): string {
  const oneLine = (s: string) => {
    const first = s.split('\n')[0]!;
    return first.length > 100 ? `${first.slice(0, 99)}…` : first;
  };
  const lines = [`${l.events.length} parked event(s) not yet replayed in ${l.where}`];
  if (l.events.length) {
    lines.push(
      '',
      `${'id'.padEnd(10)} ${'consumer'.padEnd(12)} ${'type'.padEnd(22)} ${'attempts'.padEnd(8)} ${'parked at'.padEnd(24)} ${'event id'.padEnd(36)} error`,
    );
    for (const e of l.events) {
      lines.push(
        `${e.id.padEnd(10)} ${e.consumer.padEnd(12)} ${e.type.padEnd(22)} ${String(e.attempts).padEnd(8)} ${e.parkedAt.padEnd(24)} ${e.eventId.padEnd(36)} ${oneLine(e.error)}`,
      );
    }
    lines.push(
      '',
      l.transport === 'embedded'
        ? 'replay: npm run workers -- replay [--only consumer] [--ids id,id]'
        : 'replay: npm run workers -- replay --only consumer   (with Kafka a replay takes every parked event of the consumer; --ids is embedded-only)',
    );
  }
  return lines.join('\n');
}
