import type { AppContext } from '../../platform/context.js';
import { requireUser } from '../../platform/authz.js';
import { notFound } from '../../platform/errors.js';
import { checkId, checkSearchText } from '../../platform/validation.js';
import { compileCopy } from '../../lib/record/compile.js';
import { ownColumns, type ColumnsOf } from '../../lib/record/field.js';
import { selectList } from '../../lib/record/sql.js';
import { DEVICE_ROLES } from '../employees/employee.enums.js';
import { SMARTPHONE_STATUSES } from '../devices/device.enums.js';
import type { XlsxExport } from '../../platform/xlsx-export.js';
import { fetchAll, fetchPage, fromOf, type ListSql } from '../../platform/list-query.js';
import { heldJoins, heldSelect, heldView, heldWhere, type HeldQuery, type HeldRow } from '../devices/device.queries.js';
import { exportColumns, fieldWhere } from '../devices/device.record.js';
import { SMARTPHONE_FIELDS } from './smartphone.fields.js';
import type { SmartphoneFilter, SmartphonePage, SmartphoneView } from './smartphone.types.js';

/** A row of the list's SQL: the held-device columns and the smartphone's own columns under their keys. */
type Row = HeldRow & ColumnsOf<typeof SMARTPHONE_FIELDS>;

type Query = Partial<SmartphoneFilter> & HeldQuery;

const Q: ListSql = {
  alias: 's',
  select: `${heldSelect('s')}, ${selectList('s', SMARTPHONE_FIELDS)}`,
  table: 'smartphone s',
  joins: heldJoins('s'),
};

const COLUMNS = exportColumns<SmartphoneView>(SMARTPHONE_FIELDS);

// Field by field onto the held-device view, not `{ ...heldView(r), … }` (see computer.service.ts).
const ownColumnsOf = compileCopy(ownColumns(SMARTPHONE_FIELDS).map((f) => f.key));
const view = (r: Row): SmartphoneView => ownColumnsOf(heldView(r), r) as unknown as SmartphoneView;

/** Phone numbers match with or without hyphens: "09012345678" finds "090-1234-5678". */
function where(f: Query) {
  const w = fieldWhere(heldWhere('s', f, SMARTPHONE_STATUSES), 's', SMARTPHONE_FIELDS, f);
  checkSearchText(f.phoneNumber, 'phoneNumber', '電話番号'); // before it is reduced to its digits
  const digits = f.phoneNumber?.replace(/[^0-9+]/g, '');
  return digits
    ? w.contains(`regexp_replace(s.phone_number, '[^0-9+]', '', 'g')`, digits, 'phoneNumber', '電話番号')
    : w.contains('s.phone_number', f.phoneNumber, 'phoneNumber', '電話番号');
}

/** Smartphones: read by 管理者, デバイス管理者, システム管理者 only. */
export class SmartphoneService {
  async list(ctx: AppContext, filter: Query, offset?: unknown, limit?: unknown): Promise<SmartphonePage> {
    requireUser(ctx, DEVICE_ROLES);
    const page = await fetchPage<Row>(ctx.em, Q, where(filter), offset, limit);
    return { ...page, items: page.rows.map(view) };
  }

  async get(ctx: AppContext, id: number): Promise<SmartphoneView> {
    requireUser(ctx, DEVICE_ROLES);
    checkId(id, 'スマートフォン');
    const rows: Row[] = await ctx.em.execute(`select ${Q.select} ${fromOf(Q)} where s.id = ?`, [id]);
    if (!rows[0]) throw notFound('スマートフォン');
    return view(rows[0]);
  }

  async *all(ctx: AppContext, filter: Query): AsyncGenerator<SmartphoneView> {
    requireUser(ctx, DEVICE_ROLES);
    for await (const r of fetchAll<Row>(ctx.em, Q, where(filter))) yield view(r);
  }

  /** The filtered list as a spreadsheet (PIN/passwords are never exported). */
  async export(ctx: AppContext, filter: Query): Promise<XlsxExport<SmartphoneView>> {
    requireUser(ctx, DEVICE_ROLES);
    where(filter);
    return {
      title: 'スマートフォン一覧',
      asciiTitle: 'smartphones',
      rows: this.all(ctx, filter),
      columns: COLUMNS,
    };
  }
}
