import ExcelJS from 'exceljs';
import type { Response } from 'express';
import type { AppContext } from '../../platform/context.js';
import { requireUser } from '../../platform/authz.js';
import { DEVICE_ROLES } from '../employees/employee.enums.js';
import { COMPUTER_COLUMNS } from '../computers/computer.columns.js';
import { COMPUTER_STATUSES, DEVICE_STATUS_LABEL } from '../devices/device.enums.js';
import { startXlsxDownload } from '../../platform/xlsx-export.js';
import { IMPORT_COLUMNS } from './import.rows.js';

/** The template's headers: the export's, in its order, without the derived ones the import ignores. */
export const TEMPLATE_HEADERS = COMPUTER_COLUMNS.map((c) => c.header).filter((h) => h in IMPORT_COLUMNS);
/** The date columns (a date cell format in the template). */
const DATE_HEADERS = new Set(COMPUTER_COLUMNS.filter((c) => c.date).map((c) => c.header));

const EXAMPLE: Record<string, string | Date> = {
  管理番号: 'PC-0100',
  メーカー: 'Dell',
  種類: 'ノートPC',
  型番: 'Latitude 5440',
  状態: '正常',
  購入日: new Date('2025-04-01T00:00:00Z'),
  導入日: new Date('2025-04-10T00:00:00Z'),
  ACアダプター: '有',
  電源ケーブル: '有',
};

const RULES = [
  '「パソコン」シートの2行目（灰色の斜体）は記入例です。取り込む前に削除するか、実際の値に書き換えてください。そのまま取り込むと、管理番号 PC-0100 のパソコンとして登録されます。',
  '1行目の見出しで列を判別します（順序は自由、知らない列は無視）。「管理番号」か「ID」の列が必要です。',
  '管理番号がある行は管理番号で照合し、あれば更新、なければ登録します。管理番号がなくIDがある行はそのIDのパソコンを更新します。',
  '既存のパソコンを更新する行では、すべての列の値をファイルの内容で置き換えます。空欄のセルはその項目を消去します（使用者・拠点・導入日なども空になります）。変えたくない項目は値を入れておくか、その列ごと削除してください（列がなければ今の値のままです）。',
  '使用者は「使用者ID」（社員ID）か「使用者」（社員名、同名がいない場合）で指定します。前使用者は社員名です。',
  '日付は日付のセルか YYYY-MM-DD / YYYY/MM/DD の文字列。数式は計算結果の値として取り込みます。',
  '誤りのある行は取り込まれず、行番号・列・理由を一覧でダウンロードできます。他の行は取り込まれます。',
];

/** The import template: the header row, one example row, and a sheet 説明 with the allowed values. */
export async function sendTemplate(ctx: AppContext, res: Response): Promise<void> {
  requireUser(ctx, DEVICE_ROLES);
  const [locations, departments] = await Promise.all([
    ctx.services.departments.locations(ctx),
    ctx.services.departments.names(ctx),
  ]);
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('パソコン', { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = TEMPLATE_HEADERS.map((h) => ({
    key: h,
    width: Math.max(12, h.length * 2 + 2),
    style: DATE_HEADERS.has(h) ? { numFmt: 'yyyy-mm-dd' } : {},
  }));
  ws.addRow(TEMPLATE_HEADERS).font = { bold: true };
  // The example row looks like one (grey italics, a note on its first cell), and 説明 says to delete it.
  const example = ws.addRow(TEMPLATE_HEADERS.map((h) => EXAMPLE[h] ?? null));
  example.font = { italic: true, color: { argb: 'FF6E7781' } };
  example.getCell(1).note = '記入例です。取り込む前に削除するか、書き換えてください。';
  const help = wb.addWorksheet('説明');
  help.columns = [{ width: 16 }, { width: 100 }];
  for (const r of RULES) help.addRow(['', r]);
  help.addRow([]);
  const list = (label: string, values: string[]) => values.forEach((v, i) => help.addRow([i === 0 ? label : '', v]));
  list(
    '拠点',
    locations.map((l) => l.name),
  );
  list(
    '部署',
    departments.map((d) => d.name),
  );
  list(
    '状態',
    COMPUTER_STATUSES.map((s) => DEVICE_STATUS_LABEL[s]),
  );
  const buf = Buffer.from(await wb.xlsx.writeBuffer());
  startXlsxDownload(res, 'パソコン取り込みテンプレート.xlsx', 'computers-import-template.xlsx');
  res.end(buf);
}
