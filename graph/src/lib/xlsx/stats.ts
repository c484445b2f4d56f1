export interface XlsxReadStats {
  /** Bytes inflated, all parts together. */
  inflated: number;
  /** Characters of part text the tokenizer was handed (pieces, and what was carried over to them). */
  scanned: number;
  /** The most characters carried over from one piece to the next. */
  maxCarry: number;
  /** The most text of one part handed to the tokenizer at once. */
  maxHeld: number;
}
export const newStats = (): XlsxReadStats => ({ inflated: 0, scanned: 0, maxCarry: 0, maxHeld: 0 });
