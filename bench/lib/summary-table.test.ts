import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { readSummary, SUMMARY_END, SUMMARY_START, upsertSummaryRow } from './summary-table.js';

const doc = `# Benchmarks

Method text | with a pipe outside the table.

${SUMMARY_START}
| Bench | Command | Peer | Target | Latest result | Run (date, commit) | Verdict |
|---|---|---|---|---|---|---|
| [\`grid\`](grid.bench.ts) | \`npm run bench -- grid\` | bare node:http + pg | p99 ≤ 1.5 × bare | 1.26× / 1.04× | 2026-11-26 20:26, 0a0490d | INCONCLUSIVE |
| [\`live\`](live.bench.ts) | \`npm run bench -- live\` | bare ws broadcast | ≥ 0.5 × bare \\| correct | 0.79 × | 2026-11-26 08:26, 4275889 | PASS |
${SUMMARY_END}

## After the table
`;

describe('bench summary table', () => {
  test('a run replaces its own row: result, run and verdict change, peer and target stay, the rest of the file is untouched', () => {
    const out = upsertSummaryRow(doc, {
      bench: 'grid',
      command: '`npm run bench -- grid --rounds=5`',
      result: 'full 3 rps / bare 5 rps = 0.60×',
      run: '2026-11-27 09:00 UTC, abc1234+',
      verdict: 'PASS',
    });
    const rows = readSummary(out);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual({
      bench: '[`grid`](grid.bench.ts)',
      command: '`npm run bench -- grid --rounds=5`',
      peer: 'bare node:http + pg',
      target: 'p99 ≤ 1.5 × bare',
      result: 'full 3 rps / bare 5 rps = 0.60×',
      run: '2026-11-27 09:00 UTC, abc1234+',
      verdict: 'PASS',
    });
    expect(rows[1]).toEqual(readSummary(doc)[1]);
    const [headBefore, tailBefore] = [doc.slice(0, doc.indexOf(SUMMARY_START)), doc.slice(doc.indexOf(SUMMARY_END))];
    expect(out.startsWith(headBefore)).toBe(true);
    expect(out.endsWith(tailBefore)).toBe(true);
  });

  test('a bench without a row gets one, in name order', () => {
    const out = upsertSummaryRow(doc, {
      bench: 'import',
      command: '`npm run bench -- import`',
      result: '36,000 rows/s',
      run: 'r',
      verdict: 'PASS',
    });
    expect(readSummary(out).map((r) => r.bench)).toEqual([
      '[`grid`](grid.bench.ts)',
      '[`import`](import.bench.ts)',
      '[`live`](live.bench.ts)',
    ]);
    expect(readSummary(out)[1]).toMatchObject({ peer: '–', target: '–', result: '36,000 rows/s' });
  });

  test('a headline with pipes and line breaks stays one cell; escaped pipes survive a rewrite', () => {
    const out = upsertSummaryRow(doc, { bench: 'grid', result: 'a | b\nc' });
    const rows = readSummary(out);
    expect(rows[0]!.result).toBe('a \\| b c');
    expect(rows[1]!.target).toBe('≥ 0.5 × bare \\| correct');
    expect(upsertSummaryRow(out, { bench: 'grid', result: 'a | b\nc' })).toBe(out);
  });

  test('a file without the markers is refused, not appended to', () => {
    expect(() => upsertSummaryRow('# Benchmarks\n', { bench: 'grid', result: 'x' })).toThrow(
      /no summary table between/,
    );
  });

  test('every row of bench/README.md names a bench that exists, once, with every cell filled', () => {
    const benchDir = fileURLToPath(new URL('..', import.meta.url));
    const rows = readSummary(fs.readFileSync(path.join(benchDir, 'README.md'), 'utf8'));
    const names = rows.map((r) => /`([^`]+)`/.exec(r.bench)?.[1]);
    for (const r of rows) for (const v of Object.values(r)) expect(v, JSON.stringify(r)).not.toBe('');
    for (const n of names) expect(fs.existsSync(path.join(benchDir, `${n}.bench.ts`)), `${n}.bench.ts`).toBe(true);
    expect(new Set(names).size).toBe(names.length);
  });
});
