import type { AppContext } from '../../platform/context.js';
import { checkId } from '../../platform/validation.js';
import { requireUser } from '../../platform/authz.js';
import { badInput, notFound } from '../../platform/errors.js';
import { DEVICE_ROLES } from '../employees/employee.enums.js';
import {
  OFFICE_STATUS_LABEL,
  OFFICE_USAGE_LIMIT,
  OfficeAccountStatus,
  OfficeRowColor,
  OfficeRowReason,
} from '../devices/device.enums.js';
import type { XlsxExport } from '../../platform/xlsx-export.js';
import { fetchAll, fetchPage, fromOf, Where, type ListSql } from '../../platform/list-query.js';
import { selectList } from '../../lib/record/sql.js';
import { exportColumns, fieldWhere } from '../devices/device.record.js';
import { OFFICE_ACCOUNT_FIELDS } from './office-account.fields.js';
import type { OfficeAccountFilter, OfficeAccountPage, OfficeAccountView } from './office-account.types.js';

interface Row {
  id: number;
  account: string;
  status: OfficeAccountStatus;
  version: number;
  updated_at: string;
  usage_count: number;
  unusable_count: number;
  replace_count: number;
}

/** Usage is counted from the computers, never typed in: one lateral aggregate per row, no N+1. */
const Q: ListSql = {
  alias: 'oa',
  select: `oa.id, ${selectList('oa', OFFICE_ACCOUNT_FIELDS)}, oa.status, oa.version, oa.updated_at, u.usage_count, u.unusable_count, u.replace_count`,
  table: 'office_account oa',
  joins: `cross join lateral (
      select count(*)::int as usage_count,
             count(*) filter (where c.status in ('BROKEN', 'DISCARDED', 'DISPOSED', 'LOST'))::int as unusable_count,
             count(*) filter (where c.status = 'REPLACE')::int as replace_count
        from computer c where c.office_account_id = oa.id) u`,
};

/**
 * Row colour of the Office list (spec section 9, the spec's `usage_status`).
 * The spec's rule names statuses an Office account does not have: an account is only 使用中 or
 * 停止, while 交換対象 / 故障 / 廃棄 / 処分済み / 紛失 are computer statuses. We read them as the
 * statuses of the computers tied to the account, and add the one case the account's own status
 * makes wrong:
 *   RED  – more than 5 computers; or a tied computer is 故障, 廃棄, 処分済み or 紛失 (the licence
 *          sits on a machine nobody can use); or the account is 停止 while computers still use it.
 *   BLUE – exactly 5 computers (the limit is reached); or a tied computer is 交換対象.
 *   none – everything else. RED wins over BLUE.
 */
/** Each reason's colour and Japanese text (the screens word it in English by its code). */
const REASONS: Record<OfficeRowReason, { color: OfficeRowColor; text: string }> = {
  OVER_LIMIT: { color: OfficeRowColor.RED, text: `使用台数が上限（${OFFICE_USAGE_LIMIT}台）を超えています。` },
  UNUSABLE_COMPUTER: { color: OfficeRowColor.RED, text: '故障・廃棄・処分済み・紛失のパソコンに紐付いています。' },
  SUSPENDED_IN_USE: { color: OfficeRowColor.RED, text: '停止中のアカウントがパソコンに紐付いています。' },
  AT_LIMIT: { color: OfficeRowColor.BLUE, text: `使用台数が上限（${OFFICE_USAGE_LIMIT}台）に達しています。` },
  REPLACE_COMPUTER: { color: OfficeRowColor.BLUE, text: '交換対象のパソコンに紐付いています。' },
};

export function officeRowColor(r: Pick<Row, 'status' | 'usage_count' | 'unusable_count' | 'replace_count'>): {
  color: OfficeRowColor | null;
  code: OfficeRowReason | null;
  reason: string | null;
} {
  const code =
    r.usage_count > OFFICE_USAGE_LIMIT
      ? OfficeRowReason.OVER_LIMIT
      : r.unusable_count > 0
        ? OfficeRowReason.UNUSABLE_COMPUTER
        : r.status === OfficeAccountStatus.SUSPENDED && r.usage_count > 0
          ? OfficeRowReason.SUSPENDED_IN_USE
          : r.usage_count === OFFICE_USAGE_LIMIT
            ? OfficeRowReason.AT_LIMIT
            : r.replace_count > 0
              ? OfficeRowReason.REPLACE_COMPUTER
              : null;
  return code
    ? { color: REASONS[code].color, code, reason: REASONS[code].text }
    : { color: null, code: null, reason: null };
}

