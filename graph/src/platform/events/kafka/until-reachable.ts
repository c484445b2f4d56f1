import type { Logger } from 'pino';

/**
 * Runs `attempt` until it succeeds: a process started while the broker is down (a restart of the
 * whole stack, a broker failover) waits for it, saying so, rather than exiting with kafkajs's
 * "number of retries exceeded" after ~20 s. `cleanup` undoes a half-done attempt before the next.
 */
export async function untilReachable<T>(
  what: string,
  attempt: () => Promise<T>,
  opts: { log: Logger; cleanup?: () => Promise<void>; firstDelayMs?: number; maxDelayMs?: number },
): Promise<T> {
  let delay = opts.firstDelayMs ?? 1000;
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (err) {
      opts.log.warn(
        { err: (err as Error).message, tries, retryInMs: delay },
        `${what}: Kafka is not reachable; trying again`,
      );
      await opts.cleanup?.().catch(() => undefined);
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, opts.maxDelayMs ?? 15_000);
    }
  }
}
