import { describe, expect, it } from 'vitest';
import { FeedFreshness } from './freshness.js';

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('FeedFreshness', () => {
  it('is not current before its first check, then follows each check; a failing check is not current', async () => {
    let answer: boolean | Error = true;
    const f = new FeedFreshness(async () => {
      if (answer instanceof Error) throw answer;
      return answer;
    }, 20);
    expect(f.current).toBe(false);
    f.start();
    try {
      await settle(60);
      expect(f.current).toBe(true);
      answer = false;
      await settle(60);
      expect(f.current).toBe(false);
      answer = true;
      await settle(60);
      expect(f.current).toBe(true);
      answer = new Error('broker unreachable');
      await settle(60);
      expect(f.current).toBe(false);
    } finally {
      f.stop();
    }
  });

  it('a check that does not answer within a second is not current', async () => {
    let hang = false;
    const f = new FeedFreshness(() => (hang ? new Promise<boolean>(() => undefined) : Promise.resolve(true)), 20);
    f.start();
    try {
      await settle(60);
      expect(f.current).toBe(true);
      hang = true;
      await settle(1300);
      expect(f.current).toBe(false);
    } finally {
      f.stop();
    }
    expect(FeedFreshness.always().current).toBe(true);
  });
});
