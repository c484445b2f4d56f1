import type { ComputerView } from '../computers/computer.types.js';
import type { XlsxColumn } from './device.export.js';
import type { HeldDeviceView } from './device.types.js';

/** The export columns computers and smartphones share (who, where, which state). */
export const HELD_COLUMNS: XlsxColumn<HeldDeviceView>[] = [
  { header: '使用者ID', width: 10, value: (d) => d.currentUser?.id },
  { header: '使用者', value: (d) => d.currentUser?.name },
  { header: '使用者の在籍状況', value: (d) => d.currentUserStatus },
  { header: '前使用者', value: (d) => d.previousUser?.name },
  { header: '拠点', width: 10, value: (d) => d.location?.name },
  { header: '部署', value: (d) => d.department?.name },
  { header: '状態', width: 10, value: (d) => d.statusLabel },
];

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
