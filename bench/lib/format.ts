/** Plain-text tables for the console. */
export function table(headers: string[], rows: (string | number)[][]): string {
  const cells = rows.map((r) => r.map((c) => String(c)));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]?.length ?? 0)));
  const line = (r: string[]) =>
    r.map((c, i) => (i === r.length - 1 && isNaN(Number(c)) ? c : c.padStart(widths[i]))).join('  ');
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

export const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : '-');
