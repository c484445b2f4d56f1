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

