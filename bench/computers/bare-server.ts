/**
 * Bench child: the computers list's bare baseline (bench/lib/bare.ts: node:http + pg, the same
 * session lookup and role check), answering the /computers page's ComputersList query with the same
 * JSON from the same SQL as ComputerService.list (fetchPage in graph/src/modules/devices/device.queries.ts).
 */
import pg from 'pg';
import { BareError, bareCheckPage, serveBare } from '../lib/bare.js';

pg.types.setTypeParser(1082, (v: string) => v); // date as YYYY-MM-DD text, as the platform's driver returns it

// The same labels as device.enums.ts / employee.enums.ts (the run checks the answers match).
const DEVICE_STATUS_LABEL: Record<string, string> = {
  NORMAL: '正常',
  REPLACE: '交換対象',
  BROKEN: '故障',
  DISCARDED: '廃棄',
  LOST: '紛失',
  DISPOSED: '処分済み',
};
const STATUS_LABEL: Record<string, string> = { ACTIVE: '在籍', RETIRED: '退職' };
const DISCARDED = ['DISCARDED', 'DISPOSED'];
const DEVICE_ROLES = ['ADMIN', 'DEVICE_ADMIN', 'SYSTEM_ADMIN'];

// Copies of ComputerService's list SQL (fetchPage: filter + count(*) over() + page on the table, then the joins; select list, where);
// keep them the same, or the ratio measures SQL instead of the stack.
const SELECT = `c.id, c.current_user_id, cu.name as current_user_name, cu.status as current_user_status,
   c.previous_user_id, pu.name as previous_user_name, pu.status as previous_user_status,
   c.location_id, l.name as location_name, c.department_id, d.name as department_name,
   c.status, c.version, c.updated_at, c.asset_number, c.maker, c.device_type, c.model, c.reason, c.purchase_date, c.introduction_date,
           c.office_account_id, oa.account as office_account, c.pin_code, c.pass, c.ac_adapter, c.power_cable`;
const JOINS = `left join employee cu on cu.id = c.current_user_id
   left join employee pu on pu.id = c.previous_user_id
   left join location l on l.id = c.location_id
   left join department d on d.id = c.department_id left join office_account oa on oa.id = c.office_account_id`;

const positive = (v: unknown, field: string) => {
  if (v === undefined || v === null) return null;
  if (!Number.isInteger(v) || (v as number) < 1) throw new BareError(`${field} が正しくありません。`, 'BAD_USER_INPUT');
  return v as number;
};

await serveBare('computersList', async (pool, user, v) => {
  if (!DEVICE_ROLES.includes(user.role)) throw new BareError('この操作の権限がありません。', 'FORBIDDEN');
  const f = (v.filter ?? {}) as Record<string, unknown>;
  const parts: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, p: unknown) => (params.push(p), parts.push(sql.replace('?', `$${params.length}`)));
  for (const [col, key] of [
    ['c.department_id', 'departmentId'],
    ['c.location_id', 'locationId'],
    ['c.current_user_id', 'currentUserId'],
  ] as const) {
    const id = positive(f[key], key);
    if (id !== null) add(`${col} = ?`, id);
  }
  if (f.status) {
    if (!DEVICE_STATUS_LABEL[String(f.status)]) throw new BareError('状態の指定が正しくありません。', 'BAD_USER_INPUT');
    add('c.status = ?', f.status);
  } else if (!f.showDiscarded) add('c.status <> all(?::device_status[])', `{${DISCARDED.join(',')}}`);
  const maker = typeof f.maker === 'string' ? f.maker.trim() : '';
  if (maker.length > 100) throw new BareError('メーカーの検索語は100文字以内で入力してください。', 'BAD_USER_INPUT');
  if (maker) add('c.maker ilike ?', `%${maker.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const oa = positive(f.officeAccountId, 'officeAccountId');
  if (oa !== null) add('c.office_account_id = ?', oa);
  const where = parts.length ? `where ${parts.join(' and ')}` : '';
  const page = bareCheckPage(v.offset, v.limit);
  const n = params.length;
  const { rows } = await pool.query(
    `select ${SELECT}, p.total
       from (select c.id, count(*) over() as total from computer c ${where} order by c.id limit $${n + 1} offset $${n + 2}) p
       join computer c on c.id = p.id ${JOINS}
      order by c.id`,
    [...params, page.limit, page.offset],
  );
  let total = rows.length ? Number(rows[0].total) : 0;
  if (!rows.length && page.offset > 0)
    total = Number((await pool.query(`select count(*) as total from computer c ${where}`, params)).rows[0].total);
  const items = rows.map((r) => {
    const cu =
      r.current_user_id !== null && r.current_user_name !== null
        ? {
            id: r.current_user_id,
            name: r.current_user_name,
            retired: r.current_user_status === 'RETIRED',
            statusLabel: STATUS_LABEL[r.current_user_status],
          }
        : null;
    return {
      id: r.id,
      maker: r.maker,
      deviceType: r.device_type,
      model: r.model,
      status: r.status,
      statusLabel: DEVICE_STATUS_LABEL[r.status],
      introductionDate: r.introduction_date,
      isBroken: r.status === 'BROKEN',
      isDiscarded: DISCARDED.includes(r.status),
      currentUserRetired: cu?.retired ?? false,
      currentUser: cu,
      department:
        r.department_id !== null && r.department_name !== null
          ? { refId: r.department_id, name: r.department_name }
          : null,
      location:
        r.location_id !== null && r.location_name !== null ? { refId: r.location_id, name: r.location_name } : null,
      officeAccount: r.office_account_id !== null ? { id: r.office_account_id, account: r.office_account } : null,
    };
  });
  return JSON.stringify({ data: { computers: { total, offset: page.offset, limit: page.limit, items } } });
});
