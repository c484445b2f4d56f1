import type { AppContext } from '../../platform/context.js';
import { requireUser } from '../../platform/authz.js';
import { notFound } from '../../platform/errors.js';
import { checkId } from '../../platform/validation.js';
import { compileCopy } from '../../lib/record/compile.js';
import { ownColumns, type ColumnsOf } from '../../lib/record/field.js';
import { selectList } from '../../lib/record/sql.js';
import { DEVICE_ROLES } from '../employees/employee.enums.js';
import { COMPUTER_COLUMNS } from './computer.columns.js';
import { COMPUTER_STATUSES } from '../devices/device.enums.js';
import type { XlsxExport } from '../../platform/xlsx-export.js';
import { fetchAll, fetchPage, fromOf, type ListSql } from '../../platform/list-query.js';
import { heldJoins, heldSelect, heldView, heldWhere, type HeldQuery, type HeldRow } from '../devices/device.queries.js';
import { fieldWhere } from '../devices/device.record.js';
import { COMPUTER_FIELDS } from './computer.fields.js';
import type { ComputerFilter, ComputerPage, ComputerView } from './computer.types.js';

/** A row of the list's SQL: the held-device columns, the computer's own columns under their keys, the Office account. */
type Row = HeldRow &
  ColumnsOf<typeof COMPUTER_FIELDS> & { office_account_id: number | null; office_account: string | null };

type Query = Partial<ComputerFilter> & HeldQuery;

const Q: ListSql = {
  alias: 'c',
  select: `${heldSelect('c')}, ${selectList('c', COMPUTER_FIELDS)}, c.office_account_id, oa.account as office_account`,
  table: 'computer c',
  joins: `${heldJoins('c')} left join office_account oa on oa.id = c.office_account_id`,
};

// Field by field onto the held-device view, not `{ ...heldView(r), … }`: a spread followed by a
// dozen fields is a slow path in V8 (tens of µs per object; measured in bench/computers).
const ownColumnsOf = compileCopy(ownColumns(COMPUTER_FIELDS).map((f) => f.key));

function view(r: Row): ComputerView {
  const c = ownColumnsOf(heldView(r), r) as unknown as ComputerView;
  c.officeAccount = r.office_account_id !== null ? { id: r.office_account_id, account: r.office_account! } : null;
  return c;
}

const where = (f: Query) => fieldWhere(heldWhere('c', f, COMPUTER_STATUSES), 'c', COMPUTER_FIELDS, f);

/** Computers: read by 管理者, デバイス管理者, システム管理者 only. */
export class ComputerService {
  async list(ctx: AppContext, filter: Query, offset?: unknown, limit?: unknown): Promise<ComputerPage> {
    requireUser(ctx, DEVICE_ROLES);
    const page = await fetchPage<Row>(ctx.em, Q, where(filter), offset, limit);
    return { ...page, items: page.rows.map(view) };
  }

  async get(ctx: AppContext, id: number): Promise<ComputerView> {
    requireUser(ctx, DEVICE_ROLES);
    checkId(id, 'パソコン');
    const rows: Row[] = await ctx.em.execute(`select ${Q.select} ${fromOf(Q)} where c.id = ?`, [id]);
    if (!rows[0]) throw notFound('パソコン');
    return view(rows[0]);
  }

  /** Every computer matching the filter (any status when `showDiscarded`), for exports and offboarding. */
  async *all(ctx: AppContext, filter: Query): AsyncGenerator<ComputerView> {
    requireUser(ctx, DEVICE_ROLES);
    for await (const r of fetchAll<Row>(ctx.em, Q, where(filter))) yield view(r);
  }

  /** The filtered list as a spreadsheet. PIN codes and passwords are never exported. */
  async export(ctx: AppContext, filter: Query): Promise<XlsxExport<ComputerView>> {
    requireUser(ctx, DEVICE_ROLES);
    where(filter); // bad filters fail here, before any byte is sent
    return {
      title: 'パソコン一覧',
      asciiTitle: 'computers',
      rows: this.all(ctx, filter),
      columns: COMPUTER_COLUMNS,
    };
  }
}
