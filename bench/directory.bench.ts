/**
 * The staff directory through the full stack against a bare handler, in the same run.
 *
 * One embedded PostgreSQL (temp dir) with the demo company plus bench employees up to 5,000.
 * Two server children, each with a pg pool of the same size:
 *   full  – the real graph server (startGraph: Express, Apollo 5, graphql-armor, graphql-jit,
 *           type-graphql, MikroORM), NODE_ENV=production;
 *   bare  – node:http + pg, one hand-written SQL for the page (same columns, joins and
 *           count(*) over()), the same session lookup, the same JSON answer.
 * The load generator (this process) sends the directory query with varying offsets at fixed
 * rates, open-loop, both servers interleaved at each rate, and finds for each the highest rate
 * with p99 < 50 ms and no errors. Target: full ≥ 0.6 × bare.
 *
 * Flags: --employees=5000 --pool=10 --step-seconds=5 --start=50 --bisections=2 --max-rate=20000
 *        --p99=50 --target=0.6 --common-rate=N --sockets=64
 *        --profile [--rate=50] [--seconds=15]: instead of the search, time the session lookup, the
 *        service call and the whole request inside both servers at one rate and CPU-profile them.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../graph/src/config/config.js';
import { startEmbeddedPostgres } from '../graph/src/db/embedded.js';
import { openOrm } from '../graph/src/db/orm.js';
import { DEMO_PASSWORD } from '../graph/src/db/seeders/demo-company.js';
import { prepareDatabase } from '../graph/src/platform/bootstrap.js';
import { createLogger } from '../graph/src/platform/logger.js';
import { numArg, type Bench, type BenchArgs } from './lib/bench.js';
import { summariseProfile, type ProfileSummary } from './lib/cpuprofile.js';
import { ms, table } from './lib/format.js';
import { keepAliveAgent, runStep, type StepResult, type Target } from './lib/load.js';
import { onCleanup, REPO_ROOT, startChild, type BenchChild, type ChildStats } from './lib/procs.js';
import { cpuBetween, machineUse, postgresPids, snapshot } from './lib/sysstat.js';

export const DIRECTORY_QUERY =
  'query Directory($offset:Int!,$limit:Int!){ employees(offset:$offset, limit:$limit, filter:{includeRetired:false}) { total items { id name email roleLabel statusLabel department { id name } location { id name } } } }';
const PAGE = 50;

/** Rates tried in turn (rps) until one fails twice; then the limit is bisected. */
const LADDER = [25, 50, 75, 100, 150, 200, 300, 400, 500, 600, 800, 1000, 1200, 1500, 2000, 2500, 3000, 4000, 5000, 6000, 8000, 10000, 12000, 15000, 20000];

/**
 * The highest passing rate: up the ladder; a failed step is repeated once (the machine is shared
 * and noisy) and a second failure ends the climb; then `bisections` steps between the best passing
 * and the lowest failing rate.
 */
export class RateSearch {
  best = 0;
  private lowestFail = Infinity;
  private i = 0;
  private phase: 'climb' | 'confirm' | 'bisect' | 'done' = 'climb';
  private current: number | null = null;

  constructor(
    private readonly ladder: number[],
    private bisectionsLeft: number,
  ) {
    if (!ladder.length) this.phase = 'done';
  }

  next(): number | null {
    if (this.current !== null) return this.current;
    if (this.phase === 'climb') this.current = this.ladder[this.i];
    else if (this.phase === 'confirm') this.current = this.lowestFail;
    else if (this.phase === 'bisect') {
      const grain = this.lowestFail > 1000 ? 50 : this.lowestFail > 200 ? 10 : 5;
      const mid = Math.round((this.best + this.lowestFail) / 2 / grain) * grain;
      if (this.bisectionsLeft <= 0 || mid <= this.best || mid >= this.lowestFail) this.phase = 'done';
      else this.current = mid;
    }
    return this.current;
  }

