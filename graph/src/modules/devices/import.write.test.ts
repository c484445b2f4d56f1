import { describe, expect, it } from 'vitest';
import type { ImportValues } from './import.rows.js';
import { positional, WRITTEN_COLUMNS } from './import.write.js';

describe('positional (a row of an import chunk\'s JSON)', () => {
  it('holds every written column at its index, in the order the statement reads them, and nothing else', () => {
    const d = Object.fromEntries(WRITTEN_COLUMNS.map((f, i) => [f, `value-${i}-${f}`])) as unknown as ImportValues;
    expect(positional(d)).toEqual(WRITTEN_COLUMNS.map((f) => d[f]));
  });
});
