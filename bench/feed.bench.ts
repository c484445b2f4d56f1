/**
 * The blog feed (issues 25 and 26): one feed page — 20 cards with author, category name and colour,
 * tags, thumbnail URL, like count and likers, comment count, the viewer's New!, liked and saved flags,
 * plus the 速報 panel — for a viewer in 5 of 30 categories, through the full stack
 * (one GraphQL request with the session cookie, as the browser sends it) against a bare handler
 * running copies of the same SQL (bench/feed/bare-server.ts), in the same run (bench/lib/compare.ts:
 * both servers, identical answers checked first, open-loop fixed-rate steps, a common rate).
 *
 * Data (bench/feed/data.ts → graph/src/db/seeders/blog-at-scale.ts): 5,000 active employees,
 * 30 categories (the viewer `staff` in 5: 2 through the department, 3 by name), 200 tags, 100,000
 * posts (a picture with a thumbnail on 1 in 5, PDFs, scheduled, expired, drafts, a few pinned), about
 * 2 million like and seen rows, saves and comments (bench/feed/engagement-data.ts).
 * Targets: full p99 < 50 ms at the common rate; p99 ≤ 1.5 × the bare handler's there; highest rate
 * with p99 < 50 ms ≥ 0.6 × the bare handler's (bench/feed/report.ts).
 *
 * Flags: --posts=100000 --employees=5000 --quick (10,000 posts, 1,000 employees, 2 s steps, one
 *        bisection, one round: proves the bench works), --explain (only EXPLAIN ANALYZE the page's
 *        statements, bench/feed/explain.ts), and those of lib/compare.ts.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { numArg, type Bench } from './lib/bench.js';
import { compareFullBare } from './lib/compare.js';
import { startBenchDatabase } from './lib/database.js';
import { REPO_ROOT } from './lib/procs.js';
import { prepareFeedData, VIEWER_LOGIN } from './feed/data.js';
import { explainFeedPage } from './feed/explain.js';
import { judgeFeed, type Comparison } from './feed/report.js';

/**
 * The /blog page's request (web/src/features/blog/operations.ts: BlogFeed's first page, which
 * brings 速報, BlogCardFields inlined), with the card's tags, and __typename as Apollo Client adds
 * it. The card's avatar is drawn from the author's name (no field of its own).
 */
export const FEED_QUERY = `query BlogFeed($filter: BlogFeedFilter, $after: String, $withPinned: Boolean!) {
  blogFeed(filter: $filter, after: $after) {
    items { ...BlogCardFields __typename } nextCursor pinned @include(if: $withPinned) { ...BlogCardFields __typename } __typename
  }
}
fragment BlogCardFields on BlogPostView {
  id title contentHtml publishStart updatedAt state stateLabel pinned
  allowLikes likeCount likedByMe likers { id name departmentName __typename } isNew saved commentCount
  author { id name __typename }
  category { id name color __typename }
  attachment { name type url thumbnailUrl __typename }
  tags { id content __typename }
  __typename
}`;

interface Card {
  id: number;
  pinned: boolean;
  likeCount: number;
  likedByMe: boolean;
  isNew: boolean;
  saved: boolean;
  commentCount: number;
  attachment: { thumbnailUrl: string | null } | null;
  tags: unknown[];
}

/** What both servers answered, for the log: the page's ids in order. */
function describe(answer: unknown): string {
  const d = (answer as { data: { blogFeed: { items: Card[]; nextCursor: string | null; pinned: Card[] } } }).data;
  const items = d.blogFeed.items;
  return (
    `the same ${items.length} feed ids in the same order [${items.map((c) => c.id).join(', ')}] (${items.filter((c) => c.pinned).length} pinned first, ` +
    `${items.filter((c) => c.attachment?.thumbnailUrl).length} with a thumbnail, ${items.reduce((n, c) => n + c.tags.length, 0)} tags, ` +
    `${items.reduce((n, c) => n + c.likeCount, 0)} likes and ${items.reduce((n, c) => n + c.commentCount, 0)} comments in all, ` +
    `${items.filter((c) => c.likedByMe).length} liked, ${items.filter((c) => c.isNew).length} New!, ${items.filter((c) => c.saved).length} saved by the viewer), next cursor ${d.blogFeed.nextCursor ? 'set' : 'none'}; ` +
    `速報 ${d.blogFeed.pinned.length} posts [${d.blogFeed.pinned.map((c) => c.id).join(', ')}]`
  );
}

const bench: Bench = {
  description:
    'Blog feed page (20 cards + 速報) at 100,000 posts: full stack vs a bare node:http + pg handler with the same SQL',
  async run({ args, log }) {
    const quick = args.quick === true;
    const posts = numArg(args, 'posts', quick ? 10_000 : 100_000);
    const employees = numArg(args, 'employees', quick ? 1_000 : 5_000);
    const runArgs = quick ? { 'step-seconds': '2', bisections: '1', rounds: '1', ...args } : args;
    const t0 = performance.now();
    const db = await startBenchDatabase();
    const data = await prepareFeedData(db, { employees, posts });
    log(
      `database: ${data.employees} employees, ${data.categories} categories (viewer ${VIEWER_LOGIN} in ${data.readable.length}: ${data.byDepartment.length} by department, ` +
        `${data.byName.length} by name), ${data.tags} tags, ${data.posts} posts (${data.withThumbnail} with a thumbnail, ${data.pinned} pinned today), ` +
        `${data.engagement.likes} likes, ${data.engagement.seen} seen marks, ${data.engagement.saves} saves, ${data.engagement.comments} comments, ` +
        `prepared in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    if (args.explain === true) {
      const plans = await explainFeedPage(db.url, { id: data.viewerId, readable: data.readable }, data.today, log);
      return {
        pass: null,
        headline: `EXPLAIN of the feed page's statements at ${data.posts} posts`,
        results: { setup: data, plans },
      };
    }
    const body = { query: FEED_QUERY, variables: { filter: null, after: null, withPinned: true } };
    const targets = {
      p99Ms: numArg(args, 'p99', 50),
      maxP99Ratio: numArg(args, 'target', 1.5),
      minRateRatio: numArg(args, 'rate-target', 0.6),
    };
    const outcome = await compareFullBare({
      name: 'feed',
      args: runArgs,
      log,
      db,
      bareFile: path.join(REPO_ROOT, 'bench/feed/bare-server.ts'),
      bareLabel: 'bare handler (node:http + pg, same SQL)',
      fullTimings: 'blog.posts.feed=blogFeed',
      loginId: VIEWER_LOGIN,
      auth: 'cookie',
      bodies: [body],
      describe,
      okPrefix: '{"data":{"blogFeed":{',
      setup: {
        employees: data.employees,
        posts: data.posts,
        categories: data.categories,
        readable: data.readable,
        tags: data.tags,
        withThumbnail: data.withThumbnail,
        pinnedToday: data.pinned,
        engagement: data.engagement,
        today: data.today,
        query: FEED_QUERY,
      },
      verdict: { kind: 'none' },
      defaults: { start: 10, rounds: 3, rate: 50, common: 10 },
    });
    if (args.profile === true) return outcome;
    const judged = judgeFeed(outcome.results as Comparison, targets, log);
    return { ...judged, results: { ...(outcome.results as object), targets, verdicts: judged.verdicts } };
  },
};

export default bench;
