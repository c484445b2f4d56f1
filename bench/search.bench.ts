/**
 * Blog search (issue 26, benchmark 3): the first page of `blogSearch` (20 hits: where each
 * matched, the title, snippets with their ranges) for one-, two- and longer-character Japanese
 * queries (bench/search/data.ts QUERIES, common, rare and absent), as the viewer `staff` in 5 of 30
 * categories, through the full stack (one GraphQL request with the session cookie) against a bare
 * handler running the service's own statements on a pg pool (bench/search/bare-server.ts). Before
 * the load, every query's answer of the full stack is checked identical (same posts, same order,
 * same snippets) to the bare handler's sequential LIKE scan of the same visible rows: the bench
 * stops on a difference.
 *
 * Data: the feed bench's 100,000 posts (bench/feed/data.ts) plus a comment on one post in five and
 * "AI" in one title in 97 (bench/search/data.ts), indexed by the platform's triggers.
 * Target: full p99 < 50 ms at the common rate (default 10 rps; INCONCLUSIVE when the bare handler
 * missed it too: the machine, not the stack). The same hits as the LIKE scan: checked first.
 *
 * Flags: --posts=100000 --employees=5000 --quick (10,000 posts, 1,000 employees, 2 s steps, one
 *        round), --explain (time the service's statements alone per query, bench/search/explain.ts), and
 *        those of lib/compare.ts.
 */
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { numArg, type Bench } from './lib/bench.js';
import { compareFullBare } from './lib/compare.js';
import { startBenchDatabase } from './lib/database.js';
import { ms } from './lib/format.js';
import { REPO_ROOT } from './lib/procs.js';
import { rateTable, type Comparison } from './feed/report.js';
import { prepareSearchData, QUERIES, VIEWER_LOGIN } from './search/data.js';
import { explainSearch } from './search/explain.js';

export const SEARCH_QUERY = `query BlogSearch($q: String!) {
  blogSearch(query: $q, first: 20) { items { matchedIn post { id title } snippets { source text highlights { start length } } } nextCursor }
}`;

interface Answer {
  data: { blogSearch: { items: { matchedIn: string; post: { id: number } }[]; nextCursor: string | null } };
}

/** The platform seals its cursor (a fresh nonce each time; the bare handler cannot): compared by whether there is one. */
function comparable(answer: unknown): unknown {
  const a = answer as Answer;
  return { ...a, data: { blogSearch: { ...a.data.blogSearch, nextCursor: a.data.blogSearch.nextCursor !== null } } };
}

function describe(answer: unknown): string {
  const items = (answer as Answer).data.blogSearch.items;
  const by = (s: string) => items.filter((h) => h.matchedIn === s).length;
  return `「${QUERIES[0]}」: the same ${items.length} hits in the same order (title ${by('TITLE')}, body ${by('CONTENT')}, comment ${by('COMMENT')}) [${items.map((h) => h.post.id).join(', ')}]`;
}

const bench: Bench = {
  description:
    'Blog search at 100,000 posts (1-, 2- and longer-character Japanese queries): full stack vs a bare node:http + pg handler with the same statements; the same hits as a sequential LIKE scan checked first',
  async run({ args, log }) {
    const quick = args.quick === true;
    const posts = numArg(args, 'posts', quick ? 10_000 : 100_000);
    const employees = numArg(args, 'employees', quick ? 1_000 : 5_000);
    const runArgs = {
      'common-rate': '10',
      ...(quick ? { 'step-seconds': '2', bisections: '1', rounds: '1' } : {}),
      ...args,
    };
    const t0 = performance.now();
    const db = await startBenchDatabase();
    const data = await prepareSearchData(db, { employees, posts });
    log(
      `database: ${data.employees} employees, ${data.posts} posts, ${data.comments} comments, ${data.docs} searchable texts (viewer ${VIEWER_LOGIN} in ${data.readable.length} of ${data.categories} categories), ` +
        `prepared in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    if (args.explain === true) {
      const plans = await explainSearch(db.url, data.viewerId, data.readable, data.today, log);
      return {
        pass: null,
        headline: `EXPLAIN of search's statements at ${data.posts} posts`,
        results: { setup: data, plans },
      };
    }
    const bodies = QUERIES.map((q) => ({ query: SEARCH_QUERY, variables: { q } }));
    // Checked before the load: the full stack against the bare handler's LIKE scan (`like`, which the document ignores).
    const check = QUERIES.map((q) => ({ query: SEARCH_QUERY, variables: { q, like: true } }));
    const p99Ms = numArg(args, 'p99', 50);
    const outcome = await compareFullBare({
      name: 'search',
      args: runArgs,
      log,
      db,
      bareFile: path.join(REPO_ROOT, 'bench/search/bare-server.ts'),
      bareLabel: 'bare handler (node:http + pg, the same statements)',
      fullTimings: 'blog.search.search=blogSearch',
      loginId: VIEWER_LOGIN,
      auth: 'cookie',
      bodies,
      check,
      describe,
      comparable,
      okPrefix: '{"data":{"blogSearch":{',
      setup: {
        employees: data.employees,
        posts: data.posts,
        comments: data.comments,
        docs: data.docs,
        readable: data.readable,
        queries: QUERIES,
        query: SEARCH_QUERY,
      },
      verdict: { kind: 'none' },
      defaults: { start: 5, rounds: 3, rate: 20, common: 10 },
    });
    if (args.profile === true) return outcome;
    const c = outcome.results as Comparison;
    const { rate, full: cf, bare: cb } = c.common;
    // As the other benches: a missed target is the machine's when the bare handler missed it too.
    const bareHeld = cb.errors === 0 && cb.p99 < p99Ms;
    const verdict = cf.errors === 0 && cf.p99 < p99Ms ? 'PASS' : bareHeld ? 'FAIL' : 'INCONCLUSIVE';
    log(`\nfull and bare (the same statements) at each rate of the search:`);
    log(rateTable(c));
    log(
      `\ntarget (issue 26 benchmark 3), at ${rate} rps over ${QUERIES.length} queries: full p99 ${ms(cf.p99)} ms < ${p99Ms} ms  →  ${verdict}`,
    );
    log(`  same hits as the LIKE scan: checked for every query before the load (identical answers)`);
    log(`  p99 full/bare ${ms(cf.p99)} / ${ms(cb.p99)} ms; CPU per request in the table above`);
    const load = os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    const headline =
      `at ${rate} rps p50/p99 full ${ms(cf.p50)}/${ms(cf.p99)} ms, bare ${ms(cb.p50)}/${ms(cb.p99)} ms (p99 ${(cf.p99 / cb.p99).toFixed(2)}×); ` +
      `max rate with p99 < ${p99Ms} ms full ${c.full.maxRate} / bare ${c.bare.maxRate} rps; same hits as the LIKE scan for ${QUERIES.length} queries; p99 < ${p99Ms} ms ${verdict}; load ${load}`;
    return {
      pass: verdict === 'PASS' ? true : verdict === 'FAIL' ? false : null,
      inconclusive: verdict === 'INCONCLUSIVE',
      headline,
      results: { ...(outcome.results as object), verdict },
    };
  },
};

export default bench;
