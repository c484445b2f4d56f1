import { describe, expect, it } from 'vitest';
import { collectGarbage } from './import.run.js';

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
