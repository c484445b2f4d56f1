import type { XlsxColumn } from '../devices/device.export.js';
import { HELD_COLUMNS } from '../devices/device.columns.js';
import type { ComputerView } from './computer.types.js';

/** The computer export's columns; the Excel import reads the same headers (export → import round-trips). */
export const COMPUTER_COLUMNS: XlsxColumn<ComputerView>[] = [
  { header: 'ID', width: 8, value: (c) => c.id },
  { header: '管理番号', width: 12, value: (c) => c.assetNumber },
  { header: 'メーカー', value: (c) => c.maker },
  { header: '種類', value: (c) => c.deviceType },
  { header: '型番', width: 20, value: (c) => c.model },
  ...HELD_COLUMNS,
  { header: '理由', width: 24, value: (c) => c.reason },
  { header: '購入日', date: true, value: (c) => c.purchaseDate },
  { header: '導入日', date: true, value: (c) => c.introductionDate },
  { header: 'Microsoft Office アカウント', width: 30, value: (c) => c.officeAccount?.account },
  { header: 'ACアダプター', value: (c) => c.acAdapter },
  { header: '電源ケーブル', value: (c) => c.powerCable },
];
