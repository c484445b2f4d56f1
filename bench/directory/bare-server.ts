/**
 * Bench child: the directory's bare baseline (bench/lib/bare.ts: node:http + pg, the same session
 * lookup), answering the directory query with the same JSON from one hand-written SQL.
 */
import { bareCheckPage, serveBare } from '../lib/bare.js';

// The same labels as graph/src/modules/employees/employee.enums.ts (the run checks the answers match).
const ROLE_LABEL: Record<string, string> = {
  ADMIN: '管理者',
  DEVICE_ADMIN: 'デバイス管理者',
  SYSTEM_ADMIN: 'システム管理者',
  GENERAL: '一般',
};
const STATUS_LABEL: Record<string, string> = { ACTIVE: '在籍', RETIRED: '退職' };

// The same SQL shape as EmployeeService.list: page by index order, join names onto the page, count apart.
const PAGE_SQL = `with page as (select e.id from employee e where e.status = 'ACTIVE' order by e.id limit $1 offset $2)
  select e.id, e.name, e.email, e.role, e.status, e.department_id, d.name as department_name,
         e.location_id, l.name as location_name, (select count(*) from employee e where e.status = 'ACTIVE') as total
    from page p join employee e on e.id = p.id
    left join department d on d.id = e.department_id left join location l on l.id = e.location_id
   order by e.id`;
const COUNT_SQL = `select count(*) as total from employee e where e.status = 'ACTIVE'`;

await serveBare('pageQuery', async (pool, _user, variables) => {
  const { offset, limit } = bareCheckPage(variables.offset, variables.limit);
  const { rows } = await pool.query(PAGE_SQL, [limit, offset]);
  let total = rows.length ? Number(rows[0].total) : 0;
  if (!rows.length && offset > 0) total = Number((await pool.query(COUNT_SQL)).rows[0].total);
  const items = rows.map((r) => ({
    id: r.id,
    name: r.name,
    email: r.email,
    roleLabel: ROLE_LABEL[r.role],
    statusLabel: STATUS_LABEL[r.status],
    department: r.department_id != null ? { id: r.department_id, name: r.department_name } : null,
    location: r.location_id != null ? { id: r.location_id, name: r.location_name } : null,
  }));
  return JSON.stringify({ data: { employees: { total, items } } });
});
