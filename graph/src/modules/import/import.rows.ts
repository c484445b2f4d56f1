import { CONTROL_CHARACTER } from '../../platform/validation.js';
import { CellError, type Cell } from '../../lib/xlsx/cell.js';
import { COMPUTER_COLUMNS } from '../computers/computer.columns.js';
import { COMPUTER_STATUSES, DEVICE_STATUS_LABEL, type DeviceStatus } from '../devices/device.enums.js';
import { COLUMN_OF, IMPORT_FIELDS, type ImportField, type ImportValues } from './import.fields.js';
import type { ImportRefs } from './import.refs.js';
import { ImportFailure } from './import.sheet.js';

export { COLUMN_OF, type ImportField, type ImportValues };
/** Values as read from a row, before the form's rules (a blank required cell is still null here). */
export type RawValues = { [K in ImportField]?: ImportValues[K] | null };

export interface RowError {
  row: number;
  column: string | null;
  reason: string;
}

/** The import's own columns: the computer's key by ID, and people by name (the others are its fields, by label). */
type Source = ImportField | 'id' | 'currentUserName' | 'previousUserName';
const SPECIAL: Record<string, Source> = {
  ID: 'id',
  使用者ID: 'currentUserId',
  使用者: 'currentUserName',
  前使用者: 'previousUserName',
};

/**
 * The export's headers the import reads, in the export's order: each field's label (COMPUTER_FIELDS),
 * 使用者ID and 使用者 for the current user, ID for the key; derived columns such as 使用者の在籍状況 are ignored.
 */
export const IMPORT_COLUMNS: Readonly<Record<string, Source>> = Object.fromEntries(
  COMPUTER_COLUMNS.flatMap((c) => {
    const source = SPECIAL[c.header] ?? IMPORT_FIELDS.find((f) => f.label === c.header)?.key;
    return source ? [[c.header, source as Source]] : [];
  }),
);
const HEADER_SOURCES = Object.entries(IMPORT_COLUMNS) as [string, Source][];

/** The fields read as they are carried: text (but the key), dates, whole numbers. */
const keysOf = (codec: string) =>
  IMPORT_FIELDS.filter((f) => f.codec === codec && f.key !== 'assetNumber').map((f) => f.key as ImportField);
const TEXT_FIELDS = keysOf('text');
const DATE_FIELDS = keysOf('date');
const INT_FIELDS = keysOf('int');

/** Header cells → the column index of each source field (order-free, unknown headers ignored). */
export type HeaderMap = Partial<Record<Source, number>>;

export function readHeader(cells: Cell[]): HeaderMap {
  const map: HeaderMap = {};
  cells.forEach((c, i) => {
    const name = typeof c === 'string' ? c.trim() : '';
    const source = (IMPORT_COLUMNS as Record<string, Source>)[name];
    if (source && map[source] === undefined) map[source] = i;
  });
  if (map.assetNumber === undefined && map.id === undefined) {
    throw new ImportFailure(
      '1行目に「管理番号」または「ID」の列見出しが必要です。テンプレートの見出しを使ってください。',
    );
  }
  return map;
}

/** A parsed row: its key, the fields its columns set (absent columns are left out) and its problems. */
export interface ParsedRow {
  row: number;
  assetNumber: string | null;
  id: number | null;
  values: RawValues;
  errors: RowError[];
}

const STATUS_BY_LABEL = new Map<string, DeviceStatus>(
  COMPUTER_STATUSES.flatMap((s) => [
    [DEVICE_STATUS_LABEL[s], s],
    [s, s],
  ]),
);
const EXCEL_EPOCH = Date.UTC(1899, 11, 30);

/**
 * Text as typed, less the quote the export of before put in front of text a spreadsheet would run
 * as a formula (= + - @, tab, carriage return): files it wrote read as the values it exported. The
 * export now writes such text as it is (a string cell, device.export.ts).
 */
export const unquote = (s: string): string =>
  s.charCodeAt(0) === 39 && /^'[=+\-@\t\r]/.test(s) ? s.slice(1).trim() : s;

const text = (c: Cell | undefined): string | null => {
  if (c === null || c === undefined) return null;
  const s = c instanceof Date ? c.toISOString().slice(0, 10) : unquote(String(c).trim());
  return s === '' ? null : s;
};

/** YYYY-MM-DD of an epoch time, remembered (a file has a few thousand distinct dates, not one per row). */
const DAYS = new Map<number, string>();
const isoDay = (ms: number): string => {
  let s = DAYS.get(ms);
  if (s === undefined) {
    s = new Date(ms).toISOString().slice(0, 10);
    if (DAYS.size >= 50_000) DAYS.clear();
    DAYS.set(ms, s);
  }
  return s;
};

/** A date cell, an Excel serial number, or YYYY-MM-DD / YYYY/MM/DD text (checked later by the form's rules). */
const dateText = (c: Cell | undefined): string | null => {
  if (c instanceof Date) return Number.isNaN(c.getTime()) ? 'invalid' : isoDay(c.getTime());
  if (typeof c === 'number' && c > 0 && c < 2_958_466) return isoDay(EXCEL_EPOCH + Math.round(c) * 86_400_000);
  return text(c);
};

