import type { MikroORM } from '@mikro-orm/postgresql';

/** Google's per-user quota as this platform paces it: `take` waits until one call of that user may go. */
export interface GoogleQuota {
  take(employeeId: number): Promise<void>;
}

/**
 * One user's quota shared by every process (graph instances and workers) through PostgreSQL: a token
 * bucket per employee in `google_quota` (`rate` tokens per second, at most `burst` saved up), taken
 * by one statement that locks the employee's row, so two processes never spend the same token.
 * Google counts a user's calls wherever they come from; a bucket per process would let N processes
 * send N times the rate.
 */
export class SharedGoogleQuota implements GoogleQuota {
  constructor(
    private readonly orm: MikroORM,
    private readonly rate: number,
    private readonly burst: number,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  async take(employeeId: number): Promise<void> {
    for (;;) {
      const wait = await this.tryTake(employeeId);
      if (wait === 0) return;
      await this.sleep(wait);
    }
  }

  /** Takes a token if one is there (0), else says how many milliseconds until one is. */
  async tryTake(employeeId: number): Promise<number> {
    const level = `least(?::float8, q.tokens + extract(epoch from clock_timestamp() - q.at) * ?::float8)`;
    const conn = this.orm.em.fork().getConnection();
    const taken: unknown[] = await conn.execute(
      `insert into google_quota as q (employee_id, tokens, at) values (?, ?::float8 - 1, clock_timestamp())
       on conflict (employee_id) do update set tokens = ${level} - 1, at = clock_timestamp() where ${level} >= 1
       returning q.tokens`,
      [employeeId, this.burst, this.burst, this.rate, this.burst, this.rate],
    );
    if (taken.length) return 0;
    const [row]: { t: number }[] = await conn.execute(
      `select ${level} as t from google_quota q where q.employee_id = ?`,
      [this.burst, this.rate, employeeId],
    );
    return Math.max(1, Math.ceil(((1 - (row?.t ?? 0)) / this.rate) * 1000));
  }
}
