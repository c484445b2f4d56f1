/**
 * `npm run bench -- live`: live delivery of schedule changes to 5,000 open subscriptions through the
 * real graph server, against a bare `ws` broadcast of the same frame bytes in the same run.
 *
 *   graph  the real server (child process, NODE_ENV=production): updateSchedule mutation over HTTP →
 *          service transaction (row + outbox event) → relay (LISTEN/NOTIFY) → pubsub → graphql-ws
 *          `scheduleChanged(from, to)` subscriptions, one per WebSocket (one per browser tab), opened
 *          the way the web app does (session cookie, Origin, the ScheduleChanged document with
 *          Apollo's __typename fields), spread over N signed-in sessions (10 tabs each by default);
 *   bare   node + `ws`: POST /broadcast answers 204, then sends the frame to every connection.
 *
 * The same load-generator child processes hold the connections in both runs and parse every frame.
 * Viewers are mixed: each changed entry has its owner's tabs, guests' tabs and everybody else's, and
 * half of the entries are private, so every change has several visibility classes (owner, each
 * guest, public / busy-only). Every delivery is checked (exactly once, the right view, no private
 * title in any non-owner's frame).
 *
 * Phases per server: warm-up (one change per entry, also proves every subscription is registered),
 * paced (one change at a time, the next after all deliveries + a gap: latency without queueing),
 * train (changes sent back to back by one writer per entry: throughput, and latency under load).
 * Latency: change request sent (the updateSchedule mutation, or the bare POST) → frame received, per
 * delivery; it includes the write itself (a few ms). Measuring from the mutation's answer would flatter
 * the graph: its fan-out runs on the same event loop before the answer is written.
 *
 * Targets: paced p99 < 250 ms, graph train throughput ≥ 0.5 × bare.
 * bench/live/: setup.ts (database, sessions, HTTP client), changes.ts (documents, inputs),
 * phases.ts (one server's phases), report.ts (tables, verdict); children graph-server.ts,
 * bare-server.ts (the peer), load-gen.ts (the load generators).
 * Flags: --subscriptions=5000 --sessions=500 --generators=2 --guests=20 --entries=4 --paced=20
 *        --train=40 --gap-ms=100 --p99=250 --target=0.5 --pool=10
 */
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { numArg, type Bench } from './lib/bench.js';
import { REPO_ROOT } from './lib/procs.js';
import { CREATE, inputFor, SUBSCRIPTION, UPDATE } from './live/changes.js';
import { Completions, epoch, load, runServer, type Entry, type LiveRun } from './live/phases.js';
import { reportLive } from './live/report.js';
import { startLiveServers } from './live/servers.js';
import { gql, post } from './live/setup.js';

