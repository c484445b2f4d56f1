/**
 * `npm run bench -- search --explain`: the service's statements (searchPage) timed alone for
 * each query of the bench, as the viewer, five times each, without the HTTP stack; then each
 * statement of the last run under EXPLAIN (ANALYZE, BUFFERS): its execution time, the shared
 * buffers it touched and its shape (the bounded counts, the index path, a window of the walk).
 */
import { openOrm, execBound } from '@intranet/graph';
import { EmployeeRole, readableSql, searchPage, type RunSql, normalizeText, queryTerms } from '@intranet/graph/areas';
import { QUERIES } from './data.js';

interface Plan {
  'Planning Time': number;
  'Execution Time': number;
  Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number };
}

const shapeOf = (sql: string) =>
  sql.startsWith('select (select count') ? 'counts' : sql.includes('row_number() over w') ? 'walk' : 'index path';

export async function explainSearch(
  url: string,
  viewerId: number,
  readable: number[],
  today: string,
  log: (line: string) => void,
) {
  const orm = await openOrm(url, 2);
  const out: {
    query: string;
    ms: number[];
    hits: number;
    statements: { shape: string; ms: number; planMs: number; buffers: number }[];
  }[] = [];
  try {
    const viewer = {
      id: viewerId,
      readable,
      rule: readableSql({ id: viewerId, role: EmployeeRole.GENERAL }, { readable }, today),
    };
    for (const raw of QUERIES) {
      const terms = queryTerms(normalizeText(raw));
      const times: number[] = [];
      let hits = 0;
      let ran: { sql: string; params: unknown[] }[] = [];
      for (let i = 0; i < 5; i++) {
        const em = orm.em.fork();
        ran = [];
        const run: RunSql = (sql, params) => {
          ran.push({ sql, params });
          return execBound(em, sql, params);
        };
        const t0 = performance.now();
        hits = (await searchPage(run, viewer, terms, null, 20)).hits.length;
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      const statements: { shape: string; ms: number; planMs: number; buffers: number }[] = [];
      for (const s of ran) {
        const [row] = await execBound<{ 'QUERY PLAN': Plan[] }>(
          orm.em.fork(),
          `explain (analyze, buffers, format json) ${s.sql}`,
          s.params,
        );
        const plan = row!['QUERY PLAN'][0]!;
        statements.push({
          shape: shapeOf(s.sql),
          ms: plan['Execution Time'],
          planMs: plan['Planning Time'],
          buffers: plan.Plan['Shared Hit Blocks'] + plan.Plan['Shared Read Blocks'],
        });
      }
      const total = statements.reduce((a, s) => a + s.ms, 0);
      log(
        `「${raw}」 ${hits} hits on the first page; searchPage ${times.map((t) => t.toFixed(1)).join(' / ')} ms (5 runs, sorted); ` +
          `EXPLAIN ANALYZE ${total.toFixed(1)} ms in ${statements.length}: ${statements.map((s) => `${s.shape} ${s.ms.toFixed(1)} ms (planned in ${s.planMs.toFixed(1)}) ${s.buffers} buf`).join(', ')}`,
      );
      out.push({ query: raw, ms: times, hits, statements });
    }
  } finally {
    await orm.close();
  }
  return out;
}
