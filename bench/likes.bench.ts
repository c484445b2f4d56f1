/**
 * `npm run bench -- likes`: one like on a post followed live by 5,000 open blog subscriptions through
 * the real graph server, a fifth of them held by employees who may not see the post, against a bare
 * `ws` broadcast of the same frame bytes to 5,000 connections, in the same run (issue 26).
 *
 *   graph  the real server (child process, NODE_ENV=production): likeBlogPost mutation over HTTP →
 *          service transaction (like row + outbox event with the likers) → relay → pubsub → the blog
 *          hub (blog.live.ts: the event read up once, the category's members judged per subscriber)
 *          → graphql-ws `blogChanged` subscriptions, opened the way the web app does (session
 *          cookie, Origin, web/src/features/blog/live.ts's document with BlogCardFields and
 *          Apollo's __typename fields);
 *   bare   node + `ws`: POST /broadcast answers 204, then sends the frame to every connection.
 *
 * The posts (4: one writer each in the train; paced likes go round them one at a time) are in a
 * category whose members are 4 in 5 of the signed-in employees (by name); the others' tabs
 * subscribe too and must receive nothing. Each change is one more like on a post by a member who had
 * not liked it, so a frame's key is `postId:likeCount`. The load generators check every
 * delivery (bench/likes/like-frames.ts): exactly once to each member's tab, never to a non-member's,
 * likedByMe true exactly for the likers listed, likeCount = likers. Phases, latency and CPU as the
 * live bench's (bench/live/phases.ts); the report and verdict are its too (bench/live/report.ts).
 *
 * Targets: paced p99 < 250 ms, graph train deliveries/s ≥ 0.5 × bare, zero deliveries to non-members.
 * Flags: --subscriptions=5000 --sessions=500 --generators=2 --outsiders=0.2 --posts=4 --paced=20 --train=40
 *        --gap-ms=100 --p99=250 --target=0.5 --pool=10 --profile; --quick (1,000 subscriptions over
 *        100 sessions, 5 paced, 10 in the train: does it work?)
 */
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { tokyoToday } from '@intranet/graph/areas';
import { numArg, type Bench } from './lib/bench.js';
import { withClient } from './lib/database.js';
import { REPO_ROOT } from './lib/procs.js';
import { CREATE_POST, LIKE, postInput, SUBSCRIPTION } from './likes/documents.js';
import type { LikeExpect } from './likes/like-frames.js';
import { Completions, epoch, load, runServer, type LiveRun } from './live/phases.js';
import { reportLive } from './live/report.js';
import { startLiveServers } from './live/servers.js';
import { gql, post, type Viewer } from './live/setup.js';

/** A post the changes are made to (one writer each in the train), and the members who have not liked it yet (one like each). */
interface Target {
  postId: number;
  likers: Viewer[];
}

