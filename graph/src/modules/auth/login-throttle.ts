import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config/config.js';
import type { RateLimitState } from '../../platform/rate-limit.js';

export interface ThrottleVerdict {
  allowed: boolean;
  retryAfterSeconds: number;
  /** The counter closest to refusing: its limit, the failures it still allows, when its window ends. */
  state: RateLimitState;
}

/**
 * Failed-login throttling shared by all instances (rows in Postgres), with three counters:
 *  - account + IP: the tight limit, it stops a guesser at one place;
 *  - IP: stops one place spraying many accounts;
 *  - account: stops a distributed attack on one account, but a browser that has signed in to this
 *    account before (a valid device cookie) is exempt, so an attacker cannot lock the owner out.
 * The attempt is counted atomically before the password is checked, so concurrent requests or
 * GraphQL aliases cannot slip past the limit; a success takes the attempt back.
 */
export class LoginThrottler {
  constructor(private readonly config: Config) {}

  private keys(loginId: string, ip: string) {
    const login = loginId.trim().toLowerCase();
    return {
      acctIp: { key: `acct-ip:${login}|${ip}`, max: this.config.LOGIN_MAX_FAILURES_PER_ACCOUNT_IP },
      ip: { key: `ip:${ip}`, max: this.config.LOGIN_MAX_FAILURES_PER_IP },
      acct: { key: `acct:${login}`, max: this.config.LOGIN_MAX_FAILURES_PER_ACCOUNT },
    };
  }

  async attempt(em: EntityManager, loginId: string, ip: string, knownDevice: boolean): Promise<ThrottleVerdict> {
    const k = this.keys(loginId, ip);
    const windowSeconds = this.config.LOGIN_THROTTLE_WINDOW_MINUTES * 60;
    const rows: { key: string; failures: number; age: number }[] = await em.execute(
      `insert into login_throttle (key, failures, window_started_at)
         values (?, 1, now()), (?, 1, now()), (?, 1, now())
       on conflict (key) do update set
         failures = case when login_throttle.window_started_at < now() - make_interval(secs => ?) then 1
                         else login_throttle.failures + 1 end,
         window_started_at = case when login_throttle.window_started_at < now() - make_interval(secs => ?) then now()
                                  else login_throttle.window_started_at end
       returning key, failures, extract(epoch from now() - window_started_at)::float8 as age`,
      [k.acctIp.key, k.ip.key, k.acct.key, windowSeconds, windowSeconds],
    );
    const counted = rows
      .map((r) => ({ ...r, limit: [k.acctIp, k.ip, k.acct].find((x) => x.key === r.key)! }))
      .filter((r) => !(r.limit === k.acct && knownDevice));
    const closest = counted.reduce((a, b) => (b.limit.max - b.failures < a.limit.max - a.failures ? b : a));
    const state = {
      limit: closest.limit.max,
      remaining: closest.limit.max - closest.failures,
      resetSeconds: Math.ceil(windowSeconds - closest.age),
    };
    const over = counted.filter((r) => r.failures > r.limit.max);
    if (over.length === 0) return { allowed: true, retryAfterSeconds: 0, state };
    const retry = Math.max(...over.map((r) => Math.ceil(windowSeconds - r.age)));
    return { allowed: false, retryAfterSeconds: Math.max(retry, 1), state };
  }

  /** A correct password: the attempt was not a failure. */
  async succeeded(em: EntityManager, loginId: string, ip: string): Promise<void> {
    const k = this.keys(loginId, ip);
    await em.execute(`delete from login_throttle where key = ?`, [k.acctIp.key]);
    await em.execute(`update login_throttle set failures = greatest(failures - 1, 0) where key in (?, ?)`, [
      k.ip.key,
      k.acct.key,
    ]);
  }
}
