/** The contract of a bench/*.bench.ts module: a default export run by bench/run.ts. */
export type BenchArgs = Record<string, string | boolean>;

export interface BenchOutcome {
  /** true/false against the bench's target, null when it has none (or the mode does not judge). */
  pass: boolean | null;
  /** The bench has a target but could not judge it this time (e.g. the machine was too busy). */
  inconclusive?: boolean;
  /** One line for the final summary. */
  headline: string;
  /** Written to bench/results/<name>-<timestamp>.json. */
  results: unknown;
}

export interface Bench {
  description: string;
  run(ctx: { args: BenchArgs; log: (line: string) => void }): Promise<BenchOutcome>;
}

export function numArg(args: BenchArgs, name: string, dflt: number): number {
  const v = args[name];
  if (v === undefined || v === true) return dflt;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`--${name} must be a number (got ${v})`);
  return n;
}
