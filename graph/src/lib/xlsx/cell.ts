/** A cell that holds an Excel error value (#N/A, #DIV/0!, …), usually a formula's cached result. */
export class CellError {
  constructor(readonly code: string) {}
}

/** A cell as a reader hands it on: text, number, date, error value, or empty. Formulas arrive as their cached result. */
export type Cell = string | number | Date | CellError | null;

/** One sheet row: its 1-based row number in the file and its cells (0-based columns). */
export interface SheetRow {
  row: number;
  cells: Cell[];
}
