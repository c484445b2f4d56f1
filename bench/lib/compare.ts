/**
 * "The full stack against a bare handler", shared by the GraphQL-vs-raw-SQL benches (directory,
 * grid, computers). Two server children on one database, each with a pg pool of the same size:
 *   full – the real graph server (lib/graph-server.ts: Express, Apollo 5, graphql-armor,
 *          graphql-jit, type-graphql, MikroORM), NODE_ENV=production;
 *   bare – a bench's node:http + pg handler (lib/bare.ts) answering the same JSON from the same SQL,
 *          with the same session lookup.
 * The answers are checked identical before any load. Then, open-loop (lib/load.ts), both climb the
 * same ladder of rates interleaved (the highest rate with p99 under the limit and no errors), and both
 * run at one common moderate rate, in `rounds` alternating rounds (percentiles over the rounds pooled).
 * Two verdicts: `throughput` (full's max rate ≥ min × bare's) and `latency` (at the common rate,
 * full's p50 and p99 ≤ max × bare's and full's p99 under the limit); `none` leaves the judging to the
 * bench (its figures are in `results`).
 *
 * Flags (all benches using it): --pool=10 --step-seconds=5 --start=N --bisections=2 --max-rate=20000
 *   --p99=50 --target=X --common-rate=N --rounds=N --common-samples=600 --common-max-seconds=60 --sockets=64
 *   --profile [--rate=N] [--seconds=15]: instead of the search, timings inside both servers at one
 *   rate and a CPU profile of each (bench/results/<name>-profile-*).
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual } from 'node:util';
import { DEMO_PASSWORD } from '@intranet/graph/areas';
import { SESSION_COOKIE } from '@intranet/graph/app';
import { numArg, type BenchArgs, type BenchOutcome } from './bench.js';
import { profileRun } from './compare-profile.js';
import { reportComparison } from './compare-report.js';
import { serverEnv, type BenchDatabase } from './database.js';
import { ms } from './format.js';
import { keepAliveAgent, runStep, type StepResult } from './load.js';
import { onCleanup, REPO_ROOT, startChild, type BenchChild } from './procs.js';
import { LADDER, measure, median, pooled, RateSearch, type Server } from './steps.js';

export interface CompareSpec {
  /** The bench's name (profile directory, messages). */
  name: string;
  args: BenchArgs;
  log: (line: string) => void;
  db: BenchDatabase;
  /** The bare server child (a bench/<name>/bare-server.ts using lib/bare.ts). */
  bareFile: string;
  bareLabel: string;
  /** Service methods timed inside the graph server with --profile (BENCH_TIME of lib/graph-server.ts). */
  fullTimings: string;
  /** Who signs in (demo password); both servers see the same session. */
  loginId: string;
  /** The request bodies ({query, variables}); each request takes one, in a seeded order. */
  bodies: unknown[];
  /** Which bodies are checked identical before the load (default: all). */
  check?: unknown[];
  /** Describes the checked answer of the first `check` body for the log (e.g. the ids both servers returned). */
  describe?: (answer: unknown) => string;
  /** What of an answer must be the same in both (default: all of it), e.g. a sealed cursor by whether there is one. */
  comparable?: (answer: unknown) => unknown;
  /** A successful answer starts with these bytes (and has no "errors"). */
  okPrefix: string;
  /** What the bench describes in `setup` of its results. */
  setup: Record<string, unknown>;
  verdict: { kind: 'throughput'; min: number } | { kind: 'latency'; max: number } | { kind: 'none' };
  /** How both servers get the session: `Authorization: Bearer` (default) or the session cookie, as the browser sends it. */
  auth?: 'bearer' | 'cookie';
  /** start: the ladder's first rate; rounds: of the common rate; rate: for --profile; common: the common rate when either server met no rate. */
  defaults?: { start?: number; rounds?: number; rate?: number; common?: number };
}

async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: unknown }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

