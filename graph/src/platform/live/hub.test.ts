import { describe, expect, it } from 'vitest';
import { LiveHub, isSharedView, shareView } from './hub.js';

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('LiveHub', () => {
  it('fans one source out to every subscriber in order, each through its own map', async () => {
    let push!: (v: number) => void;
    let closed = 0;
    const hub = new LiveHub<number>(() => ({
      [Symbol.asyncIterator]: () => ({
        next: () => new Promise<IteratorResult<number>>((r) => (push = (v) => r({ value: v, done: false }))),
        return: async () => {
          closed++;
          return { value: undefined, done: true };
        },
      }),
    }));
    const even = hub.subscribe((n) => (n % 2 === 0 ? `even ${n}` : undefined));
    const all = hub.subscribe((n) => `n ${n}`);
    for (const n of [1, 2, 3, 4]) {
      push(n);
      await tick();
    }
    expect([(await even.next()).value, (await even.next()).value]).toEqual(['even 2', 'even 4']);
    expect(await Promise.all([all.next(), all.next(), all.next(), all.next()])).toEqual(
      ['n 1', 'n 2', 'n 3', 'n 4'].map((value) => ({ value, done: false })),
    );
    const pending = even.next();
    await even.return!();
    expect(await pending).toEqual({ value: undefined, done: true });
    expect(hub.size).toBe(1);
    await all.return!();
    expect(hub.size).toBe(0);
    expect(closed).toBe(1); // the source closes with the last subscriber
  });

  it('offers values to a direct deliverer first, and queues what it declines', async () => {
    const hub = new LiveHub<string>(() => ({
      [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<string>>(() => undefined) }),
    }));
    const it = hub.subscribe((s) => s);
    const direct: string[] = [];
    it.direct = (v) => (v.startsWith('d') ? (direct.push(v), true) : false);
    hub.publish('d1');
    hub.publish('q1');
    hub.publish('d2'); // queued behind q1, to keep the order
    expect(direct).toEqual(['d1']);
    expect([(await it.next()).value, (await it.next()).value]).toEqual(['q1', 'd2']);
    await it.return!();
  });

  it('marks shared views', () => {
    const v = shareView({ a: 1 });
    expect(isSharedView(v)).toBe(true);
    expect(isSharedView({ a: 1 })).toBe(false);
  });
});
