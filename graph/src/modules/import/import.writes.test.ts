import { describe, expect, it } from 'vitest';
import type { ImportValues } from './import.rows.js';
import { joinPrepared, positional, WRITTEN_COLUMNS, type PreparedChunk } from './import.writes.js';

describe("positional (a row of an import chunk's JSON)", () => {
  it('holds every written column at its index, in the order the statement reads them, and nothing else', () => {
    const d = Object.fromEntries(WRITTEN_COLUMNS.map((f, i) => [f, `value-${i}-${f}`])) as unknown as ImportValues;
    expect(positional(d)).toEqual(WRITTEN_COLUMNS.map((f) => d[f]));
  });
});

describe('joinPrepared (decided batches written as one chunk)', () => {
  const part = (creates: unknown[], errors: unknown[], updates: unknown[] = []): PreparedChunk => ({
    jobId: 'j',
    actorId: 7,
    creates: JSON.stringify(creates),
    updates: JSON.stringify(updates),
    history: '[]',
    errors: JSON.stringify(errors),
    createCount: creates.length,
    updateCount: updates.length,
  });

  it('keeps every element of every batch, in order, and adds up the counts', () => {
    const joined = joinPrepared([
      part([['a', '{"x":[1]}'], ['b']], []),
      part([], [{ row: 5 }]),
      part([['c']], [{ row: 9, reason: 'a,b]' }], [[1, 2]]),
    ]);
    expect(JSON.parse(joined.creates)).toEqual([['a', '{"x":[1]}'], ['b'], ['c']]);
    expect(JSON.parse(joined.errors)).toEqual([{ row: 5 }, { row: 9, reason: 'a,b]' }]);
    expect(JSON.parse(joined.updates)).toEqual([[1, 2]]);
    expect(JSON.parse(joined.history)).toEqual([]);
    expect([joined.createCount, joined.updateCount, joined.jobId, joined.actorId]).toEqual([3, 1, 'j', 7]);
  });

  it('gives empty arrays for batches with nothing of a kind', () => {
    const joined = joinPrepared([part([], []), part([], [])]);
    expect([joined.creates, joined.updates, joined.history, joined.errors]).toEqual(['[]', '[]', '[]', '[]']);
  });
});