function view(r: Row): OfficeAccountView {
  const { color, code, reason } = officeRowColor(r);
  return {
    id: r.id,
    account: r.account,
    status: r.status,
    statusLabel: OFFICE_STATUS_LABEL[r.status],
    usageCount: r.usage_count,
    rowColor: color,
    rowColorReason: reason,
    rowColorReasonCode: code,
    version: r.version,
    updatedAt: new Date(r.updated_at),
  };
}

/** Besides the screen's filters: accounts tied to one holder's computers, or to given computers. */
export interface OfficeAccountQuery extends Partial<OfficeAccountFilter> {
  heldByEmployeeId?: number;
  computerIds?: number[];
}

function where(f: OfficeAccountQuery): Where {
  const w = fieldWhere(new Where(), 'oa', OFFICE_ACCOUNT_FIELDS, f);
  if (f.status) {
    if (!Object.values(OfficeAccountStatus).includes(f.status))
      throw badInput('状態の指定が正しくありません。', [{ field: 'status', message: '使用中 / 停止' }]);
    w.add('oa.status = ?', f.status);
  }
  if (f.heldByEmployeeId !== undefined)
    w.add(
      `exists (select 1 from computer h where h.office_account_id = oa.id and h.current_user_id = ?)`,
      f.heldByEmployeeId,
    );
  if (f.computerIds)
    w.add(
      `exists (select 1 from computer h where h.office_account_id = oa.id and h.id = any(?::int[]))`,
      `{${f.computerIds.join(',')}}`,
    );
  return w;
}

/** Microsoft Office accounts: read by 管理者, デバイス管理者, システム管理者 only. */
export class OfficeAccountService {
  async list(
    ctx: AppContext,
    filter: OfficeAccountQuery,
    offset?: unknown,
    limit?: unknown,
  ): Promise<OfficeAccountPage> {
    requireUser(ctx, DEVICE_ROLES);
    const page = await fetchPage<Row>(ctx.em, Q, where(filter), offset, limit);
    return { ...page, items: page.rows.map(view) };
  }

  async get(ctx: AppContext, id: number): Promise<OfficeAccountView> {
    requireUser(ctx, DEVICE_ROLES);
    checkId(id, 'Microsoft Office アカウント');
    const rows: Row[] = await ctx.em.execute(`select ${Q.select} ${fromOf(Q)} where oa.id = ?`, [id]);
    if (!rows[0]) throw notFound('Microsoft Office アカウント');
    return view(rows[0]);
  }

  async *all(ctx: AppContext, filter: OfficeAccountQuery): AsyncGenerator<OfficeAccountView> {
    requireUser(ctx, DEVICE_ROLES);
    for await (const r of fetchAll<Row>(ctx.em, Q, where(filter))) yield view(r);
  }

  async export(ctx: AppContext, filter: OfficeAccountQuery): Promise<XlsxExport<OfficeAccountView>> {
    requireUser(ctx, DEVICE_ROLES);
    where(filter);
    const colour = { BLUE: '青（上限・交換対象）', RED: '赤（超過・要対応）' };
    return {
      title: 'Microsoft Office アカウント一覧',
      asciiTitle: 'microsoft_office',
      rows: this.all(ctx, filter),
      columns: [
        ...exportColumns<OfficeAccountView>(OFFICE_ACCOUNT_FIELDS),
        { header: '使用台数', width: 10, value: (a) => a.usageCount },
        { header: '使用状況', width: 20, value: (a) => (a.rowColor ? colour[a.rowColor] : null) },
        { header: '備考', width: 44, value: (a) => a.rowColorReason },
      ],
    };
  }
}
