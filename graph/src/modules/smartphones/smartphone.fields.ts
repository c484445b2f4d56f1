import { z } from 'zod';
import { describeFields } from '../../lib/record/field.js';
import { idOrNull } from '../departments/named-ref.js';
import { SMARTPHONE_STATUSES } from '../devices/device.enums.js';
import { contains, date, heldFields, int, kept, optional } from '../devices/device.fields.js';

const PHONE_FORMAT = '電話番号は数字とハイフン（先頭の + は可）で20文字以内で入力してください。';

/**
 * A smartphone, field by field (see COMPUTER_FIELDS): the entity, the GraphQL types, the list's SQL
 * and view, `/api` and the export all read this table.
 */
export const SMARTPHONE_FIELDS = describeFields({
  phoneNumber: {
    codec: 'text',
    label: '電話番号',
    nullable: false,
    maxLength: 20,
    width: 16,
    event: true,
    rule: z
      .string({ error: '電話番号を入力してください。' })
      .trim()
      .min(1, '電話番号を入力してください。')
      .max(20, PHONE_FORMAT)
      .regex(/^\+?[0-9][0-9-]{2,18}[0-9]$/, PHONE_FORMAT),
    body: { from: 'phone_number', read: (v: unknown) => (typeof v === 'number' ? String(v) : v) },
    // The phone-number filter matches digits with or without hyphens (smartphone.service.ts).
  },
  carrier: optional('キャリア', 50, { event: true, filter: contains('キャリアの部分一致') }),
  os: optional('OS', 50, { event: true, description: 'OS' }),
  price: int(
    '価格',
    z
      .number({ error: '価格は数値で入力してください。' })
      .int('価格は整数（円）で入力してください。')
      .min(0, '価格は0以上で入力してください。')
      .max(10_000_000, '価格は1,000万円以下で入力してください。')
      .nullish()
      .transform((n) => n ?? null),
    { width: 10, event: true, description: '価格（円）', body: { from: 'price', read: idOrNull } },
  ),
  ...heldFields(SMARTPHONE_STATUSES),
  exchangeDate: date('交換日', { event: true, description: '交換日 YYYY-MM-DD（画面では YYYY/MM/DD）' }),
  pinPw: kept('PIN・パスワード', 100, { exported: false }),
});
