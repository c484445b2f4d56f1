/**
 * The table of current figures in bench/README.md, one row per bench, between two HTML comments.
 * `npm run bench -- <name> --summary` rewrites the bench's own row after a run (see bench/run.ts),
 * so the table says what the last run measured instead of drifting from it. Everything outside the
 * markers is left byte for byte as it was.
 */
export const SUMMARY_START = '<!-- bench-summary:start -->';
export const SUMMARY_END = '<!-- bench-summary:end -->';

export const SUMMARY_COLUMNS = [
  'Bench',
  'Command',
  'Peer',
  'Target',
  'Latest result',
  'Run (date, commit)',
  'Verdict',
] as const;

export interface SummaryRow {
  bench: string;
  command: string;
  peer: string;
  target: string;
  result: string;
  run: string;
  verdict: string;
}
const KEYS: (keyof SummaryRow)[] = ['bench', 'command', 'peer', 'target', 'result', 'run', 'verdict'];

/** The bench's name in a row's first cell: its first `code span` (`` [`grid`](grid.bench.ts) ``). */
function benchName(cell: string): string {
  return /`([^`]+)`/.exec(cell)?.[1] ?? cell.trim();
}

/** Cells of one Markdown table line; `\|` is a pipe inside a cell. */
export function splitCells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  const cells: string[] = [];
  let cur = '';
  for (let i = 0; i < inner.length; i++) {
    if (inner[i] === '\\' && inner[i + 1] === '|') {
      cur += '\\|';
      i++;
    } else if (inner[i] === '|') {
      cells.push(cur.trim());
      cur = '';
    } else cur += inner[i];
  }
  cells.push(cur.trim());
  return cells;
}

/** A value as one table cell: on one line, its pipes escaped (already escaped ones kept). */
export function cell(text: string): string {
  return text
    .replace(/\s*\n\s*/g, ' ')
    .replace(/(?<!\\)\|/g, '\\|')
    .trim();
}

function line(row: SummaryRow): string {
  return `| ${KEYS.map((k) => row[k]).join(' | ')} |`;
}

function locate(markdown: string): { before: string; body: string; after: string } {
  const start = markdown.indexOf(SUMMARY_START);
  const end = markdown.indexOf(SUMMARY_END);
  if (start < 0 || end < start)
    throw new Error(`bench/README.md has no summary table between ${SUMMARY_START} and ${SUMMARY_END}`);
  const bodyStart = start + SUMMARY_START.length;
  return { before: markdown.slice(0, bodyStart), body: markdown.slice(bodyStart, end), after: markdown.slice(end) };
}

/** The rows of the summary table, in order. */
export function readSummary(markdown: string): SummaryRow[] {
  const lines = locate(markdown)
    .body.split('\n')
    .filter((l) => l.trim().startsWith('|'));
  return lines.slice(2).map((l) => {
    const cells = splitCells(l);
    if (cells.length !== KEYS.length)
      throw new Error(`summary table row has ${cells.length} cells, not ${KEYS.length}: ${l}`);
    return Object.fromEntries(KEYS.map((k, i) => [k, cells[i]!])) as unknown as SummaryRow;
  });
}

/**
 * Replaces the row of `update.bench` with the given cells (the others kept: peer and target are
 * written by hand), or adds the row, the rows then sorted by bench name.
 */
export function upsertSummaryRow(
  markdown: string,
  update: { bench: string } & Partial<Omit<SummaryRow, 'bench'>>,
): string {
  const { before, after } = locate(markdown);
  const rows = readSummary(markdown);
  const i = rows.findIndex((r) => benchName(r.bench) === update.bench);
  const given = Object.fromEntries(
    Object.entries(update)
      .filter(([k, v]) => k !== 'bench' && v !== undefined)
      .map(([k, v]) => [k, cell(v!)]),
  );
  if (i >= 0) rows[i] = { ...rows[i]!, ...given };
  else {
    rows.push({
      command: '',
      peer: '–',
      target: '–',
      result: '',
      run: '',
      verdict: '',
      ...given,
      bench: `[\`${update.bench}\`](${update.bench}.bench.ts)`,
    });
    rows.sort((a, b) => benchName(a.bench).localeCompare(benchName(b.bench)));
  }
  const header = `| ${SUMMARY_COLUMNS.join(' | ')} |\n|${SUMMARY_COLUMNS.map(() => '---').join('|')}|`;
  return `${before}\n${header}\n${rows.map(line).join('\n')}\n${after}`;
}
