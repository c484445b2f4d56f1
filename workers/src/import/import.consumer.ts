import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { EventEnvelope } from '@intranet/schema/events';
import { EventConsumer } from '@intranet/graph/events';
import {
  uploadHandoff,
  pendingJobIds,
  pruneImportJobs,
  runImportJob,
  type ImportRunLimits,
} from '@intranet/graph/areas';

/**
 * The import worker. `import.requested` wakes it; the job itself then runs outside the event's
 * transaction (a long import must not hold up the relay, and its progress events must flow while
 * it runs): each pending job runs in one transaction of its own, held by an advisory lock, so one
 * worker runs it and a job whose worker died is picked up again. A timer (startImportScheduler)
 * also wakes it, for jobs requested while no worker ran.
 */
export class ImportConsumer extends EventConsumer {
  readonly name = 'import';
  readonly handles = ['import.requested'] as const;
  private orm: MikroORM | null = null;
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly limits: ImportRunLimits,
    private readonly log: Logger,
  ) {
    super();
    uploadHandoff.enable(); // uploads taken by this process are kept for its jobs (import.handoff.ts)
  }

  /** Runs jobs on this ORM (the scheduler sets it; otherwise the event's own ORM is used). */
  attach(orm: MikroORM): void {
    this.orm = orm;
  }

  async handle(_event: EventEnvelope, tx: EntityManager): Promise<void> {
    this.kick(() => (this.orm ? this.orm.em.fork() : tx.fork()));
  }

  /** Starts a drain of pending jobs (or asks the running drain to look again). */
  kick(em: () => EntityManager = () => this.orm!.em.fork()): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.drain(em).finally(() => (this.running = null));
    return this.running;
  }

  /** Resolves once no drain is running (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(em: () => EntityManager): Promise<void> {
    do {
      this.again = false;
      try {
        await pruneImportJobs(em());
        for (const id of await pendingJobIds(em())) {
          await em().transactional((tx) =>
            runImportJob(tx, id, this.limits, (err) => this.log.error({ err, jobId: id }, 'import job failed')),
          );
        }
      } catch (err) {
        this.log.error({ err }, 'import drain failed');
      }
    } while (this.again);
  }
}
