import { describe, expect, test } from 'vitest';
// @ts-expect-error a plain .mjs script without type declarations
import { initialJs } from '../web/scripts/initial-js-size.mjs';

describe('bundle budget', () => {
  test('the JS loaded before the first screen stays near 150 KB gzipped', () => {
    const rows = initialJs() as { file: string; gzip: number }[];
    const total = rows.reduce((a, r) => a + r.gzip, 0);
    expect(total / 1024).toBeLessThan(160);
  });
});