const bench: Bench = {
  description:
    'One like followed live by 5,000 blogChanged subscriptions (a fifth may not see the post) vs a bare ws broadcast of the same frame',
  async run({ args, log }) {
    const quick = args.quick === true;
    const subs = numArg(args, 'subscriptions', quick ? 1000 : 5000);
    const nSessions = numArg(args, 'sessions', quick ? 100 : 500);
    const nGens = numArg(args, 'generators', 2);
    const outsiderShare = numArg(args, 'outsiders', 0.2);
    const nPosts = numArg(args, 'posts', 4);
    const nPaced = numArg(args, 'paced', quick ? 5 : 20);
    const nTrain = numArg(args, 'train', quick ? 10 : 40);
    const gapMs = numArg(args, 'gap-ms', 100);
    const p99Limit = numArg(args, 'p99', 250);
    const targetRatio = numArg(args, 'target', 0.5);
    const pool = numArg(args, 'pool', 10);
    const t0 = performance.now();
    log(`load at start: ${load()} (1/5/15 min), ${os.cpus().length} cores`);
    const { dbUrl, pgData, viewers, graph, bare, gens, graphUrl, bareUrl } = await startLiveServers({
      name: 'likes',
      sessions: nSessions,
      generators: nGens,
      pool,
      subscriptions: subs,
      log,
    });

    // --- the category (members by name: all but every fifth signed-in employee) and its post, written by a member
    const members = viewers.filter((_, i) => (i + 1) % Math.round(1 / outsiderShare) !== 0);
    const categoryId = await withClient(dbUrl, async (c) => {
      const { rows } = await c.query<{ id: number }>(
        `insert into blog_category (name, color, members_may_post) values ('全社のお知らせ（ベンチ）', '#1f6feb', true) returning id`,
      );
      await c.query(`insert into blog_category_employee (category_id, employee_id) select $1, unnest($2::int[])`, [
        rows[0].id,
        `{${members.map((m) => m.id).join(',')}}`,
      ]);
      return rows[0].id;
    });
    const author = members[0];
    const targets: Target[] = [];
    for (let i = 0; i < nPosts; i++) {
      const created = (await gql(graphUrl, author.token, CREATE_POST, { input: postInput(categoryId, tokyoToday()) }))
        .createBlogPost;
      targets.push({ postId: created.id, likers: [...members] });
    }
    const nLikes = 1 + Math.ceil((nPaced + nTrain) / nPosts); // warm-up, paced, train: per post
    if (members.length < nLikes)
      throw new Error(`${members.length} members cannot like a post ${nLikes} times: raise --sessions`);
    const frames = path.join(REPO_ROOT, 'bench/likes/like-frames.ts');
    const expects: LikeExpect = {
      postIds: targets.map((t) => t.postId),
      authorId: author.id,
      members: members.map((m) => m.id),
    };
    await Promise.all(gens.map((g) => g.request({ type: 'expect', frames, expects })));

    // Connection k belongs to session k mod N: 10 tabs per signed-in employee by default.
    const conns = Array.from({ length: subs }, (_, k) => ({
      viewerId: viewers[k % viewers.length].id,
      token: viewers[k % viewers.length].token,
    }));
    const memberIds = new Set(expects.members);
    const receivers = conns.filter((c) => memberIds.has(c.viewerId)).length;
    log(
      `posts ${targets.map((t) => `#${t.postId}`).join(', ')} in category #${categoryId}: ${members.length} of ${viewers.length} signed-in employees are members; ` +
        `${receivers} of ${subs} subscriptions may see them`,
    );
    let seq = 0;
    const run: LiveRun<Target> = {
      gens,
      slices: gens.map((_, g) => conns.filter((_, k) => k % gens.length === g)),
      subs,
      subscription: { query: SUBSCRIPTION, operationName: 'BlogChanged', variables: {}, frames, receivers },
      graphUrl,
      pgData,
      entries: targets,
      nPaced,
      nTrain,
      gapMs,
      log,
      profile: args.profile === true,
      completions: new Completions(gens),
      checks: [],
      nextSeq: () => ++seq,
    };

    // --- graph: real likes through the GraphQL mutation, each by the next member who has not liked the post
    const g = await runServer(run, 'graph', graph, async (t) => {
      const liker = t.likers.shift()!;
      const sentAt = epoch();
      const r = (await gql(graphUrl, liker.token, LIKE, { id: t.postId, liked: true })).likeBlogPost as unknown as {
        id: number;
        likeCount: number;
      };
      return { key: `${t.postId}:${r.likeCount}`, sentAt, answeredAt: epoch() };
    });
    const memberFrame = g.samples.member;
    if (!memberFrame) throw new Error('no member-class frame captured in the graph run');
    log(
      `  view classes seen: ${Object.keys(g.samples).sort().join(', ')}; member frame ${Buffer.byteLength(memberFrame)} bytes`,
    );

    // --- bare: the same frame bytes (a member's), with its own like count per change for keying
    const bareId = 999_999;
    const b = await runServer(run, 'bare', bare, async (_t, n) => {
      const frame = memberFrame
        .replace(/"postId":\d+/, `"postId":${bareId}`)
        .replace(/"likeCount":\d+/, `"likeCount":${n}`);
      const sentAt = epoch();
      await post(`${bareUrl}/broadcast`, frame);
      return { key: `${bareId}:${n}`, sentAt, answeredAt: epoch() };
    });

    return reportLive({
      g,
      b,
      checks: run.checks,
      subs,
      viewers: viewers.length,
      nGens,
      setup: { postIds: expects.postIds, members: members.length, receivers, outsiderSubscriptions: subs - receivers },
      correctText: `every member's tab got every like exactly once with its own likedByMe; the ${subs - receivers} non-members' tabs got nothing`,
      nPaced,
      nTrain,
      gapMs,
      pool,
      publicFrame: memberFrame,
      p99Limit,
      targetRatio,
      t0,
      log,
    });
  },
};

export default bench;
