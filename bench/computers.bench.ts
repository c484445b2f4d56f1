/**
 * The computers list (one page of the /computers page's ComputersList query, 50 rows, with the
 * maker text, department and status filters on and showDiscarded false) through the full stack
 * against a bare handler with the same SQL (bench/lib/compare.ts: both servers, identical answers,
 * open-loop rate search, common rate).
 *
 * One embedded PostgreSQL (temp dir): the demo company plus bench employees up to 2,000 (a tenth
 * retired) as holders, 8,000 Microsoft Office accounts and 20,000 computers (ten makers, every
 * department and location, every status, previous users, Office accounts on 40 %), set-based.
 * The viewer is the demo device admin. Requests: every maker term × department × (any status that
 * is not discarded | 正常 only), first page; a few second pages.
 * Target: at the common rate, the full stack's p50 and p99 ≤ 1.5 × the bare handler's, p99 < 50 ms.
 *
 * Flags: --computers=20000 --employees=2000 --target=1.5, and those of lib/compare.ts.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { numArg, type Bench } from './lib/bench.js';
import { compareFullBare } from './lib/compare.js';
import { addEmployees, startBenchDatabase, withClient } from './lib/database.js';
import { REPO_ROOT } from './lib/procs.js';

/** The web app's ComputersList document (web/src/features/devices/operations.ts) with HolderFields inlined. */
export const COMPUTERS_QUERY = `query ComputersList($filter: ComputerFilter, $offset: Int!, $limit: Int!) {
  computers(filter: $filter, offset: $offset, limit: $limit) {
    total offset limit
    items {
      id maker deviceType model status statusLabel introductionDate isBroken isDiscarded currentUserRetired
      currentUser { ...HolderFields }
      department { refId: id name }
      location { refId: id name }
      officeAccount { id account }
    }
  }
}
fragment HolderFields on DeviceHolder { id name retired statusLabel }`;

const MAKERS = ['Dell', 'HP', 'Lenovo', 'Apple', '富士通', 'NEC', 'Panasonic', 'VAIO', 'Microsoft', 'ASUS'];
/** What people type in the maker box: part of the name, any case. */
const MAKER_TERMS = ['dell', 'hp', 'leno', 'apple', '富士通', 'nec', 'panas', 'vaio', 'micro', 'asus'];
const PAGE = 50;

export async function prepareComputers(url: string, employees: number, computers: number) {
  return withClient(url, async (c) => {
    const have = (await c.query<{ n: number }>('select count(*)::int as n from employee')).rows[0].n;
    await addEmployees(c, have + 1, employees, { retiredEvery: 10 });
    await c.query(
      `insert into office_account (account, status)
       select 'pc' || g || '@contoso.co.jp', (case when g % 11 = 0 then 'SUSPENDED' else 'IN_USE' end)::office_account_status
         from generate_series(1, $1::int) g`,
      [Math.round(computers * 0.4)],
    );
    await c.query(
      `with e as (select array_agg(id order by id) as ids, count(*)::int as n from employee),
            d as (select array_agg(id order by id) as ids from department),
            l as (select array_agg(id order by id) as ids from location),
            oa as (select array_agg(id order by id) as ids, count(*)::int as n from office_account)
       insert into computer (maker, device_type, model, current_user_id, previous_user_id, location_id, department_id, status,
                             reason, purchase_date, introduction_date, office_account_id, pin_code, pass, ac_adapter, power_cable)
       select ($2::text[])[1 + g % 10],
              (array['ノートPC','デスクトップ','タブレット'])[1 + g % 3],
              'MODEL-' || (g % 97) || '-' || (g % 13),
              case when g % 9 = 0 then null else e.ids[1 + (g * 7) % e.n] end,
              case when g % 4 = 0 then e.ids[1 + (g * 13) % e.n] end,
              case when g % 29 = 0 then null else l.ids[1 + (g / 10) % array_length(l.ids, 1)] end,
              case when g % 31 = 0 then null else d.ids[1 + (g / 10 + g) % array_length(d.ids, 1)] end,
              (case g % 20 when 0 then 'BROKEN' when 1 then 'DISCARDED' when 2 then 'DISPOSED' when 3 then 'REPLACE' when 4 then 'LOST' else 'NORMAL' end)::device_status,
              case when g % 20 < 5 then '入れ替え予定 ' || g end,
              date '2018-04-01' + (g % 2500), date '2018-04-15' + (g % 2500),
              case when g % 5 < 2 then oa.ids[1 + (g / 5 * 2 + g % 5) % oa.n] end,
              case when g % 2 = 0 then lpad((g % 10000)::text, 4, '0') end, 'pw-' || g,
              case when g % 3 = 0 then 'あり' else 'なし' end, case when g % 4 = 0 then 'あり' end
         from generate_series(1, $1::int) g, e, d, l, oa`,
      [computers, MAKERS],
    );
    const departmentIds = (await c.query<{ id: number }>('select id from department order by id')).rows.map(
      (r) => r.id,
    );
    const counts = (
      await c.query<{ computers: number; shown: number; employees: number; accounts: number }>(
        `select count(*)::int as computers, count(*) filter (where status not in ('DISCARDED','DISPOSED'))::int as shown,
                (select count(*)::int from employee) as employees, (select count(*)::int from office_account) as accounts
           from computer`,
      )
    ).rows[0];
    return { ...counts, departmentIds };
  });
}

const bench: Bench = {
  description:
    'Computers list page (20,000 computers, filters on): full stack vs a bare node:http + pg handler with the same SQL',
  async run({ args, log }) {
    const computers = numArg(args, 'computers', 20000);
    const employees = numArg(args, 'employees', 2000);
    const t0 = performance.now();
    const db = await startBenchDatabase();
    const data = await prepareComputers(db.url, employees, computers);
    log(
      `database: ${data.computers} computers (${data.shown} not discarded), ${data.employees} employees, ${data.accounts} Office accounts, ` +
        `${data.departmentIds.length} departments, prepared in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const body = (maker: string, departmentId: number, status: string | null, offset = 0) => ({
      query: COMPUTERS_QUERY,
      variables: { filter: { maker, departmentId, status, showDiscarded: false }, offset, limit: PAGE },
    });
    const bodies = MAKER_TERMS.flatMap((m) =>
      data.departmentIds.flatMap((d) => [body(m, d, null), body(m, d, 'NORMAL')]),
    );
    bodies.push(
      ...MAKER_TERMS.slice(0, 5).map((m, i) => body(m, data.departmentIds[i % data.departmentIds.length], null, PAGE)),
    );
    return compareFullBare({
      name: 'computers',
      args,
      log,
      db,
      bareFile: path.join(REPO_ROOT, 'bench/computers/bare-server.ts'),
      bareLabel: 'bare handler (node:http + pg, same SQL)',
      fullTimings: 'devices.computers.list=computersList',
      loginId: 'devadmin',
      bodies,
      check: [
        ...bodies.filter((_, i) => i % 7 === 0),
        body('dell', data.departmentIds[0], null, 100_000),
        body('zzz', data.departmentIds[0], null),
      ],
      okPrefix: '{"data":{"computers":{"total":',
      setup: { ...data, pageSize: PAGE, requests: bodies.length, query: COMPUTERS_QUERY },
      verdict: { kind: 'latency', max: numArg(args, 'target', 1.5) },
      defaults: { start: 10, rounds: 3, rate: 50, common: 10 },
    });
  },
};

export default bench;
