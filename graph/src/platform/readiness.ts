/**
 * Readiness, apart from liveness: `/healthz` says the process answers (and its database and
 * migrations, as before), `/readyz` says whether it can do its work now and, when not, why: each
 * check names what is wrong (the database, the broker, a live feed behind, a consumer restarting).
 * Every check and probe is bounded, so the answer comes within a second whatever is down.
 */

/** What a check says: null when all is well, otherwise why not. */
export type ReadyCheck = () => Promise<string | null>;

export const CHECK_TIMEOUT_MS = 1000;

/** The promise's value, or 'timeout' when it takes longer than `ms` (the promise is left to finish on its own). */
export async function within<T>(promise: Promise<T>, ms = CHECK_TIMEOUT_MS): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

export interface ReadyReport {
  ready: boolean;
  /** Why not, one line per check that failed. */
  reasons: string[];
  checks: Record<string, 'ok' | string>;
}

/** Runs every check at once, each bounded by CHECK_TIMEOUT_MS. */
export async function readiness(checks: Record<string, ReadyCheck>): Promise<ReadyReport> {
  const results = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      const r = await within(check().catch((err: unknown) => `failed: ${(err as Error).message}`));
      return [name, r === 'timeout' ? `no answer within ${CHECK_TIMEOUT_MS} ms` : r] as const;
    }),
  );
  const reasons = results.filter(([, r]) => r !== null).map(([name, r]) => `${name}: ${r}`);
  return {
    ready: reasons.length === 0,
    reasons,
    checks: Object.fromEntries(results.map(([name, r]) => [name, r ?? 'ok'])),
  };
}
