import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { GoogleSyncEngine } from './sync-engine.js';

/**
 * Runs pulls: for every connected employee whose sync was asked for (connect, the schedule screen's
 * syncGoogleCalendar(month)) or whose last pull is older than GOOGLE_SYNC_INTERVAL_SECONDS. A pull
 * is claimed with an UPDATE … RETURNING so several worker processes share the work. Each run first
 * re-pushes entries whose last change is not on Google yet, then pulls.
 */
export class GoogleSyncScheduler {
  private timer: NodeJS.Timeout | null = null;
  private readonly running = new Set<number>();
  private ticking = false;

  constructor(
    private readonly orm: MikroORM,
    private readonly engine: GoogleSyncEngine,
    private readonly log: Logger,
    private readonly opts: { intervalSeconds: number; concurrency: number; tickMs?: number },
  ) {}

  start(): void {
    if (this.timer || !this.engine.enabled) return;
    this.timer = setInterval(() => void this.tick(), this.opts.tickMs ?? 1000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    while (this.running.size || this.ticking) await new Promise((r) => setTimeout(r, 20));
  }

  /** One round: claims due connections and pulls them (resolves when they are done). */
  async tick(): Promise<number> {
    if (this.ticking) return 0;
    this.ticking = true;
    try {
      const free = this.opts.concurrency - this.running.size;
      if (free <= 0) return 0;
      const em = this.orm.em.fork();
      const claimed: { employee_id: number; requested_month: string | null }[] = await em.execute(
        `with due as (
           select employee_id, requested_month from google_connection
            where (sync_requested_at is not null and (last_pull_started_at is null or sync_requested_at > last_pull_started_at))
               or (? > 0 and (last_pull_at is null or last_pull_at < now() - make_interval(secs => ?))
                   and (last_pull_started_at is null or last_pull_started_at < now() - make_interval(secs => greatest(?, 60))))
            order by sync_requested_at desc nulls last, last_pull_at nulls first
            limit ? for update skip locked)
         update google_connection c set last_pull_started_at = clock_timestamp(), requested_month = null
           from due where c.employee_id = due.employee_id
         returning c.employee_id, due.requested_month`,
        [this.opts.intervalSeconds, this.opts.intervalSeconds, this.opts.intervalSeconds, free],
      );
      const jobs = claimed
        .filter((c) => !this.running.has(c.employee_id))
        .map((c) => this.run(c.employee_id, c.requested_month));
      await Promise.all(jobs);
      return jobs.length;
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'google sync tick failed');
      return 0;
    } finally {
      this.ticking = false;
    }
  }

  /** Re-push then pull one employee now (also used by tests and the month request). */
  async run(employeeId: number, month: string | null = null): Promise<void> {
    this.running.add(employeeId);
    const em = this.orm.em.fork();
    try {
      await this.engine.pushDirty(em, employeeId);
      await this.engine.pull(em, employeeId, { month });
    } catch (err) {
      this.log.warn({ employeeId, err: (err as Error).message }, 'google sync run failed');
      await this.engine.connections.recordError(em, employeeId, err).catch(() => undefined);
    } finally {
      this.running.delete(employeeId);
    }
  }
}
