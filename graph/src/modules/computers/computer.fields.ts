import { describeFields } from '../../lib/record/field.js';
import { idOrNull } from '../departments/named-ref.js';
import { COMPUTER_STATUSES } from '../devices/device.enums.js';
import {
  contains,
  date,
  equals,
  heldFields,
  kept,
  optional,
  text,
  withinDays,
  type DeviceFieldSpec,
} from '../devices/device.fields.js';
import { ref } from '../devices/device.validation.js';

/** What the Office account's facets read of a computer's view (not ComputerView itself: that type is derived from this table). */
type WithOffice = { officeAccount: { id: number; account: string } | null };

/** The computer's Microsoft Office account (the spec's `ms365`): linked by id, shown with its account. */
const officeAccount = {
  codec: 'ref',
  label: 'Microsoft Office アカウント',
  rule: ref('Microsoft Office アカウント'),
  nullable: true,
  rest: 'ms365',
  width: 30,
  inputDescription: 'Microsoft Office アカウントID (ms365)',
  body: { from: 'ms365', read: idOrNull },
  api: (c: WithOffice) => ({ ms365: c.officeAccount?.id ?? null, ms365_account: c.officeAccount?.account ?? null }),
  entity: {
    key: 'officeAccount',
    value: (e: Record<string, unknown>) => (e.officeAccount as { id: number } | null | undefined)?.id ?? null,
  },
  event: true,
  columns: [{ header: 'Microsoft Office アカウント', width: 30, value: (c: WithOffice) => c.officeAccount?.account }],
  filter: equals('この Office アカウントに紐付くパソコンだけ（?ms365=）'),
} as const satisfies DeviceFieldSpec;

/**
 * A computer, field by field: its column, its GraphQL name (the key) and `/api` name, its Japanese
 * label (form, export header, import column), its rule, how it is carried, whether it may be empty.
 * The entity, the GraphQL types, the list's SQL and view, `/api`, the export and the import all read
 * this table; the held-device fields are the ones computers and smartphones share (heldFields).
 */
export const COMPUTER_FIELDS = describeFields({
  assetNumber: kept('管理番号', 50, {
    unique: 'computer_asset_number_key',
    width: 12,
    event: true,
    description: '管理番号（一意。Excel 取り込みのキー）',
    inputDescription: '管理番号（一意）。更新で省略すると今の値のまま、空なら消す。',
  }),
  maker: text('メーカー', 100, { event: true, filter: contains('メーカーの部分一致') }),
  deviceType: optional('種類', 50, { event: true, description: '種類 (device_type)' }),
  model: optional('型番', 100, { width: 20, event: true }),
  ...heldFields(COMPUTER_STATUSES),
  reason: optional('理由', 500, { width: 24, description: '理由・備考' }),
  purchaseDate: date('購入日', { event: true }),
  introductionDate: date('導入日', { event: true }),
  officeAccountId: officeAccount,
  pinCode: kept('PINコード', 100, { exported: false }),
  pass: kept('パスワード', 100, { exported: false }),
  acAdapter: optional('ACアダプター', 100),
  powerCable: optional('電源ケーブル', 100),
  warrantyUntil: date('保証期限', { filter: withinDays('保証期限が今日から N 日以内（期限切れは含まない）') }),
});
