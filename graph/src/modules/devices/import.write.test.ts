import { describe, expect, it } from 'vitest';
import type { ImportValues } from './import.rows.js';
import { keyed, WRITTEN_COLUMNS } from './import.write.js';

describe('keyed (the positional keys of an import chunk\'s JSON)', () => {
  it('puts every written column under k<i>, in the order the statement reads them, and nothing else', () => {
    const d = Object.fromEntries(WRITTEN_COLUMNS.map((f, i) => [f, `value-${i}-${f}`])) as unknown as ImportValues;
    const row = keyed(d);
    expect(Object.keys(row)).toEqual(WRITTEN_COLUMNS.map((_, i) => `k${i}`));
    WRITTEN_COLUMNS.forEach((f, i) => expect(row[`k${i}`]).toBe(d[f]));
  });
});
