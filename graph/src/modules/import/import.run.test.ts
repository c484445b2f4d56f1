import { describe, expect, it } from 'vitest';
import { collectGarbage, HeapGrowth } from './import.run.js';

describe('collectGarbage', () => {
  it('runs a full collection (an unreachable object is gone), again and again', async () => {
    let ref: WeakRef<object> | null = null;
    (() => {
      ref = new WeakRef({ big: new Array(1000).fill('x') });
    })();
    await new Promise((r) => setImmediate(r)); // WeakRef targets live until the end of the turn that made them
    collectGarbage();
    collectGarbage();
    expect(ref!.deref()).toBeUndefined();
  });
});

describe('HeapGrowth', () => {
  it('collects once the heap has grown past the limit from its lowest reading, then measures from after the collection', () => {
    const readings = [100, 90, 120, 141, 60, 80, 111, 70];
    let i = 0;
    const h = new HeapGrowth(50, () => readings[i++]!);
    const collected: number[] = [];
    const check = () => h.collectIfGrown(() => collected.push(i));
    expect(check()).toBe(false); // 90: the new low
    expect(check()).toBe(false); // 120: 30 over the low
    expect(check()).toBe(true); // 141: 51 over 90 → collect; reads 60 after it
    expect(collected).toEqual([4]);
    expect(check()).toBe(false); // 80: 20 over 60
    expect(check()).toBe(true); // 111: 51 over 60
  });
});