const positiveInt = (c: Cell | undefined): number | null | 'bad' => {
  const s = text(c);
  if (s === null) return null;
  return /^\d+$/.test(s) && Number(s) > 0 && Number(s) <= 2_147_483_647 ? Number(s) : 'bad';
};

/** A number cell, or text of digits, as a number; other text as it is (the field's rule rejects it). */
const intCell = (c: Cell | undefined): number | string | null => {
  if (typeof c === 'number') return c;
  const s = text(c);
  return s !== null && /^-?\d+$/.test(s) ? Number(s) : s;
};

/** One sheet row → its key and values, names resolved against the master data. */
export function parseRow(row: number, cells: Cell[], h: HeaderMap, refs: ImportRefs): ParsedRow {
  const errors: RowError[] = [];
  const err = (column: string, reason: string) => errors.push({ row, column, reason });
  // An error value (#N/A, #DIV/0!, …) is not a value: the row is rejected, naming the column, and
  // the cell reads as empty below (no second message about the same cell).
  for (const [header, k] of HEADER_SOURCES) {
    const c = h[k] === undefined ? undefined : cells[h[k]!];
    if (c instanceof CellError)
      err(header, `エラー値（${c.code}）が入っています。数式の結果ではなく値を入力してください。`);
    // The same rule as every other channel (platform/validation.ts): what the export cannot carry is not stored.
    else if (typeof c === 'string' && CONTROL_CHARACTER.test(c))
      err(header, '使えない制御文字が含まれています（使える制御文字はタブと改行だけです）。');
  }
  const at = (k: Source): Cell | undefined => {
    if (h[k] === undefined) return undefined;
    const c = cells[h[k]!];
    return c === undefined || c instanceof CellError ? null : c;
  };
  const has = (k: Source) => h[k] !== undefined;
  const values: RawValues = {};

  const id = positiveInt(at('id'));
  if (id === 'bad') err('ID', 'IDは正の整数で入力してください。');
  const assetNumber = has('assetNumber') ? text(at('assetNumber')) : null;

  const set = values as Record<ImportField, unknown>;
  for (const k of TEXT_FIELDS) if (has(k)) set[k] = text(at(k));
  for (const k of DATE_FIELDS) if (has(k)) set[k] = dateText(at(k));
  for (const k of INT_FIELDS) if (has(k)) set[k] = intCell(at(k));

  if (has('status')) {
    const s = text(at('status'));
    const code = s === null ? null : STATUS_BY_LABEL.get(s);
    if (code) values.status = code;
    else if (s !== null)
      err('状態', `状態「${s}」は使えません（${COMPUTER_STATUSES.map((x) => DEVICE_STATUS_LABEL[x]).join('・')}）。`);
  }
  for (const [k, field, label] of [
    ['locationId', 'locationId', '拠点'],
    ['departmentId', 'departmentId', '部署'],
  ] as const) {
    if (!has(k)) continue;
    const name = text(at(k));
    const found = name === null ? null : (k === 'locationId' ? refs.locations : refs.departments).get(name);
    if (name !== null && found === undefined) err(label, `${label}「${name}」は存在しません。`);
    else values[field] = found ?? null;
  }
  if (has('officeAccountId')) {
    const account = text(at('officeAccountId'));
    const found = account === null ? null : refs.officeAccounts.get(account.toLowerCase());
    if (found === undefined)
      err('Microsoft Office アカウント', `Microsoft Office アカウント「${account}」は存在しません。`);
    else values.officeAccountId = found?.id ?? null;
  }
  resolvePeople(at, has, refs, values, err);
  return { row, assetNumber, id: typeof id === 'number' ? id : null, values, errors };
}

/** 使用者ID wins over 使用者 (a name must belong to exactly one employee); 前使用者 by name. */
function resolvePeople(
  at: (k: Source) => Cell | undefined,
  has: (k: Source) => boolean,
  refs: ImportRefs,
  values: RawValues,
  err: (column: string, reason: string) => void,
): void {
  const byName = (column: string, name: string | null): number | null | undefined => {
    if (name === null) return null;
    const id = refs.employeeByName.get(name);
    if (id === undefined) err(column, `社員「${name}」は存在しません。`);
    else if (id === null) err(column, `社員「${name}」は同名の社員が複数います。使用者IDで指定してください。`);
    return id ?? undefined;
  };
  const userId = positiveInt(at('currentUserId'));
  if (userId === 'bad') err('使用者ID', '使用者IDは正の整数で入力してください。');
  else if (typeof userId === 'number') {
    if (refs.employees.has(userId)) values.currentUserId = userId;
    else err('使用者ID', `社員（ID: ${userId}）は存在しません。`);
  } else if (has('currentUserName') || has('currentUserId')) {
    const id = byName('使用者', has('currentUserName') ? text(at('currentUserName')) : null);
    if (id !== undefined) values.currentUserId = id;
  }
  if (has('previousUserName')) {
    const id = byName('前使用者', text(at('previousUserName')));
    if (id !== undefined) values.previousUserId = id;
  }
}
