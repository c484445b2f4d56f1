import type { Client, FormattedExecutionResult, Sink } from 'graphql-ws';

/**
 * Subscribes asking for the registration frame (the `livePosition` extension,
 * platform/live/position.ts) and keeps it from the sink: `registered` resolves when the server has
 * registered the subscription, so every event recorded after that reaches it. A test awaits it
 * instead of sleeping. A subscription the server refuses rejects `registered` (and reaches the sink's
 * `error` or `next` as usual), which no one need await.
 */
export function subscribeRegistered<T>(
  c: Client,
  payload: { query: string; variables?: Record<string, unknown> },
  sink: Sink<FormattedExecutionResult<T, unknown>>,
): { registered: Promise<void>; unsubscribe: () => void } {
  let settle: { resolve(): void; reject(err: unknown): void };
  const registered = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  registered.catch(() => undefined);
  let first = true;
  const unsubscribe = c.subscribe<T>(
    { ...payload, extensions: { livePosition: true } },
    {
      next: (m) => {
        const wasFirst = first;
        first = false;
        if (
          wasFirst &&
          m.data === undefined &&
          !m.errors &&
          (m.extensions as { livePosition?: string } | undefined)?.livePosition !== undefined
        )
          return settle.resolve();
        if (wasFirst) settle.reject(new Error(`no registration frame: ${JSON.stringify(m)}`));
        sink.next(m);
      },
      error: (err) => {
        settle.reject(err);
        sink.error(err);
      },
      complete: () => {
        settle.reject(new Error('completed before registering'));
        sink.complete();
      },
    },
  );
  return { registered, unsubscribe };
}
