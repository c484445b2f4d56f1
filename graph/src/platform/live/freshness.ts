import { within } from '../readiness.js';

/**
 * Whether this instance's live feed is known to be current: no event committed more than a second
 * ago still waits in the outbox (unpublished: the broker is down, or the relay behind), and this
 * instance has read everything the broker holds. Checked once a second (each check bounded by a
 * second); until the first check passes, and whenever one fails or cannot answer, it is not.
 * A cache fed by the live feed (the week grid's) serves only while it is current, so on no
 * instance does it serve an answer older than the feed can vouch for.
 */
export class FeedFreshness {
  private known = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  /** One that is always current: the embedded transport feeds the only instance in process. */
  static always(): FeedFreshness {
    const f = new FeedFreshness(async () => true);
    f.known = true;
    return f;
  }

  constructor(
    private readonly check: () => Promise<boolean>,
    private readonly everyMs = 1000,
  ) {}

  get current(): boolean {
    return this.known;
  }

  start(): void {
    this.stopped = false;
    const tick = async () => {
      const r = await within(this.check().catch(() => false));
      this.known = r === true;
      if (this.stopped) return;
      this.timer = setTimeout(() => void tick(), this.everyMs);
      this.timer.unref();
    };
    void tick();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