const bench: Bench = {
  description:
    'Live delivery of schedule changes to 5,000 graphql-ws subscriptions vs a bare ws broadcast of the same frame',
  async run({ args, log }) {
    const subs = numArg(args, 'subscriptions', 5000);
    const nSessions = numArg(args, 'sessions', 500);
    const nGens = numArg(args, 'generators', 2);
    const nGuests = numArg(args, 'guests', 20);
    const nEntries = numArg(args, 'entries', 4);
    const nPaced = numArg(args, 'paced', 20);
    const nTrain = numArg(args, 'train', 40);
    const gapMs = numArg(args, 'gap-ms', 100);
    const p99Limit = numArg(args, 'p99', 250);
    const targetRatio = numArg(args, 'target', 0.5);
    const pool = numArg(args, 'pool', 10);
    const t0 = performance.now();
    log(`load at start: ${load()} (1/5/15 min), ${os.cpus().length} cores`);
    const { pgData, viewers, graph, bare, gens, graphUrl, bareUrl } = await startLiveServers({
      name: 'live',
      sessions: nSessions,
      generators: nGens,
      pool,
      subscriptions: subs,
      log,
    });
    if (viewers.length < nEntries * (nGuests + 1) + 1) throw new Error('too few sessions for the entries and guests');

    // --- the entries, created through the real service path; owners and guests are signed-in viewers
    const today = new Date().toISOString().slice(0, 10);
    const week = { from: today, to: new Date(Date.now() + 6 * 86_400_000).toISOString().slice(0, 10) };
    const entries: Entry[] = [];
    for (let e = 0; e < nEntries; e++) {
      const owner = viewers[e * (nGuests + 1)];
      const isPrivate = e % 2 === 1;
      const guestIds = isPrivate ? [] : viewers.slice(e * (nGuests + 1) + 1, (e + 1) * (nGuests + 1)).map((v) => v.id);
      const created = (await gql(graphUrl, owner.token, CREATE, { input: inputFor(isPrivate, 0, guestIds, today) }))
        .createSchedule;
      entries.push({ id: created.id, version: created.version, owner, guestIds, isPrivate });
    }
    const expects = Object.fromEntries(
      entries.map((e) => [e.id, { ownerId: e.owner.id, guestIds: e.guestIds, isPrivate: e.isPrivate }]),
    );
    const frames = path.join(REPO_ROOT, 'bench/live/schedule-frames.ts');
    await Promise.all(gens.map((g) => g.request({ type: 'expect', frames, expects })));
    log(
      `entries ${entries.map((e) => `#${e.id} (${e.isPrivate ? 'private' : `public, ${e.guestIds.length} guests`})`).join(', ')}; subscriptions for ${week.from}..${week.to}`,
    );

    // Connection k belongs to session k mod N: 10 tabs per signed-in employee by default.
    const conns = Array.from({ length: subs }, (_, k) => ({
      viewerId: viewers[k % viewers.length].id,
      token: viewers[k % viewers.length].token,
    }));
    const slices = gens.map((_, g) => conns.filter((_, k) => k % gens.length === g));
    let seq = 0;
    const run: LiveRun = {
      gens,
      slices,
      subs,
      subscription: { query: SUBSCRIPTION, operationName: 'ScheduleChanged', variables: week, frames, receivers: subs },
      graphUrl,
      pgData,
      entries,
      nPaced,
      nTrain,
      gapMs,
      log,
      profile: args.profile === true,
      completions: new Completions(gens),
      checks: [],
      nextSeq: () => ++seq,
    };

    // --- graph: real updates through the GraphQL mutation (service → outbox → relay → subscriptions)
    const g = await runServer(run, 'graph', graph, async (e, n) => {
      const sentAt = epoch();
      const input = { ...inputFor(e.isPrivate, n, e.guestIds, today), version: e.version };
      const r = (await gql(graphUrl, e.owner.token, UPDATE, { id: e.id, input })).updateSchedule;
      const answeredAt = epoch();
      e.version = r.version;
      return { key: `${e.id}:${r.version}`, sentAt, answeredAt };
    });
    const publicFrame = g.samples.public;
    if (!publicFrame) throw new Error('no public-class frame captured in the graph run');
    log(
      `  visibility classes seen: ${Object.keys(g.samples).sort().join(', ')}; public frame ${Buffer.byteLength(publicFrame)} bytes`,
    );

    // --- bare: the same frame bytes (public class), with a distinct version per change for keying
    const bareId = 999_999;
    const b = await runServer(run, 'bare', bare, async (_e, n) => {
      const frame = publicFrame
        .replace(/"scheduleId":\d+/, `"scheduleId":${bareId}`)
        .replace(/"version":\d+/, `"version":${n}`);
      const sentAt = epoch();
      await post(`${bareUrl}/broadcast`, frame);
      const answeredAt = epoch();
      return { key: `${bareId}:${n}`, sentAt, answeredAt };
    });

    const setup = { entries: entries.map((e) => ({ id: e.id, isPrivate: e.isPrivate, guests: e.guestIds.length })) };
    const correctText =
      'every subscriber got every change exactly once, with its own view; no private title left the owner';
    return reportLive({
      g,
      b,
      checks: run.checks,
      subs,
      viewers: viewers.length,
      nGens,
      setup,
      correctText,
      nPaced,
      nTrain,
      gapMs,
      pool,
      publicFrame,
      p99Limit,
      targetRatio,
      t0,
      log,
    });
  },
};

export default bench;
