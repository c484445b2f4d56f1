import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { EventEnvelope } from '@intranet/schema/events';
import { OutboxEvent } from './outbox.entity.js';
import { toEnvelope } from './outbox.js';

/**
 * Calls `listener` with the events a transaction of this process recorded (record(): outbox rows
 * persisted through the ORM), right after that transaction commits and before the code that
 * committed it goes on, so before its request answers. The relay publishes the same events a
 * moment later to every instance (live feed); this is the writing process's own early copy, for
 * state that must not lag behind its own writes (read-your-writes of the week-grid cache).
 *
 * Not delivered here: events written by recordMany (a plain INSERT, no entity; bulk writers such
 * as imports) and events of other processes. A listener must accept an event twice (here and from
 * the live feed) and, after a rolled-back savepoint inside a committed transaction, an event that
 * never committed: use it to drop derived state, not to act on the event.
 */
export function onLocalCommit(orm: MikroORM, listener: (events: EventEnvelope[]) => void, log: Logger): void {
  const delivered = new WeakSet<OutboxEvent>();
  const meta = orm.getMetadata().get(OutboxEvent.name);
  orm.em.getEventManager().registerSubscriber({
    afterTransactionCommit: ({ em }) => {
      const store = em.getUnitOfWork(false).getIdentityMap().getStore(meta) as Map<string, OutboxEvent>;
      if (!store.size) return;
      const events: EventEnvelope[] = [];
      for (const row of store.values()) {
        if (delivered.has(row)) continue;
        delivered.add(row);
        events.push(toEnvelope(row));
      }
      if (!events.length) return;
      try {
        listener(events);
      } catch (err) {
        // The transaction has committed: failing its caller now would report a saved change as lost.
        log.error({ err }, 'local commit listener failed');
      }
    },
  });
}
