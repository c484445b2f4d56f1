import type { RequestMeta } from './context.js';

/** Where a request stands against a limit it was counted by: the IETF draft's RateLimit fields. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window that counted it starts again. */
  resetSeconds: number;
}

/**
 * Records a limit the request was counted by; of several (a sign-in counts three), the one closest
 * to refusing is told, as the draft asks.
 */
export function noteRateLimit(meta: RequestMeta, state: RateLimitState): void {
  const next = {
    limit: state.limit,
    remaining: Math.max(0, state.remaining),
    resetSeconds: Math.max(0, Math.ceil(state.resetSeconds)),
  };
  const cur = meta.rateLimit;
  if (
    !cur ||
    next.remaining < cur.remaining ||
    (next.remaining === cur.remaining && next.resetSeconds > cur.resetSeconds)
  )
    meta.rateLimit = next;
}

/** The answer's `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (none when no limit counted the request). */
export function rateLimitHeaders(meta: RequestMeta | undefined): [string, string][] {
  const s = meta?.rateLimit;
  if (!s) return [];
  return [
    ['RateLimit-Limit', String(s.limit)],
    ['RateLimit-Remaining', String(s.remaining)],
    ['RateLimit-Reset', String(s.resetSeconds)],
  ];
}
