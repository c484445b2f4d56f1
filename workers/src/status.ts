import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../../graph/src/config/config.js';
import { kafkaSettings } from '../../graph/src/platform/events/index.js';
import { consumerLag, createKafka, deadLetterTopic, groupFor, topicFor } from '../../graph/src/platform/events/kafka.js';
import { contractFor } from '../../schema/events/validate.js';
import { consumerFactories } from './registry.js';

export interface Status {
  transport: 'embedded' | 'kafka';
  relayBacklog: number;
  oldestUnsentSeconds: number | null;
  deadLetters: { where: string; count: number };
  groups: { consumer: string; group: string; lag: number | null }[];
}

/** What `workers status` prints: relay backlog, parked events, lag per consumer group. */
export async function collectStatus(config: Config, orm: MikroORM, log: Logger, names: string[]): Promise<Status> {
  const em = orm.em.fork();
  const [b] = await em.execute(
    `select count(*)::int as n, extract(epoch from now() - min(occurred_at))::float as age from outbox_event`,
  );
  const settings = kafkaSettings(config);
  if (!settings) {
    const [d] = await em.execute(`select count(*)::int as n from event_dead_letter where replayed_at is null`);
    return {
      transport: 'embedded',
      relayBacklog: b.n,
      oldestUnsentSeconds: b.age,
      deadLetters: { where: 'table event_dead_letter', count: d.n },
      groups: names.map((consumer) => ({ consumer, group: '(in-process)', lag: null })),
    };
  }
  const kafka = createKafka(settings, log);
  const admin = kafka.admin();
  await admin.connect();
  try {
    const groups = names.map((consumer) => {
      const handles = consumerFactories[consumer]!({}).handles;
      const topics = [...new Set(handles.map((t) => contractFor(t)?.aggregateType).filter((a): a is string => !!a))].map((a) => topicFor(settings, a));
      return { consumer, groupId: groupFor(settings, consumer), topics };
    });
    const lag = await consumerLag(admin, groups);
    let parked = 0;
    try {
      for (const o of await admin.fetchTopicOffsets(deadLetterTopic(settings))) parked += Number(o.high) - Number(o.low);
    } catch {
      /* topic not created yet */
    }
    return {
      transport: 'kafka',
      relayBacklog: b.n,
      oldestUnsentSeconds: b.age,
      deadLetters: { where: `topic ${deadLetterTopic(settings)}`, count: parked },
      groups: groups.map((g) => ({ consumer: g.consumer, group: g.groupId, lag: lag[g.groupId] ?? 0 })),
    };
  } finally {
    await admin.disconnect();
  }
}

export function formatStatus(s: Status): string {
  const lines = [
    `transport:      ${s.transport}`,
    `relay backlog:  ${s.relayBacklog} unsent outbox event(s)${s.oldestUnsentSeconds !== null ? `, oldest ${s.oldestUnsentSeconds.toFixed(1)} s` : ''}`,
    `dead letters:   ${s.deadLetters.count} in ${s.deadLetters.where}`,
    '',
    `${'consumer'.padEnd(16)} ${'group'.padEnd(36)} lag`,
    ...s.groups.map((g) => `${g.consumer.padEnd(16)} ${g.group.padEnd(36)} ${g.lag ?? 'n/a'}`),
  ];
  return lines.join('\n');
}
