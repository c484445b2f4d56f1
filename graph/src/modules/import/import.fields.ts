import { compileFromArray, compilePick, compileToArray } from '../../lib/record/compile.js';
import { fieldList, sqlTypeOf, type ExportedOf, type Field } from '../../lib/record/field.js';
import { COMPUTER_FIELDS } from '../computers/computer.fields.js';
import type { DeviceFieldSpec } from '../devices/device.fields.js';

/**
 * What the Excel import takes from the computer's description: every field the export shows (PIN
 * codes and passwords are never in a file), in the export's order, with its label (the column's
 * header and the name its errors give), its column and SQL type (the chunk's write) and its value in
 * a new computer. Nothing of the import names a computer field but the ones it reads specially:
 * the key (管理番号), people, places, the status and the Office account (import.rows.ts).
 */
export const IMPORT_FIELDS = fieldList(COMPUTER_FIELDS).filter((f) => f.exported) as (Field & DeviceFieldSpec)[];

/** What an import row may set. */
export type ImportValues = ExportedOf<typeof COMPUTER_FIELDS>;
export type ImportField = keyof ImportValues & string;

/** The import's fields in their order (the order of its positional arrays and of `changed`). */
export const FIELDS = IMPORT_FIELDS.map((f) => f.key) as ImportField[];

/** The Japanese column name of each field (row errors and the preview's `changed`). */
export const COLUMN_OF = Object.fromEntries(IMPORT_FIELDS.map((f) => [f.key, f.label])) as Record<ImportField, string>;

/** A new computer's values before a row's cells are merged onto it. */
export const EMPTY = Object.fromEntries(
  IMPORT_FIELDS.map((f) => [f.key, f.empty ?? (f.nullable ? null : '')]),
) as ImportValues;

/** The written columns: the field, its SQL column and SQL type (one list for the INSERT and the UPDATE). */
export const WRITTEN: [ImportField, string, string][] = IMPORT_FIELDS.map((f) => [
  f.key as ImportField,
  f.column,
  sqlTypeOf(f),
]);

/** The import's fields of a computer (undefined → null), as one object literal (no per-row Object.fromEntries). */
export const pick = compilePick(FIELDS) as (v: Partial<ImportValues>) => ImportValues;

/** Values in FIELDS order as the import's fields: one object literal (stores under computed keys made each one a slow dictionary object). */
export const fromFieldOrder = compileFromArray(FIELDS) as (v: readonly unknown[]) => ImportValues;

/**
 * A row's values in FIELDS order (a chunk's rows go to PostgreSQL as one JSON array of such arrays).
 * Why not objects: `json_to_recordset` copies and hashes every key of every row before it reads a
 * field, about 5 µs of PostgreSQL per row, on the job's critical path; a `jsonb` array of arrays is
 * parsed once and each field is read by position (2.9 against 4.7-5.3 ms per 1,000 rows, measured
 * with the export's columns; the server writes it as fast). An array literal: V8 writes it as JSON
 * several times as fast as a copy of the row with its field names.
 */
export const positional = compileToArray(FIELDS) as (d: ImportValues) => unknown[];
