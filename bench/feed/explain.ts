/**
 * `npm run bench -- feed --explain`: EXPLAIN (ANALYZE, BUFFERS) of each statement of one feed page
 * on the bench's data, as the bare handler runs them (bench/feed/sql.ts; the service's statements are
 * the same text with the values inlined): plan nodes on blog_post, rows, buffers and execution time,
 * the median of `runs` executions after one warm-up.
 */
import pg from 'pg';
import { table } from '../lib/format.js';
import { ACCESS_SQL, COMMENT_COUNTS_SQL, ENGAGEMENT_SQL, PINNED_SQL, REST_SQL, ROWS_SQL } from './sql.js';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

function nodes(n: PlanNode, out: PlanNode[] = []): PlanNode[] {
  out.push(n);
  for (const c of n.Plans ?? []) nodes(c, out);
  return out;
}

export async function explainFeedPage(
  url: string,
  viewer: { id: number; readable: number[] },
  today: string,
  log: (line: string) => void,
  runs = 5,
) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const cats = `{${viewer.readable.join(',')}}`;
    const page: number[] = (await c.query(PINNED_SQL, [cats, today, 21])).rows.map((r) => r.id);
    const rest: number[] = (await c.query(REST_SQL, [cats, viewer.id, today, 20 - page.length + 1])).rows.map(
      (r) => r.id,
    );
    const ids = `{${[...page, ...rest].slice(0, 20).join(',')}}`;
    const statements: [string, string, unknown[]][] = [
      ['access (viewer categories)', ACCESS_SQL, [viewer.id]],
      ['feed: pinned part', PINNED_SQL, [cats, today, 21]],
      ['feed: the rest, per category', REST_SQL, [cats, viewer.id, today, 20 - page.length + 1]],
      ['速報 (limit 50)', PINNED_SQL, [cats, today, 50]],
      ['rows of 20 posts', ROWS_SQL, [ids]],
      ['engagement (likers included) of 20 posts', ENGAGEMENT_SQL, [ids, viewer.id]],
      ['comment counts of 20 posts', COMMENT_COUNTS_SQL, [ids]],
    ];
    const rows: (string | number)[][] = [];
    for (const [name, sql, params] of statements) {
      const times: number[] = [];
      let plan: { Plan: PlanNode; 'Execution Time': number; 'Planning Time': number } | undefined;
      for (let i = 0; i <= runs; i++) {
        const r = await c.query(`explain (analyze, buffers, format json) ${sql}`, params);
        plan = r.rows[0]['QUERY PLAN'][0];
        if (i > 0) times.push(plan!['Execution Time'] + plan!['Planning Time']);
      }
      const all = nodes(plan!.Plan);
      const onPosts = all
        .filter(
          (n) => n['Relation Name'] === 'blog_post' || n['Relation Name']?.match(/^blog_(like|seen|save|comment)$/),
        )
        .map((n) => `${n['Node Type']} ${n['Index Name'] ?? n['Relation Name']}`);
      const hit = all[0]['Shared Hit Blocks'] ?? 0;
      const read = all[0]['Shared Read Blocks'] ?? 0;
      times.sort((a, b) => a - b);
      rows.push([
        name,
        [...new Set(onPosts)].join(', ') || '-',
        all[0]['Actual Rows'] ?? 0,
        `${hit}/${read}`,
        plan!['Planning Time'].toFixed(2),
        times[Math.floor(times.length / 2)].toFixed(2),
      ]);
    }
    log(`\nEXPLAIN (ANALYZE, BUFFERS) of one feed page's statements, median of ${runs}:`);
    log(
      table(
        ['statement', 'blog_post (and marks, comments) read by', 'rows', 'buffers hit/read', 'plan ms', 'plan+exec ms'],
        rows,
      ),
    );
    return rows;
  } finally {
    await c.end();
  }
}
