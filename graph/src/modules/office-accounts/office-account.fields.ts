import { z } from 'zod';
import { describeFields } from '../../lib/record/field.js';
import { codeOf, OFFICE_STATUS_LABEL, OfficeAccountStatus } from '../devices/device.enums.js';
import { contains, text } from '../devices/device.fields.js';

/** What the status's facets read of an Office account's view. */
type WithStatus = { status: OfficeAccountStatus; statusLabel: string };

/**
 * A Microsoft Office account, field by field (see COMPUTER_FIELDS). Its usage count and row colour
 * are counted from the computers, never written: they are the view's, not fields.
 */
export const OFFICE_ACCOUNT_FIELDS = describeFields({
  account: {
    ...text('アカウント', 254, { width: 36, event: true, filter: contains('アカウントの部分一致') }),
    rule: text('アカウント', 254).rule.regex(/^\S*$/, 'アカウントに空白は使えません。'),
    // Unique regardless of case (index office_account_account_key on lower(account)).
  },
  status: {
    codec: 'enum',
    sqlType: 'office_account_status',
    label: '状態',
    nullable: false,
    event: true,
    empty: OfficeAccountStatus.IN_USE,
    rule: z.enum(OfficeAccountStatus, { error: '状態は 使用中・停止 から選んでください。' }),
    body: { from: 'status', read: (v: unknown) => codeOf(OFFICE_STATUS_LABEL, v) },
    api: (a: WithStatus) => ({ status: a.statusLabel, status_code: a.status }),
    columns: [{ header: '状態', width: 10, value: (a: WithStatus) => a.statusLabel }],
  },
});
