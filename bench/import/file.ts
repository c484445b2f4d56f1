/**
 * The import bench's file: the template's headers, one computer per row from the master data, with
 * about 1.5 % bad rows of a few kinds (every n-th row), written by exceljs's streaming writer.
 */
import ExcelJS from 'exceljs';
import { TEMPLATE_HEADERS } from '@intranet/graph/areas';

export interface Master {
  active: { id: number; name: string }[];
  retired: { id: number; name: string }[];
  locations: string[];
  departments: string[];
}

const MAKERS: [string, string[]][] = [
  ['Dell', ['Latitude 5440', 'OptiPlex 7010', 'Vostro 3520']],
  ['HP', ['ProBook 450 G10', 'EliteBook 840', 'ProDesk 400']],
  ['Lenovo', ['ThinkPad X1 Carbon', 'ThinkPad L14', 'ThinkCentre M70q']],
  ['NEC', ['VersaPro VKT16', 'Mate MKM30']],
  ['富士通', ['LIFEBOOK U9313', 'ESPRIMO D7012']],
  ['Panasonic', ["Let's note SV1", "Let's note FV4"]],
  ['Apple', ['MacBook Air M2', 'MacBook Pro 14']],
  ['Dynabook', ['dynabook G83', 'dynabook S73']],
  ['VAIO', ['VAIO Pro PK', 'VAIO SX14']],
  ['Microsoft', ['Surface Laptop 5', 'Surface Pro 9']],
];

/** The file: template headers, one computer per row; the bad rows are every n-th of a few kinds. */
export async function writeFile(file: string, rows: number, m: Master): Promise<{ badRows: number }> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true, useStyles: true });
  const ws = wb.addWorksheet('パソコン');
  ws.columns = TEMPLATE_HEADERS.map((h) => ({
    key: h,
    width: 14,
    style: h.endsWith('日') ? { numFmt: 'yyyy-mm-dd' } : {},
  }));
  ws.addRow(TEMPLATE_HEADERS).commit();
  const day = 86_400_000;
  const base = Date.UTC(2018, 0, 1);
  let bad = 0;
  for (let i = 1; i <= rows; i++) {
    const [maker, models] = MAKERS[i % MAKERS.length];
    const noUser = i % 4 === 0;
    const user = i % 173 === 0 ? m.retired[i % m.retired.length] : m.active[(i * 7) % m.active.length];
    const bought = base + (i % 2000) * day;
    const status = i % 401 === 0 ? '謎' : i % 13 === 0 ? '故障' : i % 29 === 0 ? '交換対象' : '正常';
    const kind = [
      i % 997 === 0, // 管理番号 twice (the later row is rejected)
      i % 1009 === 0, // blank メーカー
      i % 211 === 0, // unknown 使用者ID
      !noUser && i % 173 === 0 && m.retired.length > 0, // retired 使用者
      i % 307 === 0, // unknown 拠点
      i % 401 === 0, // unknown 状態
      i % 503 === 0, // 導入日 before 購入日
    ];
    if (kind.some(Boolean)) bad++;
    const v: Record<string, string | number | Date | null> = {
      ID: null,
      管理番号: `BN-${String(i % 997 === 0 ? i - 1 : i).padStart(6, '0')}`,
      メーカー: i % 1009 === 0 ? null : maker,
      種類: i % 3 === 0 ? 'デスクトップ' : 'ノートPC',
      型番: models[i % models.length],
      使用者ID: noUser ? null : i % 211 === 0 ? 9_000_000 + i : user.id,
      使用者: noUser ? null : user.name,
      前使用者: null,
      拠点: i % 307 === 0 ? '札幌' : m.locations[i % m.locations.length],
      部署: m.departments[(i * 3) % m.departments.length],
      状態: status,
      理由: status === '故障' ? 'バッテリー劣化' : null,
      購入日: new Date(bought),
      導入日: new Date(bought + (i % 503 === 0 ? -30 : 14) * day),
      'Microsoft Office アカウント': null,
      ACアダプター: i % 3 === 0 ? null : '有',
      電源ケーブル: i % 3 === 0 ? '有' : null,
    };
    ws.addRow(TEMPLATE_HEADERS.map((h) => v[h] ?? null)).commit();
  }
  ws.commit();
  await wb.commit();
  return { badRows: bad };
}
