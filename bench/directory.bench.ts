/**
 * The staff directory through the full stack against a bare handler, in the same run
 * (bench/lib/compare.ts: both servers, identical answers, open-loop rate search, common rate).
 *
 * One embedded PostgreSQL (temp dir) with the demo company plus bench employees up to 5,000.
 * The bare handler (bench/directory/bare-server.ts) answers from one hand-written SQL, a copy of
 * EmployeeService.list's. Target: the full stack's highest rate with p99 < 50 ms ≥ 0.6 × bare's.
 *
 * Flags: --employees=5000 --target=0.6, and those of lib/compare.ts (--pool --step-seconds --start
 *        --bisections --max-rate --p99 --common-rate --rounds --sockets --profile [--rate --seconds]).
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { numArg, type Bench } from './lib/bench.js';
import { compareFullBare } from './lib/compare.js';
import { addEmployees, startBenchDatabase, withClient } from './lib/database.js';
import { REPO_ROOT } from './lib/procs.js';

export const DIRECTORY_QUERY =
  'query Directory($offset:Int!,$limit:Int!){ employees(offset:$offset, limit:$limit, filter:{includeRetired:false}) { total items { id name email roleLabel statusLabel department { id name } location { id name } } } }';
const PAGE = 50;

const bench: Bench = {
  description: 'Staff directory page: full stack (Apollo + type-graphql + MikroORM) vs a bare node:http + pg handler',
  async run({ args, log }) {
    const employees = numArg(args, 'employees', 5000);
    const t0 = performance.now();
    const db = await startBenchDatabase();
    const counts = await withClient(db.url, async (c) => {
      const have = (await c.query<{ n: number }>('select count(*)::int as n from employee')).rows[0].n;
      await addEmployees(c, have + 1, employees, { retiredEvery: 10 });
      return (
        await c.query<{ total: number; active: number }>(
          `select count(*)::int as total, count(*) filter (where status = 'ACTIVE')::int as active from employee`,
        )
      ).rows[0];
    });
    log(
      `database: ${counts.total} employees (${counts.active} active), prepared in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const pages = Math.ceil(counts.active / PAGE);
    const body = (offset: number) => ({ query: DIRECTORY_QUERY, variables: { offset, limit: PAGE } });
    return compareFullBare({
      name: 'directory',
      args,
      log,
      db,
      bareFile: path.join(REPO_ROOT, 'bench/directory/bare-server.ts'),
      bareLabel: 'bare handler (node:http + pg, one SQL)',
      fullTimings: 'employees.list=employeesList',
      loginId: 'admin',
      bodies: Array.from({ length: pages }, (_, i) => body(i * PAGE)),
      check: [0, PAGE * Math.floor(pages / 2), PAGE * (pages - 1), PAGE * (pages + 3)].map(body),
      okPrefix: '{"data":{"employees":{"total":',
      setup: { employees: counts.total, active: counts.active, pageSize: PAGE, pages, query: DIRECTORY_QUERY },
      verdict: { kind: 'throughput', min: numArg(args, 'target', 0.6) },
      defaults: { start: 50 },
    });
  },
};

export default bench;