/** Starts both servers, checks their answers, then searches, measures and judges (or profiles). */
export async function compareFullBare(spec: CompareSpec): Promise<BenchOutcome> {
  const { args, log, db } = spec;
  const pool = numArg(args, 'pool', 10);
  const stepMs = numArg(args, 'step-seconds', 5) * 1000;
  const start = numArg(args, 'start', spec.defaults?.start ?? 50);
  const bisections = numArg(args, 'bisections', 2);
  const maxRate = numArg(args, 'max-rate', 20000);
  const p99Limit = numArg(args, 'p99', 50);
  const sockets = numArg(args, 'sockets', 64);
  const rounds = numArg(args, 'rounds', spec.defaults?.rounds ?? 1);
  const profile = args.profile === true;
  const t0 = performance.now();

  // --- servers: equal pool size, same environment, production mode
  const env = serverEnv(db, {
    DB_POOL_MAX: String(pool),
    BENCH_DIAG: profile ? '1' : '0',
    BENCH_TIME: spec.fullTimings,
  });
  const [full, bare] = await Promise.all([
    startChild('full (graph server)', path.join(REPO_ROOT, 'bench/lib/graph-server.ts'), env),
    startChild(spec.bareLabel, spec.bareFile, env),
  ]);
  const fullUrl = String(full.ready.url);
  const bareUrl = String(bare.ready.url);

  // --- one session for both (the bare handler looks it up in the same table)
  const login = await post(`${fullUrl}/api/auth/login`, { loginId: spec.loginId, password: DEMO_PASSWORD });
  const token = (login.json as { token?: string }).token;
  if (login.status !== 200 || !token) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.json)}`);
  const headers: Record<string, string> =
    spec.auth === 'cookie'
      ? { 'content-type': 'application/json', cookie: `${SESSION_COOKIE}=${token}` }
      : { 'content-type': 'application/json', authorization: `Bearer ${token}` };

  // --- same answers from both, or the comparison means nothing
  for (const body of spec.check ?? spec.bodies) {
    const [a, b] = await Promise.all([
      post(`${fullUrl}/graphql`, body, headers),
      post(`${bareUrl}/graphql`, body, headers),
    ]);
    if (a.status !== 200 || (a.json as { errors?: unknown }).errors)
      throw new Error(`full stack answered ${a.status}: ${JSON.stringify(a.json).slice(0, 300)}`);
    const same = spec.comparable ?? ((x: unknown) => x);
    if (!isDeepStrictEqual(same(a.json), same(b.json))) {
      throw new Error(
        `bare and full answers differ for ${JSON.stringify((body as { variables?: unknown }).variables)}:\nfull ${JSON.stringify(a.json).slice(0, 600)}\nbare ${JSON.stringify(b.json).slice(0, 600)}`,
      );
    }
  }
  if (spec.describe)
    log(
      `checked answer: ${spec.describe((await post(`${fullUrl}/graphql`, (spec.check ?? spec.bodies)[0], headers)).json)}`,
    );
  const sizes = await Promise.all(
    (spec.check ?? spec.bodies)
      .slice(0, 20)
      .map(async (body) => JSON.stringify((await post(`${bareUrl}/graphql`, body, headers)).json).length),
  );
  log(
    `servers: full ${fullUrl}, bare ${bareUrl}; pool ${pool} each; answers identical for ${(spec.check ?? spec.bodies).length} requests ` +
      `(${spec.bodies.length} in the load; answers ${(median(sizes) / 1024).toFixed(0)} KB median)`,
  );

  const bodies = spec.bodies.map((b) => Buffer.from(JSON.stringify(b)));
  const prefix = Buffer.from(spec.okPrefix);
  const ok = (b: Buffer) => b.subarray(0, prefix.length).equals(prefix) && !b.includes('"errors"');
  const mk = (key: 'full' | 'bare', label: string, child: BenchChild, url: string): Server => ({
    key,
    label,
    child,
    target: { name: key, url, path: '/graphql', headers, bodies, ok },
    agent: keepAliveAgent(sockets),
    steps: [],
    best: 0,
  });
  const servers = [
    mk('full', 'full stack (Apollo + type-graphql + MikroORM)', full, fullUrl),
    mk('bare', spec.bareLabel, bare, bareUrl),
  ];
  onCleanup('http agents', () => servers.forEach((s) => s.agent.destroy()));

  // --- warm-up (not recorded): JIT, pools, document caches
  for (const s of servers) {
    await runStep(s.target, s.agent, { rate: Math.min(start, 25), durationMs: 2000, seed: 1 });
    await runStep(s.target, s.agent, { rate: start, durationMs: 3000, seed: 2 });
  }

  if (profile) return profileRun(spec, servers);

  // --- the search: both servers at each rate, alternating which goes first
  const ladder = LADDER.filter((r) => r >= start && r <= maxRate);
  log(
    `\nopen-loop steps of ${stepMs / 1000} s up the ladder ${ladder.slice(0, 8).join(', ')}, …; a failed step (p99 ≥ ${p99Limit} ms, an error, or saturated) is repeated once, then the limit is bisected ${bisections}×`,
  );
  const progress = (s: Server, r: StepResult, what = '') =>
    log(
      `  ${s.key.padEnd(4)} ${String(r.rate).padStart(5)} rps  p50 ${ms(r.p50).padStart(6)}  p99 ${ms(r.p99).padStart(7)}  err ${String(r.errors).padStart(4)}  ` +
        `cpu/req srv ${r.server!.cpuMsPerReq.toFixed(2)} pg ${r.machine?.pgMsPerReq.toFixed(2) ?? '-'} ms  others ${r.machine?.otherPct.toFixed(0) ?? '-'}%  ${r.pass ? 'ok' : 'FAIL'}${what}`,
    );
  const searches = new Map(servers.map((s) => [s, new RateSearch(ladder, bisections)]));
  for (let round = 0; [...searches.values()].some((x) => x.next() !== null); round++) {
    for (const s of round % 2 ? [...servers].reverse() : servers) {
      const search = searches.get(s)!;
      const rate = search.next();
      if (rate === null) continue;
      const r = await measure(s, rate, stepMs, p99Limit, db.pgData);
      s.steps.push(r);
      progress(s, r);
      search.record(r.pass!);
    }
  }
  for (const s of servers) s.best = searches.get(s)!.best;

  // --- both at one common moderate rate, longer, `rounds` times alternating
  // Half the lower maximum; when either met no rate (a busy machine), the bench's own moderate rate.
  const minBest = Math.min(...servers.map((s) => s.best));
  const grain = minBest >= 40 ? 10 : 1;
  const common = numArg(
    args,
    'common-rate',
    minBest > 0 ? Math.max(1, Math.round((minBest * 0.5) / grain) * grain) : (spec.defaults?.common ?? 1),
  );
  // p99 needs samples: of fewer than 100 it is the single worst request, which one GC pause or a
  // neighbour's burst decides. Each round lasts long enough for the rounds together to hold
  // `--common-samples` requests per server (bounded by `--common-max-seconds` a round), and the
  // percentiles are taken over all rounds' samples pooled.
  const wantSamples = numArg(args, 'common-samples', 600);
  const maxRoundMs = numArg(args, 'common-max-seconds', 60) * 1000;
  const roundMs = Math.max(stepMs * 2, Math.min(maxRoundMs, Math.ceil(wantSamples / rounds / common) * 1000));
  log(
    `\nat a common rate of ${common} rps, ${rounds} round${rounds > 1 ? 's' : ''} of ${roundMs / 1000} s each, alternating (percentiles over the rounds' samples pooled):`,
  );
  const commonRuns = new Map<Server, StepResult[]>(servers.map((s) => [s, []]));
  for (let round = 0; round < rounds; round++) {
    for (const s of round % 2 ? [...servers].reverse() : servers) {
      const r = await measure(s, common, roundMs, p99Limit, db.pgData, 1000 + round);
      commonRuns.get(s)!.push(r);
      progress(s, r, '  (common)');
    }
  }
  const commonSteps = servers.map((s) => pooled(commonRuns.get(s)!));

  return reportComparison(
    spec,
    {
      servers,
      commonRuns,
      commonSteps,
      common,
      roundMs,
      rounds,
      t0,
      setup: {
        ...spec.setup,
        pool,
        sockets,
        stepSeconds: stepMs / 1000,
        start,
        bisections,
        p99LimitMs: p99Limit,
        rounds,
        commonRoundSeconds: roundMs / 1000,
      },
    },
    p99Limit,
  );
}
