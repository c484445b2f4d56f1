import { describe, expect, it } from 'vitest';
import { DeviceStatus } from '../devices/device.enums.js';
import { ImportPlanner, type Existing } from './import.plan.js';
import type { ImportRefs } from './import.refs.js';
import { parseRow, readHeader, type RowError } from './import.rows.js';
import { CellError, type Cell } from '../../lib/xlsx/cell.js';

const refs: ImportRefs = {
  employees: new Map([
    [1, { id: 1, name: '山田 太郎', retired: false }],
    [2, { id: 2, name: '佐藤 花子', retired: false }],
  ]),
  employeeByName: new Map([
    ['山田 太郎', 1],
    ['佐藤 花子', 2],
  ]),
  locations: new Map([['東京', 10]]),
  departments: new Map([['総務部', 20]]),
  officeAccounts: new Map(),
  suspendedAccounts: new Set(),
};

const stored: Existing = {
  id: 7,
  version: 3,
  assetNumber: 'PC-0007',
  maker: 'Dell',
  deviceType: null,
  model: 'Latitude',
  currentUserId: 1,
  previousUserId: null,
  locationId: 10,
  departmentId: null,
  status: DeviceStatus.NORMAL,
  reason: null,
  purchaseDate: '2024-04-01',
  introductionDate: '2024-04-10',
  officeAccountId: null,
  acAdapter: null,
  powerCable: null,
  warrantyUntil: null,
};

const HEADERS = ['ID', '管理番号', 'メーカー', '型番', '使用者', '前使用者', '拠点', '購入日', '導入日'];
const header = readHeader(HEADERS);
const row = (n: number, v: Record<string, Cell>) =>
  parseRow(
    n,
    HEADERS.map((h) => v[h] ?? null),
    header,
    refs,
  );
const decide = (rows: ReturnType<typeof row>[], found: Existing[] = [stored]) =>
  new ImportPlanner(refs).decide(rows, found);
const columns = (errors: RowError[]) => errors.map((e) => e.column);

/** The audit's row: an empty メーカー, an impossible date, an unknown 拠点 and an unknown 使用者. */
const BAD = { メーカー: '', 使用者: '存在しない人', 拠点: '火星', 導入日: '2024-13-40' };

