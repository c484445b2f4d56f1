/** Durations collected inside a server child in diagnostic mode, summarised and reset on request. */
import { performance } from 'node:perf_hooks';

export class Timings {
  private data = new Map<string, number[]>();

  add(name: string, ms: number): void {
    let a = this.data.get(name);
    if (!a) this.data.set(name, (a = []));
    a.push(ms);
  }

  /** Wraps an async method of `obj` so each call's duration is recorded under `name`. */
  wrap<T extends object, K extends keyof T>(obj: T, key: K, name: string): void {
    const orig = obj[key] as unknown as (...a: unknown[]) => Promise<unknown>;
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the wrapper is a `function` (it forwards its own `this` to the original)
    const self = this;
    (obj as Record<K, unknown>)[key] = async function (this: unknown, ...args: unknown[]) {
      const t0 = performance.now();
      try {
        return await orig.apply(this, args);
      } finally {
        self.add(name, performance.now() - t0);
      }
    };
  }

  summary(reset = true): Record<string, { n: number; mean: number; p50: number; p99: number }> {
    const out: Record<string, { n: number; mean: number; p50: number; p99: number }> = {};
    for (const [k, a] of this.data) {
      const s = Float64Array.from(a).sort();
      const q = (p: number) => (s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : 0);
      out[k] = { n: s.length, mean: s.reduce((x, y) => x + y, 0) / (s.length || 1), p50: q(0.5), p99: q(0.99) };
    }
    if (reset) this.data.clear();
    return out;
  }
}
