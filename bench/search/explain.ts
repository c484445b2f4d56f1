/**
 * `npm run bench -- search --explain`: the service's statements (searchPage) timed alone for
 * each query of the bench, as the viewer, five times each, without the HTTP stack: how long the
 * two paths (the dense walk over the newest posts, the n-gram index) take at full scale.
 */
import { openOrm } from '../../graph/src/db/orm.js';
import { execBound } from '../../graph/src/platform/sql.js';
import { EmployeeRole } from '../../graph/src/modules/employees/employee.enums.js';
import { readableSql } from '../../graph/src/modules/blog/blog-post.visibility.js';
import { searchPage } from '../../graph/src/modules/blog/search/blog-search.query.js';
import { normalizeText } from '../../graph/src/modules/blog/search/blog-search.text.js';
import { QUERIES } from './data.js';

export async function explainSearch(url: string, viewerId: number, readable: number[], today: string, log: (line: string) => void) {
  const orm = await openOrm(url, 2);
  const out: { query: string; ms: number[]; hits: number }[] = [];
  try {
    const viewer = { id: viewerId, readable, rule: readableSql({ id: viewerId, role: EmployeeRole.GENERAL }, { readable }, today) };
    for (const raw of QUERIES) {
      const q = normalizeText(raw);
      const times: number[] = [];
      let hits = 0;
      for (let i = 0; i < 5; i++) {
        const t0 = performance.now();
        const em = orm.em.fork();
        hits = (await searchPage((sql, params) => execBound(em, sql, params), viewer, q, null, 20)).hits.length;
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      log(`「${raw}」 ${hits} hits on the first page; searchPage ${times.map((t) => t.toFixed(1)).join(' / ')} ms (5 runs, sorted)`);
      out.push({ query: raw, ms: times, hits });
    }
  } finally {
    await orm.close();
  }
  return out;
}
