import type { LivePubSub } from './pubsub.js';
import type { EventEnvelope } from '@intranet/schema/events';

/**
 * Objects handed to many subscribers at once: every subscriber of one visibility class receives the
 * same object for an event. The WebSocket layer (execution.ts) executes the subscription's
 * selection set once per such object and document and reuses the result for the whole class.
 * A resolver that yields a shared view promises that the view is all the result depends on: the
 * fields below it must not read the subscriber's context.
 */
const shared = new WeakSet<object>();
export function shareView<T extends object>(view: T): T {
  shared.add(view);
  return view;
}
export const isSharedView = (v: unknown): v is object => typeof v === 'object' && v !== null && shared.has(v);

/** How many undelivered values one subscriber may queue before it is cut off (a stuck socket). */
const MAX_QUEUE = 10_000;

interface Sink<E> {
  map: (event: E) => unknown;
  push: (value: unknown) => void;
}

/**
 * A hub subscription's iterator. `direct`, when set (execution.ts does for WebSocket
 * subscribers), is offered each value first, synchronously in the publish loop; when it returns
 * true it has delivered the value itself and the value is not queued. It is only offered values
 * while nothing is queued, so deliveries keep their order.
 */
export interface HubIterator<T> extends AsyncIterableIterator<T> {
  direct?: (value: T) => boolean;
}
export const isHubIterator = (v: unknown): v is HubIterator<unknown> =>
  typeof v === 'object' && v !== null && hubIterators.has(v);
const hubIterators = new WeakSet<object>();

/**
 * One pubsub subscription per aggregate type, fanned out synchronously to every live subscriber
 * through a plain queue each (no EventTarget listener, Repeater and filter chain per subscriber).
 * Each subscriber's `map` decides whether it gets an event and what (undefined = skip); it runs in
 * the publish loop, so it must be cheap and must not throw (a throwing map skips that subscriber).
 */
export class LiveHub<E> {
  private readonly sinks = new Set<Sink<E>>();
  private source?: AsyncIterator<E>;

  constructor(private readonly open: () => AsyncIterable<E>) {}

  get size(): number {
    return this.sinks.size;
  }

  publish(event: E): void {
    for (const s of this.sinks) {
      let v: unknown;
      try {
        v = s.map(event);
      } catch {
        continue;
      }
      if (v !== undefined) s.push(v);
    }
  }

  subscribe<T>(map: (event: E) => T | undefined): HubIterator<T> {
    const queue: T[] = [];
    let waiting: ((r: IteratorResult<T>) => void) | undefined;
    let failed: ((err: Error) => void) | undefined;
    let error: Error | undefined;
    let done = false;
    const sink: Sink<E> = {
      map,
      push: (v) => {
        if (it.direct && !queue.length && it.direct(v as T)) return;
        if (waiting) {
          const w = waiting;
          waiting = failed = undefined;
          w({ value: v as T, done: false });
        } else if (queue.length < MAX_QUEUE) queue.push(v as T);
        else {
          error = new Error('live subscription overflow: the client does not keep up');
          finish();
        }
      },
    };
    const finish = () => {
      if (done) return;
      done = true;
      this.sinks.delete(sink);
      if (!this.sinks.size) this.close();
      if (waiting) {
        const w = waiting;
        const f = failed;
        waiting = failed = undefined;
        if (error && f) f(error);
        else w({ value: undefined, done: true });
      }
    };
    this.sinks.add(sink);
    this.ensureOpen();
    const it: HubIterator<T> = {
      next: () => {
        if (queue.length) return Promise.resolve({ value: queue.shift()!, done: false });
        if (error) {
          const e = error;
          error = undefined;
          return Promise.reject(e);
        }
        if (done) return Promise.resolve({ value: undefined, done: true });
        return new Promise<IteratorResult<T>>((resolve, reject) => {
          waiting = resolve;
          failed = reject;
        });
      },
      return: () => {
        queue.length = 0;
        finish();
        return Promise.resolve({ value: undefined, done: true });
      },
      throw: (err?: unknown) => {
        queue.length = 0;
        finish();
        return Promise.reject(err);
      },
      [Symbol.asyncIterator]() {
        return it;
      },
    };
    hubIterators.add(it);
    return it;
  }

  private ensureOpen() {
    if (this.source) return;
    const source = this.open()[Symbol.asyncIterator]();
    this.source = source;
    void (async () => {
      for (;;) {
        const r = await source.next().catch(() => ({ done: true, value: undefined }) as IteratorResult<E>);
        if (r.done || this.source !== source) return;
        this.publish(r.value);
      }
    })();
  }

  private close() {
    const s = this.source;
    this.source = undefined;
    void s?.return?.();
  }
}

const hubs = new WeakMap<LivePubSub, Map<string, LiveHub<EventEnvelope>>>();

/** The hub of committed events of one aggregate type ('schedule', …) on this pubsub. */
export function liveHub(pubsub: LivePubSub, aggregateType: string): LiveHub<EventEnvelope> {
  let byType = hubs.get(pubsub);
  if (!byType) hubs.set(pubsub, (byType = new Map()));
  let hub = byType.get(aggregateType);
  if (!hub) byType.set(aggregateType, (hub = new LiveHub(() => pubsub.subscribe('event', aggregateType))));
  return hub;
}
