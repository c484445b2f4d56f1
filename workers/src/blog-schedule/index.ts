import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import {
  fireDueTransitions,
  type FireResult,
  tokyoToday,
  sweepUnusedBlogImages,
  sweepUnusedProfileImages,
} from '@intranet/graph/areas';
import type { FileStorage } from '@intranet/graph';

/**
 * The blog's clock in the worker pool: when a new Tokyo day begins, records the posts whose publish
 * start arrived, whose publish end passed, and whose pin window started or ended, as domain events
 * through the outbox (live feeds and dialogs follow them like any other change). Every worker runs
 * one; fireDueTransitions makes each day fire once across them. The check is a date comparison
 * each second, so the database is asked once a day per worker (and again while another holds it).
 * With the day's events it sweeps the pictures nobody has shown for a week: the blog's body
 * pictures (blog-image.sweep.ts) and profile pictures (profiles/profile-image.sweep.ts).
 */
export class BlogScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<FireResult | null> | null = null;
  /** The last day known to be fired (by this worker or another). */
  private fired: string | null = null;

  constructor(
    private readonly orm: MikroORM,
    private readonly log: Pick<Logger, 'info' | 'warn'>,
    private readonly now: () => Date = () => new Date(),
    private readonly files?: FileStorage,
  ) {}

  start(tickMs = 1000): void {
    if (this.timer) return;
    void this.tick();
    this.timer = setInterval(() => void this.tick(), tickMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Fires the days due now (null: nothing due, or a firing already running here). */
  tick(): Promise<FireResult | null> {
    const today = tokyoToday(this.now());
    if (this.running || (this.fired !== null && this.fired >= today)) return Promise.resolve(null);
    this.running = this.fire(today).finally(() => (this.running = null));
    return this.running;
  }

  private async fire(today: string): Promise<FireResult | null> {
    try {
      const r = await fireDueTransitions(this.orm.em.fork(), today);
      if (!r.busy) this.fired = today;
      if (r.events.length)
        this.log.info({ since: r.since, day: r.day, events: r.events.length }, 'blog scheduler fired');
      if (!r.busy && this.files) {
        const swept = await sweepUnusedBlogImages(this.orm.em.fork(), this.files, { now: this.now() });
        if (swept) this.log.info({ swept }, 'unused blog pictures removed');
        const profiles = await sweepUnusedProfileImages(this.orm.em.fork(), this.files, { now: this.now() });
        if (profiles) this.log.info({ swept: profiles }, 'unused profile pictures removed');
      }
      return r;
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'blog scheduler failed (tries again next tick)');
      return null;
    }
  }
}

export function startBlogScheduler(
  orm: MikroORM,
  log: Pick<Logger, 'info' | 'warn'>,
  files: FileStorage,
): { stop(): Promise<void> } {
  const scheduler = new BlogScheduler(orm, log, () => new Date(), files);
  scheduler.start();
  return scheduler;
}
