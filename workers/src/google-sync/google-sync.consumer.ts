import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { EventEnvelope } from '@intranet/schema/events';
import type { ScheduleSnapshot } from '@intranet/schema/events/schedule.events';
import { EventConsumer } from '@intranet/graph/events';
import { GoogleApiError } from '@intranet/graph/areas';
import type { GoogleSyncEngine } from './sync-engine.js';

type SchedulePayload = { schedule: ScheduleSnapshot; origin?: 'user' | 'google' };

/**
 * Push side of the Google sync: every schedule.created/updated/deleted of a connected owner is
 * written to their primary calendar (the current row, so redelivery and reordering are harmless).
 * Changes that came from Google (origin 'google') are never pushed back. A Google error that
 * retrying cannot fix (400, 403 forbidden, revoked grant) is recorded on the connection for the
 * user and the event is done; rate limits and 5xx have already been retried with backoff by the
 * client and are thrown, so the runner retries later and finally dead-letters.
 */
export class GoogleSyncConsumer extends EventConsumer {
  readonly name = 'google-sync';
  readonly handles = ['schedule.created', 'schedule.updated', 'schedule.deleted'] as const;

  constructor(
    readonly engine: GoogleSyncEngine,
    private readonly log: Logger,
  ) {
    super();
  }

  async handle(event: EventEnvelope, tx: EntityManager): Promise<void> {
    if (!this.engine.enabled) return;
    const p = event.payload as SchedulePayload;
    if (p.origin === 'google') return;
    const s = p.schedule;
    try {
      if (event.type === 'schedule.deleted') await this.engine.pushDelete(tx, s);
      else if ((await this.engine.pushEntry(tx, s.id)) === 'not-connected') return;
      await this.engine.connections.recordSuccess(tx, s.ownerId);
    } catch (err) {
      if (!(err instanceof GoogleApiError)) throw err;
      this.engine.metrics.pushes.inc({
        action: event.type.split('.')[1]!,
        outcome: err.retryable ? 'retry' : 'failed',
      });
      // Outside the transaction: it rolls back when we rethrow, the user must still see the error.
      await this.engine.connections.recordError(tx.fork(), s.ownerId, err).catch(() => undefined);
      if (err.retryable) throw err;
      this.log.warn({ scheduleId: s.id, status: err.status, reason: err.reason }, 'google push refused; not retried');
    }
  }
}