  record(pass: boolean): void {
    const rate = this.current!;
    this.current = null;
    if (pass) this.best = Math.max(this.best, rate);
    else this.lowestFail = Math.min(this.lowestFail, rate);
    if (this.phase === 'climb') {
      if (pass) {
        if (++this.i >= this.ladder.length) this.phase = 'done';
      } else this.phase = 'confirm';
    } else if (this.phase === 'confirm') {
      if (pass) {
        this.lowestFail = Infinity;
        this.phase = ++this.i >= this.ladder.length ? 'done' : 'climb';
      } else this.phase = 'bisect';
    } else if (this.phase === 'bisect') this.bisectionsLeft--;
  }
}

const median = (a: number[]) => {
  const s = a.filter(Number.isFinite).sort((x, y) => x - y);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};

const sleep = (msec: number) => new Promise((r) => setTimeout(r, msec));

/** Demo company (migrations + seeder, as the app does on first start), then set-based inserts up to `employees`. */
async function prepare(url: string, tmp: string, employees: number, log: (l: string) => void) {
  const t0 = performance.now();
  const config = loadConfig({ DATABASE_URL: url, DATA_DIR: tmp, LOG_LEVEL: 'warn', SEED_DEMO: 'auto' });
  const orm = await openOrm(url, 2);
  try {
    await prepareDatabase(config, orm, createLogger('warn'));
  } finally {
    await orm.close();
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>('select count(*)::int as n from employee');
    const have = rows[0].n;
    if (have < employees) {
      await client.query(
        `with d as (select array_agg(id order by id) as ids from department),
              l as (select array_agg(id order by id) as ids from location),
              h as (select password_hash from employee where login_id = 'admin')
         insert into employee (name, email, login_id, password_hash, role, status, department_id, location_id)
         select 'ベンチ ' || (array['翔太','美咲','大輔','陽菜','健一','結衣','拓海'])[1 + g % 7] || g,
                'bench' || g || '@example.co.jp', 'bench.' || g, h.password_hash,
                (case when g % 50 = 0 then 'ADMIN' when g % 37 = 0 then 'DEVICE_ADMIN' when g % 41 = 0 then 'SYSTEM_ADMIN' else 'GENERAL' end)::employee_role,
                (case when g % 10 = 9 then 'RETIRED' else 'ACTIVE' end)::employee_status,
                case when g % 53 = 0 then null else d.ids[1 + g % array_length(d.ids, 1)] end,
                case when g % 61 = 0 then null else l.ids[1 + g % array_length(l.ids, 1)] end
           from generate_series($1::int, $2::int) g, d, l, h`,
        [have + 1, employees],
      );
    }
    await client.query('analyze');
    const stats = await client.query<{ total: number; active: number }>(
      `select count(*)::int as total, count(*) filter (where status = 'ACTIVE')::int as active from employee`,
    );
    log(`database: ${stats.rows[0].total} employees (${stats.rows[0].active} active), prepared in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return stats.rows[0];
  } finally {
    await client.end();
  }
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: unknown }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}

interface Server {
  key: 'full' | 'bare';
  label: string;
  child: BenchChild;
  target: Target;
  agent: http.Agent;
  steps: StepResult[];
  best: number;
}

function cpuPct(s: ChildStats, wallMs: number) {
  return ((s.cpuUserMs + s.cpuSystemMs) / wallMs) * 100;
}

async function measure(s: Server, rate: number, durationMs: number, p99Limit: number, pgData: string): Promise<StepResult> {
  const ours = [s.child.proc.pid!, process.pid];
  const pg0 = postgresPids(pgData);
  await s.child.stats(true);
  const m0 = snapshot([...pg0, ...ours]);
  const w0 = performance.now();
  const r = await runStep(s.target, s.agent, { rate, durationMs, seed: rate });
  const pg1 = [...new Set([...pg0, ...postgresPids(pgData)])];
  const m1 = snapshot([...pg1, ...ours]);
  const st = await s.child.stats(true);
  r.server = { cpuPct: cpuPct(st, performance.now() - w0), cpuMsPerReq: (st.cpuUserMs + st.cpuSystemMs) / Math.max(1, r.ok), elu: st.elu, rssMb: st.rssMb };
  const use = machineUse(m0, m1, pg1, ours);
  r.machine = use && m0 && m1 ? { ...use, pgMsPerReq: cpuBetween(m0, m1, pg1) / Math.max(1, r.ok) } : null;
  r.pass = r.errors === 0 && !r.saturated && r.p99 < p99Limit && r.achievedRps >= rate * 0.9;
  await sleep(300); // let the last answers' garbage and sockets settle
  return r;
}

const STEP_HEADERS = ['rate', 'achieved', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'errors', 'srv cpu ms/req', 'pg cpu ms/req', 'gen lag ms', 'others cpu%', ''];
const stepRow = (r: StepResult) => [
  r.rate,
  r.achievedRps.toFixed(0),
  ms(r.p50),
  ms(r.p90),
  ms(r.p99),
  ms(r.max),
  r.errors,
  r.server ? r.server.cpuMsPerReq.toFixed(2) : '-',
  r.machine ? r.machine.pgMsPerReq.toFixed(2) : '-',
  ms(r.clientLagP99),
  r.machine ? r.machine.otherPct.toFixed(0) : '-',
  r.pass ? 'ok' : r.saturated ? 'FAIL (saturated)' : r.errors ? `FAIL (${r.firstError?.slice(0, 60)})` : 'FAIL',
];

const bench: Bench = {
  description: 'Staff directory page: full stack (Apollo + type-graphql + MikroORM) vs a bare node:http + pg handler',
  async run({ args, log }) {
    const employees = numArg(args, 'employees', 5000);
    const pool = numArg(args, 'pool', 10);
    const stepMs = numArg(args, 'step-seconds', 5) * 1000;
    const start = numArg(args, 'start', 50);
    const bisections = numArg(args, 'bisections', 2);
    const maxRate = numArg(args, 'max-rate', 20000);
    const p99Limit = numArg(args, 'p99', 50);
    const targetRatio = numArg(args, 'target', 0.6);
    const sockets = numArg(args, 'sockets', 64);
    const profile = args.profile === true;
    const t0 = performance.now();

    // --- database
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'intranet-bench-'));
    fs.chmodSync(tmp, 0o755); // as root, initdb runs as a separate postgres user that must reach the data dir
    onCleanup('temp dir', () => fs.rmSync(tmp, { recursive: true, force: true }), () => fs.rmSync(tmp, { recursive: true, force: true }));
    const pgData = path.join(tmp, 'pg');
    const db = await startEmbeddedPostgres(pgData, 'intranet');
    onCleanup('embedded PostgreSQL', () => db.stop());
    const counts = await prepare(db.url, tmp, employees, log);
    const pages = Math.ceil(counts.active / PAGE);

    // --- servers: equal pool size, same environment, production mode
    const env: Record<string, string> = {
      NODE_ENV: 'production',
      DATABASE_URL: db.url,
      DB_POOL_MAX: String(pool),
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: '0',
      SEED_DEMO: 'never',
      DATA_DIR: tmp,
      SESSION_SECRET: 'bench-session-secret-0123456789abcdef0123456789',
      BENCH_DIAG: profile ? '1' : '0',
    };
    const [full, bare] = await Promise.all([
      startChild('full (graph server)', path.join(REPO_ROOT, 'bench/directory/graph-server.ts'), env),
      startChild('bare (node:http + pg)', path.join(REPO_ROOT, 'bench/directory/bare-server.ts'), env),
    ]);
    const fullUrl = String(full.ready.url);
    const bareUrl = String(bare.ready.url);

    // --- one session for both (the bare handler looks it up in the same table)
    const login = await post(`${fullUrl}/api/auth/login`, { loginId: 'admin', password: DEMO_PASSWORD });
    const token = (login.json as { token?: string }).token;
    if (login.status !== 200 || !token) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.json)}`);
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };

    // --- same answers from both, or the comparison means nothing
    for (const offset of [0, PAGE * Math.floor(pages / 2), PAGE * (pages - 1), PAGE * (pages + 3)]) {
      const body = { query: DIRECTORY_QUERY, variables: { offset, limit: PAGE } };
      const [a, b] = await Promise.all([post(`${fullUrl}/graphql`, body, headers), post(`${bareUrl}/graphql`, body, headers)]);
      if (a.status !== 200 || (a.json as { errors?: unknown }).errors) throw new Error(`full stack answered ${a.status}: ${JSON.stringify(a.json).slice(0, 300)}`);
      if (!isDeepStrictEqual(a.json, b.json)) {
        throw new Error(`bare and full answers differ at offset ${offset}:\nfull ${JSON.stringify(a.json).slice(0, 400)}\nbare ${JSON.stringify(b.json).slice(0, 400)}`);
      }
    }
    log(`servers: full ${fullUrl}, bare ${bareUrl}; pool ${pool} each; answers identical (${pages} pages of ${PAGE}, total ${counts.active})`);

    const bodies = Array.from({ length: pages }, (_, i) => Buffer.from(JSON.stringify({ query: DIRECTORY_QUERY, variables: { offset: i * PAGE, limit: PAGE } })));
    const prefix = Buffer.from('{"data":{"employees":{"total":');
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
    const servers = [mk('full', 'full stack (Apollo + type-graphql + MikroORM)', full, fullUrl), mk('bare', 'bare handler (node:http + pg, one SQL)', bare, bareUrl)];
    onCleanup('http agents', () => servers.forEach((s) => s.agent.destroy()));

    // --- warm-up (not recorded): JIT, pools, document caches
    for (const s of servers) {
      await runStep(s.target, s.agent, { rate: Math.min(start, 25), durationMs: 2000, seed: 1 });
      await runStep(s.target, s.agent, { rate: start, durationMs: 3000, seed: 2 });
    }

    if (profile) return profileRun(servers, args, log);

    // --- the search: both servers at each rate, alternating which goes first
    const ladder = LADDER.filter((r) => r >= start && r <= maxRate);
    log(`\nopen-loop steps of ${stepMs / 1000} s up the ladder ${ladder.slice(0, 8).join(', ')}, …; a failed step (p99 ≥ ${p99Limit} ms, an error, or saturated) is repeated once, then the limit is bisected ${bisections}×`);
    const progress = (s: Server, r: StepResult) =>
      log(
        `  ${s.key.padEnd(4)} ${String(r.rate).padStart(5)} rps  p50 ${ms(r.p50).padStart(6)}  p99 ${ms(r.p99).padStart(7)}  err ${String(r.errors).padStart(4)}  ` +
          `cpu/req srv ${r.server!.cpuMsPerReq.toFixed(2)} pg ${r.machine?.pgMsPerReq.toFixed(2) ?? '-'} ms  others ${r.machine?.otherPct.toFixed(0) ?? '-'}%  ${r.pass ? 'ok' : 'FAIL'}`,
      );
    const searches = new Map(servers.map((s) => [s, new RateSearch(ladder, bisections)]));
    for (let round = 0; [...searches.values()].some((x) => x.next() !== null); round++) {
      for (const s of round % 2 ? [...servers].reverse() : servers) {
        const search = searches.get(s)!;
        const rate = search.next();
        if (rate === null) continue;
        const r = await measure(s, rate, stepMs, p99Limit, pgData);
        s.steps.push(r);
        progress(s, r);
        search.record(r.pass!);
      }
    }
    for (const s of servers) s.best = searches.get(s)!.best;

    // --- both at one common moderate rate, longer
    const common = numArg(args, 'common-rate', Math.max(10, Math.round((Math.min(...servers.map((s) => s.best)) * 0.5) / 10) * 10));
    const commonSteps: StepResult[] = [];
    for (const s of servers) {
      const r = await measure(s, common, stepMs * 2, p99Limit, pgData);
      commonSteps.push(r);
    }

    // --- report
    const [f, b] = servers;
    for (const s of servers) {
      log(`\n${s.label}: highest rate with p99 < ${p99Limit} ms and no errors = ${s.best || 'none'} rps`);
      log(table(STEP_HEADERS, [...s.steps].sort((x, y) => x.rate - y.rate).map(stepRow)));
    }
    log(`\nat a common rate of ${common} rps (${(stepMs * 2) / 1000} s each):`);
    log(table(['server', ...STEP_HEADERS], commonSteps.map((r) => [r.target, ...stepRow(r)])));
    // A second, noise-resistant view: CPU per request (server + PostgreSQL + load generator, medians
    // over all steps) and the rate at which that would fill every core. Latency-free, so it says what
    // the code costs even when neighbours spoil p99; it is an estimate, not the measured limit.
    const cores = os.cpus().length;
    const costs = servers.map((s) => {
      const all = [...s.steps, commonSteps[servers.indexOf(s)]].filter((r) => r.server && r.machine && r.ok > 0);
      const srv = median(all.map((r) => r.server!.cpuMsPerReq));
      const pgMs = median(all.map((r) => r.machine!.pgMsPerReq));
      const gen = median(all.map((r) => (r.clientCpuPct * 10) / Math.max(1, r.achievedRps)));
      return { server: s.key, srvMs: srv, pgMs, genMs: gen, totalMs: srv + pgMs + gen, cpuBoundRps: (cores * 1000) / (srv + pgMs + gen) };
    });
    log(`\nCPU per request (medians over all steps) and the rate that would fill all ${cores} cores:`);
    log(table(['server', 'server ms', 'postgres ms', 'load gen ms', 'total ms', 'cpu-bound rps'], costs.map((c) => [c.server, c.srvMs.toFixed(2), c.pgMs.toFixed(2), c.genMs.toFixed(2), c.totalMs.toFixed(2), c.cpuBoundRps.toFixed(0)])));
    const cpuRatio = costs[0].cpuBoundRps / costs[1].cpuBoundRps;
    log(`cpu-bound estimate full/bare: ${cpuRatio.toFixed(2)}`);
    const ratio = b.best > 0 ? f.best / b.best : NaN;
    // Without a passing rate for the bare handler there is nothing to compare against (machine too busy?).
    const pass = b.best > 0 ? ratio >= targetRatio : null;
    const verdict = pass === null ? 'INCONCLUSIVE' : pass ? 'PASS' : 'FAIL';
    const [cf, cb] = commonSteps;
    const headline =
      `full ${f.best} rps / bare ${b.best} rps = ${Number.isFinite(ratio) ? ratio.toFixed(2) : '-'}× (target ≥ ${targetRatio}×) ${verdict}; ` +
      `at ${common} rps p50/p99 full ${ms(cf.p50)}/${ms(cf.p99)} ms, bare ${ms(cb.p50)}/${ms(cb.p99)} ms; ` +
      `CPU/request server+pg full ${costs[0].srvMs.toFixed(2)}+${costs[0].pgMs.toFixed(2)} ms, bare ${costs[1].srvMs.toFixed(2)}+${costs[1].pgMs.toFixed(2)} ms (cpu-bound estimate ${cpuRatio.toFixed(2)}×)`;
    log(`\nratio full/bare: ${f.best} / ${b.best} = ${Number.isFinite(ratio) ? ratio.toFixed(2) : '-'}  →  ${verdict} (target ≥ ${targetRatio})`);
    if (pass === null) log('the bare handler met no rate: the machine is too busy for a verdict (see "others cpu%"); run again later');
    log(`total bench time ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    return {
      pass,
      inconclusive: pass === null,
      headline,
      results: {
        setup: { employees: counts.total, active: counts.active, pageSize: PAGE, pages, pool, sockets, stepSeconds: stepMs / 1000, start, bisections, p99LimitMs: p99Limit, query: DIRECTORY_QUERY },
        full: { maxRate: f.best, steps: f.steps },
        bare: { maxRate: b.best, steps: b.steps },
        ratio,
        target: targetRatio,
        pass,
        common: { rate: common, full: commonSteps[0], bare: commonSteps[1] },
        cpuCost: { perServer: costs, cpuBoundRatio: cpuRatio },
      },
    };
  },
};

/** --profile: one rate, timings inside both servers and a CPU profile of each over the same window. */
async function profileRun(servers: Server[], args: BenchArgs, log: (l: string) => void) {
  const rate = numArg(args, 'rate', 50);
  const seconds = numArg(args, 'seconds', 15);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const dir = path.join(REPO_ROOT, 'bench/results', `directory-profile-${stamp}`);
  fs.mkdirSync(dir, { recursive: true });
  const out: Record<string, unknown> = { rate, seconds, dir: path.relative(REPO_ROOT, dir) };
  for (const s of servers) {
    // First without the profiler: latency, CPU per request and the timings inside the server.
    await s.child.stats(true); // also resets the timings
    let w0 = performance.now();
    const plain = await runStep(s.target, s.agent, { rate, durationMs: seconds * 1000, seed: 7 });
    const st0 = await s.child.stats(true);
    const cpuPerReqMs = (st0.cpuUserMs + st0.cpuSystemMs) / Math.max(1, plain.ok);
    const timings = (st0.extra as { timings?: Record<string, { n: number; mean: number; p50: number; p99: number }> })?.timings ?? {};
    log(`\n${s.label} at ${rate} rps for ${seconds} s: client p50 ${ms(plain.p50)} ms, p99 ${ms(plain.p99)} ms, errors ${plain.errors}`);
    log(`  server CPU ${cpuPct(st0, performance.now() - w0).toFixed(0)}% of a core = ${cpuPerReqMs.toFixed(2)} ms CPU per request`);
    log(table(['inside the server', 'n', 'mean ms', 'p50 ms', 'p99 ms'], Object.entries(timings).map(([k, v]) => [k, v.n, v.mean.toFixed(2), v.p50.toFixed(2), v.p99.toFixed(2)])));
    // Then the same load again under the CPU profiler.
    await sleep(300);
    await s.child.request({ type: 'profileStart' });
    w0 = performance.now();
    const r = await runStep(s.target, s.agent, { rate, durationMs: seconds * 1000, seed: 8 });
    const file = path.join(dir, `${s.key}.cpuprofile`);
    await s.child.request({ type: 'profileStop', file });
    const st = await s.child.stats(true);
    const prof: ProfileSummary = summariseProfile(file);
    log(`  CPU profile ${path.relative(REPO_ROOT, file)} (p99 under profiling ${ms(r.p99)} ms): busy ${prof.busyMs.toFixed(0)} ms of ${prof.totalMs.toFixed(0)} ms = ${(prof.busyMs / Math.max(1, r.ok)).toFixed(2)} ms per request`);
    log(table(['self time by area', 'ms', '% busy'], prof.byArea.slice(0, 18).map((a) => [a.area, a.ms.toFixed(0), a.pctBusy.toFixed(1)])));
    log(table(['hottest functions (self)', 'ms', '% busy'], prof.topFunctions.slice(0, 20).map((f) => [f.fn.slice(0, 110), f.ms.toFixed(0), f.pctBusy.toFixed(1)])));
    out[s.key] = { plain, cpuPerReqMs, timings, profiled: r, server: st, profile: prof };
  }
  return { pass: null, headline: `profile at ${rate} rps written to ${out.dir}`, results: out };
}

export default bench;
