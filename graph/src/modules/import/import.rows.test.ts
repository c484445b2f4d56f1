import { describe, expect, it } from 'vitest';
import { unquote } from './import.rows.js';

describe('cells as the import reads them', () => {
  it('the import drops the quote the old export put before text a spreadsheet would run as a formula, and no other', () => {
    expect(["'=1+1", "'+81", "'-3", "'@SUM(A1)", "'\tx", "'\rx"].map(unquote)).toEqual([
      '=1+1',
      '+81',
      '-3',
      '@SUM(A1)',
      'x',
      'x',
    ]);
    expect(['Dell', "'Dell", "It's", "'", "''=1", '=1+1', 'a=b', ''].map(unquote)).toEqual([
      'Dell',
      "'Dell",
      "It's",
      "'",
      "''=1",
      '=1+1',
      'a=b',
      '',
    ]);
  });
});