describe('ImportPlanner: every bad cell of a row is reported', () => {
  it('a new computer: the field rules and the unknown names together, one error per cell, in column order', () => {
    const { planned, errors } = decide([row(2, { 管理番号: 'NEW-1', ...BAD })]);
    expect(planned).toEqual([]);
    expect(errors).toEqual([
      { row: 2, column: 'メーカー', reason: 'メーカーを入力してください。' },
      { row: 2, column: '使用者', reason: '社員「存在しない人」は存在しません。' },
      { row: 2, column: '拠点', reason: '拠点「火星」は存在しません。' },
      { row: 2, column: '導入日', reason: '導入日は正しい日付（YYYY-MM-DD）で入力してください。' },
    ]);
  });

  it('a control character other than tab and line breaks is refused as on every channel (an export could not carry it)', () => {
    const { planned, errors } = decide([
      row(5, { 管理番号: 'NEW-2', メーカー: 'Dell\u0007Bell', 型番: 'Latitude\t5440', 拠点: '東京' }),
    ]);
    expect(planned).toEqual([]);
    expect(errors).toEqual([
      {
        row: 5,
        column: 'メーカー',
        reason: '使えない制御文字が含まれています（使える制御文字はタブと改行だけです）。',
      },
    ]);
  });

  it('an existing computer (matched by 管理番号) the same', () => {
    const { planned, errors } = decide([row(3, { 管理番号: 'PC-0007', ...BAD })]);
    expect(planned).toEqual([]);
    expect(columns(errors)).toEqual(['メーカー', '使用者', '拠点', '導入日']);
  });

  it('a row whose key names no computer still has its cells checked', () => {
    const { errors } = decide([row(4, { ID: 999, ...BAD })]);
    expect(errors).toEqual([
      { row: 4, column: 'ID', reason: 'ID 999 のパソコンは存在しません。' },
      { row: 4, column: 'メーカー', reason: 'メーカーを入力してください。' },
      { row: 4, column: '使用者', reason: '社員「存在しない人」は存在しません。' },
      { row: 4, column: '拠点', reason: '拠点「火星」は存在しません。' },
      { row: 4, column: '導入日', reason: '導入日は正しい日付（YYYY-MM-DD）で入力してください。' },
    ]);
    // A bad ID is not reported a second time as a missing key.
    expect(decide([row(5, { ID: 'abc', メーカー: '' })]).errors).toEqual([
      { row: 5, column: 'ID', reason: 'IDは正の整数で入力してください。' },
      { row: 5, column: 'メーカー', reason: 'メーカーを入力してください。' },
    ]);
  });

  it('a cell is reported once: an error value is not also a missing required value', () => {
    const { errors } = decide([row(2, { 管理番号: 'NEW-2', メーカー: new CellError('#N/A'), 拠点: '火星' })]);
    expect(errors).toEqual([
      {
        row: 2,
        column: 'メーカー',
        reason: 'エラー値（#N/A）が入っています。数式の結果ではなく値を入力してください。',
      },
      { row: 2, column: '拠点', reason: '拠点「火星」は存在しません。' },
    ]);
  });

  it('an unknown 使用者 is not compared with 前使用者 (the stored user stands in for it)', () => {
    const { errors } = decide([
      row(2, { 管理番号: 'PC-0007', メーカー: 'Dell', 使用者: '存在しない人', 前使用者: '山田 太郎' }),
    ]);
    expect(errors).toEqual([{ row: 2, column: '使用者', reason: '社員「存在しない人」は存在しません。' }]);
  });

  it('a rejected row does not claim its computer: a later row of the same 管理番号 goes in', () => {
    const { planned, errors } = decide([
      row(2, { 管理番号: 'PC-0007', ...BAD }),
      row(3, { 管理番号: 'PC-0007', メーカー: 'HP', 使用者: '山田 太郎', 拠点: '東京' }),
    ]);
    expect(new Set(errors.map((e) => e.row))).toEqual(new Set([2]));
    expect(planned).toMatchObject([{ row: 3, action: 'UPDATE', computerId: 7 }]);
  });

  it('a good row is planned as before (blank cells of an existing computer clear its fields)', () => {
    const { planned, errors } = decide([row(2, { 管理番号: 'PC-0007', メーカー: 'Dell', 型番: 'Latitude' })]);
    expect(errors).toEqual([]);
    expect(planned).toMatchObject([
      {
        action: 'UPDATE',
        changed: ['currentUserId', 'previousUserId', 'locationId', 'purchaseDate', 'introductionDate'],
      },
    ]);
    expect(planned[0].data).toMatchObject({
      currentUserId: null,
      previousUserId: 1,
      locationId: null,
      purchaseDate: null,
      introductionDate: null,
    });
  });
});

describe('ImportPlanner: the same computer twice in a file', () => {
  it('rejects the later row, naming the earlier one, whether it repeats the 管理番号 or names the same stored computer by ID; a row rejected while reading it (an unknown 使用者) claims nothing', () => {
    const { planned, errors } = decide([
      row(2, { 管理番号: 'NEW-1', メーカー: 'HP' }),
      row(3, { 管理番号: 'NEW-1', メーカー: 'NEC' }),
      row(4, { 管理番号: 'PC-0007', メーカー: 'Dell' }),
      row(5, { ID: 7, メーカー: 'Lenovo' }),
      row(6, { 管理番号: 'NEW-2', メーカー: 'VAIO', 使用者: '存在しない人' }),
      row(7, { 管理番号: 'NEW-2', メーカー: 'VAIO' }),
    ]);
    expect(planned.map((p) => [p.row, p.action])).toEqual([
      [2, 'CREATE'],
      [4, 'UPDATE'],
      [7, 'CREATE'],
    ]);
    expect(errors.filter((e) => e.reason.includes('同じパソコン'))).toEqual([
      {
        row: 3,
        column: '管理番号',
        reason: '2行目と同じパソコンを指しています（同じ管理番号・IDは1行だけにしてください）。',
      },
      {
        row: 5,
        column: 'ID',
        reason: '4行目と同じパソコンを指しています（同じ管理番号・IDは1行だけにしてください）。',
      },
    ]);
    expect(errors.map((e) => e.row)).toEqual([3, 5, 6]);
  });
});
