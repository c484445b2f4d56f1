import { registerEnumType } from 'type-graphql';

/**
 * Device status. The spec gives two readings of the computer statuses (the form without 処分済み,
 * or 紛失 only in the form); we use ONE set for computers, in the form and the filter alike:
 * 正常, 交換対象, 故障, 廃棄, 紛失, 処分済み. Smartphones use the same codes without 紛失.
 */
export enum DeviceStatus {
  NORMAL = 'NORMAL',
  REPLACE = 'REPLACE',
  BROKEN = 'BROKEN',
  DISCARDED = 'DISCARDED',
  LOST = 'LOST',
  DISPOSED = 'DISPOSED',
}

export const DEVICE_STATUS_LABEL: Record<DeviceStatus, string> = {
  NORMAL: '正常',
  REPLACE: '交換対象',
  BROKEN: '故障',
  DISCARDED: '廃棄',
  LOST: '紛失',
  DISPOSED: '処分済み',
};

/** The options of each kind, in the spec's order. */
export const COMPUTER_STATUSES: readonly DeviceStatus[] = [
  DeviceStatus.NORMAL,
  DeviceStatus.REPLACE,
  DeviceStatus.BROKEN,
  DeviceStatus.DISCARDED,
  DeviceStatus.LOST,
  DeviceStatus.DISPOSED,
];
export const SMARTPHONE_STATUSES: readonly DeviceStatus[] = [
  DeviceStatus.NORMAL,
  DeviceStatus.BROKEN,
  DeviceStatus.REPLACE,
  DeviceStatus.DISCARDED,
  DeviceStatus.DISPOSED,
];

/** Hidden from lists unless "show discarded" is checked (and the "discarded" row style). */
export const DISCARDED_STATUSES: readonly DeviceStatus[] = [DeviceStatus.DISCARDED, DeviceStatus.DISPOSED];

export enum OfficeAccountStatus {
  IN_USE = 'IN_USE',
  SUSPENDED = 'SUSPENDED',
}

/** The licence limit an Office account's colouring is about: 5 computers per account. */
export const OFFICE_USAGE_LIMIT = 5;

export const OFFICE_STATUS_LABEL: Record<OfficeAccountStatus, string> = { IN_USE: '使用中', SUSPENDED: '停止' };

/** Devices that have a user, a location and a history. */
export enum DeviceKind {
  COMPUTER = 'COMPUTER',
  SMARTPHONE = 'SMARTPHONE',
}

/** Everything in the register (what a live change notification is about). */
export enum AssetKind {
  COMPUTER = 'COMPUTER',
  SMARTPHONE = 'SMARTPHONE',
  OFFICE_ACCOUNT = 'OFFICE_ACCOUNT',
}

/** The Office list's row colour (spec section 9); null means the normal style. */
export enum OfficeRowColor {
  BLUE = 'BLUE',
  RED = 'RED',
}

/** Why an Office row has its colour (the screens word it per language; rowColorReason is the Japanese text). */
export enum OfficeRowReason {
  OVER_LIMIT = 'OVER_LIMIT',
  UNUSABLE_COMPUTER = 'UNUSABLE_COMPUTER',
  SUSPENDED_IN_USE = 'SUSPENDED_IN_USE',
  AT_LIMIT = 'AT_LIMIT',
  REPLACE_COMPUTER = 'REPLACE_COMPUTER',
}

export const labelled = <T extends string>(labels: Record<T, string>, codes: readonly T[]) =>
  codes.map((code) => ({ code, label: labels[code] }));

/** A code or its Japanese label (the spec's `/api` sends labels) → the code. */
export function codeOf<T extends string>(labels: Record<T, string>, v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const s = v.trim();
  return (Object.keys(labels) as T[]).find((k) => k === s || labels[k] === s) ?? s;
}

registerEnumType(DeviceStatus, {
  name: 'DeviceStatus',
  description: '正常 / 交換対象 / 故障 / 廃棄 / 紛失（パソコンのみ）/ 処分済み',
});
registerEnumType(OfficeAccountStatus, { name: 'OfficeAccountStatus', description: '使用中 / 停止' });
registerEnumType(DeviceKind, { name: 'DeviceKind', description: 'パソコン / スマートフォン' });
registerEnumType(AssetKind, {
  name: 'AssetKind',
  description: 'パソコン / スマートフォン / Microsoft Office アカウント',
});
registerEnumType(OfficeRowColor, { name: 'OfficeRowColor', description: 'Microsoft Office 一覧の行の色' });
registerEnumType(OfficeRowReason, {
  name: 'OfficeRowReason',
  description: '行の色の理由: 上限超過 / 使えないパソコン / 停止中で使用 / 上限到達 / 交換対象',
});
