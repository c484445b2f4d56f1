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
 * Flags: --subscriptions=5000 --sessions=500 --generators=2 --guests=20 --entries=4 --paced=20
 *        --train=40 --gap-ms=100 --p99=250 --target=0.5 --pool=10
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import pg from 'pg';
import { loadConfig } from '../graph/src/config/config.js';
import { startEmbeddedPostgres } from '../graph/src/db/embedded.js';
import { openOrm } from '../graph/src/db/orm.js';
import { prepareDatabase } from '../graph/src/platform/bootstrap.js';
import { createLogger } from '../graph/src/platform/logger.js';
import { numArg, type Bench } from './lib/bench.js';
import { summariseProfile } from './lib/cpuprofile.js';
import { serverEnv } from './lib/database.js';
import { ms, table } from './lib/format.js';
import { keepAliveAgent } from './lib/load.js';
import { onCleanup, REPO_ROOT, startChild, type BenchChild } from './lib/procs.js';
import { cpuBetween, machineUse, postgresPids, snapshot, type MachineUse } from './lib/sysstat.js';

/** The web app's document (web/src/features/schedules/operations.ts) as Apollo Client sends it (with __typename). */
export const SUBSCRIPTION = `subscription ScheduleChanged($from: String, $to: String) {
  scheduleChanged(from: $from, to: $to) {
    kind
    scheduleId
    from
    to
    employeeIds
    schedule {
      ...ScheduleFields
      __typename
    }
    __typename
  }
}

fragment ScheduleFields on ScheduleView {
  id
  version
  busyOnly
  canEdit
  canRespond
  myResponse
  title
  date
  endDate
  isAllDay
  startTime
  endTime
  type
  meetLink
  description
  syncGoogle
  isPrivate
  externalGuests
  owner {
    id
    name
    __typename
  }
  guests {
    id
    name
    response
    __typename
  }
  __typename
}`;

const UPDATE = `mutation UpdateSchedule($id: Int!, $input: ScheduleInput!) { updateSchedule(id: $id, input: $input) { id version } }`;
const CREATE = `mutation CreateSchedule($input: ScheduleInput!) { createSchedule(input: $input) { id version } }`;

const sleep = (t: number) => new Promise((r) => setTimeout(r, t));
const epoch = () => performance.timeOrigin + performance.now();
const pct = (s: number[], p: number) => (s.length ? s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)] : NaN);
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

interface Viewer {
  id: number;
  token: string;
}
interface Entry {
  id: number;
  version: number;
  owner: Viewer;
  guestIds: number[];
  isPrivate: boolean;
}
interface GenReport {
  latencies: number[];
  missing: number;
  lastReceipt: number;
  duplicates: number;
  violations: number;
  firstViolation?: string;
  unexpected: number;
  firstUnexpected?: string;
  closedEarly: number;
  lagP99: number;
  samples: Record<string, string>;
}
export interface PhaseResult {
  changes: number;
  deliveries: number;
  expected: number;
  missing: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Latency from the mutation's answer (commit acknowledged); can be lower, even negative: the fan-out runs before the answer is written. */
  p99FromAnswer: number;
  seconds: number;
  deliveriesPerSec: number;
  serverCpuMs: number;
  serverCpuMsPerChange: number;
  genCpuMs: number;
  genLagP99: number;
  machine: (MachineUse & { pgCpuMs: number }) | null;
  load: string;
}

async function prepare(url: string, tmp: string, sessions: number, log: (l: string) => void): Promise<Viewer[]> {
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
    // Set-based: bench employees (active, 一般) up to `sessions`, and one session row each (token
    // stored as its SHA-256, exactly what SessionService.issue writes) instead of 500 logins.
    await client.query(
      `with d as (select array_agg(id order by id) as ids from department),
            h as (select password_hash from employee where login_id = 'admin')
       insert into employee (name, email, login_id, password_hash, role, status, department_id)
       select 'ライブ 閲覧者' || g, 'live' || g || '@example.co.jp', 'live.' || g, h.password_hash, 'GENERAL', 'ACTIVE', d.ids[1 + g % array_length(d.ids, 1)]
         from generate_series(1, $1::int) g, d, h`,
      [sessions],
    );
    const { rows } = await client.query<{ id: number }>(`select id from employee where login_id like 'live.%' order by id limit $1`, [sessions]);
    const viewers = rows.map((r) => ({ id: r.id, token: randomBytes(32).toString('base64url') }));
    await client.query(
      `insert into session (id, employee_id, created_at, last_seen_at, idle_expires_at, absolute_expires_at, remember, user_agent, ip)
       select h, e, now(), now(), now() + interval '1 day', now() + interval '2 days', true, 'bench-live', '127.0.0.1'
         from unnest($1::text[], $2::int[]) as t(h, e)`,
      [viewers.map((v) => createHash('sha256').update(v.token).digest('hex')), viewers.map((v) => v.id)],
    );
    await client.query('analyze');
    log(`database: ${viewers.length} signed-in employees (sessions inserted set-based)`);
    return viewers;
  } finally {
    await client.end();
  }
}

// Free sockets close before the server's 5 s keep-alive timeout (a reused, server-closed socket would reset).
const agent = keepAliveAgent(8);

function post(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = http.request({ agent, host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { 'content-length': String(Buffer.byteLength(body)), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function gql(url: string, token: string, query: string, variables: Record<string, unknown>) {
  const res = await post(`${url}/graphql`, JSON.stringify({ query, variables }), { 'content-type': 'application/json', authorization: `Bearer ${token}` });
  const json = JSON.parse(res.text) as { data?: Record<string, { id: number; version: number }>; errors?: unknown };
  if (res.status !== 200 || json.errors) throw new Error(`GraphQL ${res.status}: ${res.text.slice(0, 400)}`);
  return json.data!;
}

/** The raised open-file limit, so 5,000 sockets (plus PostgreSQL's) fit into each process. */
function ensureFdLimit(pids: number[], need: number, log: (l: string) => void) {
  for (const pid of pids) {
    const limits = fs.readFileSync(`/proc/${pid}/limits`, 'utf8');
    const m = limits.match(/Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/);
    if (!m) continue;
    const soft = m[1] === 'unlimited' ? Infinity : Number(m[1]);
    const hard = m[2] === 'unlimited' ? Infinity : Number(m[2]);
    if (soft >= need) continue;
    if (hard < need) throw new Error(`open-file limit of pid ${pid} is ${soft} (hard ${hard}), ${need} needed: raise it (ulimit -n ${need}) and run again`);
    execFileSync('prlimit', [`--pid=${pid}`, `--nofile=${need}:${m[2]}`]);
    log(`raised the open-file limit of pid ${pid} from ${soft} to ${need}`);
  }
}

const bench: Bench = {
  description: 'Live delivery of schedule changes to 5,000 graphql-ws subscriptions vs a bare ws broadcast of the same frame',
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
    onCleanup('http agent', () => agent.destroy());
    const t0 = performance.now();
    log(`load at start: ${load()} (1/5/15 min), ${os.cpus().length} cores`);

    // --- database
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'intranet-bench-live-'));
    fs.chmodSync(tmp, 0o755);
    onCleanup('temp dir', () => fs.rmSync(tmp, { recursive: true, force: true }), () => fs.rmSync(tmp, { recursive: true, force: true }));
    const pgData = path.join(tmp, 'pg');
    const db = await startEmbeddedPostgres(pgData, 'intranet');
    onCleanup('embedded PostgreSQL', () => db.stop());
    const viewers = await prepare(db.url, tmp, nSessions, log);
    if (viewers.length < nEntries * (nGuests + 1) + 1) throw new Error('too few sessions for the entries and guests');

    // --- children
    const env = serverEnv({ url: db.url, tmp }, { DB_POOL_MAX: String(pool) });
    const [graph, bare, ...gens] = await Promise.all([
      startChild('graph server', path.join(REPO_ROOT, 'bench/live/graph-server.ts'), env),
      startChild('bare ws server', path.join(REPO_ROOT, 'bench/live/bare-server.ts'), env),
      ...Array.from({ length: nGens }, (_, g) => startChild(`load generator ${g + 1}`, path.join(REPO_ROOT, 'bench/live/load-gen.ts'), env)),
    ]);
    const need = subs + 1024; // the server holds every socket; a generator its share
    ensureFdLimit([graph.proc.pid!, bare.proc.pid!, ...gens.map((g) => g.proc.pid!)], need, log);
    const graphUrl = String(graph.ready.url);
    const bareUrl = String(bare.ready.url);

    // Completion notices: a generator reports a key once all of its connections have it.
    const complete = new Map<string, number>();
    const waiters = new Map<string, () => void>();
    for (const g of gens)
      g.proc.on('message', (m: { type?: string; key?: string }) => {
        if (m?.type !== 'complete' || !m.key) return;
        const n = (complete.get(m.key) ?? 0) + 1;
        complete.set(m.key, n);
        if (n === gens.length) waiters.get(m.key)?.();
      });
    const delivered = (key: string, timeoutMs = 10_000) =>
      complete.get(key) === gens.length
        ? Promise.resolve(true)
        : new Promise<boolean>((resolve) => {
            const t = setTimeout(() => {
              waiters.delete(key);
              resolve(false);
            }, timeoutMs);
            waiters.set(key, () => {
              clearTimeout(t);
              waiters.delete(key);
              resolve(true);
            });
          });

    // --- the entries, created through the real service path; owners and guests are signed-in viewers
    const today = new Date().toISOString().slice(0, 10);
    const week = { from: today, to: new Date(Date.now() + 6 * 86_400_000).toISOString().slice(0, 10) };
    const entries: Entry[] = [];
    for (let e = 0; e < nEntries; e++) {
      const owner = viewers[e * (nGuests + 1)];
      const isPrivate = e % 2 === 1;
      const guestIds = isPrivate ? [] : viewers.slice(e * (nGuests + 1) + 1, (e + 1) * (nGuests + 1)).map((v) => v.id);
      const created = (await gql(graphUrl, owner.token, CREATE, { input: inputFor(isPrivate, 0, guestIds, today) })).createSchedule;
      entries.push({ id: created.id, version: created.version, owner, guestIds, isPrivate });
    }
    const expects = Object.fromEntries(entries.map((e) => [e.id, { ownerId: e.owner.id, guestIds: e.guestIds, isPrivate: e.isPrivate }]));
    await Promise.all(gens.map((g) => g.request({ type: 'expect', expects })));
    log(`entries ${entries.map((e) => `#${e.id} (${e.isPrivate ? 'private' : `public, ${e.guestIds.length} guests`})`).join(', ')}; subscriptions for ${week.from}..${week.to}`);

    // Connection k belongs to session k mod N: 10 tabs per signed-in employee by default.
    const conns = Array.from({ length: subs }, (_, k) => ({ viewerId: viewers[k % viewers.length].id, token: viewers[k % viewers.length].token }));
    const slices = gens.map((_, g) => conns.filter((_, k) => k % gens.length === g));
    let seq = 0;

    /** Opens the connections, runs warm-up, paced and train phases against one server, closes them. */
    const runServer = async (kind: 'graph' | 'bare', server: BenchChild, send: (entry: Entry, n: number) => Promise<{ key: string; sentAt: number; answeredAt: number }>) => {
      const url = String(server.ready.url).replace('http', 'ws') + '/graphql';
      const o0 = performance.now();
      const opened = await Promise.all(
        gens.map(async (g, i) => {
          const done = new Promise<{ opened: number; failed: number; firstError?: string }>((resolve) => {
            const on = (m: { type?: string; opened: number; failed: number; firstError?: string }) => {
              if (m?.type !== 'opened') return;
              g.proc.off('message', on);
              resolve(m);
            };
            g.proc.on('message', on);
          });
          await g.request({ type: 'open', mode: kind === 'graph' ? 'graphql' : 'bare', url, origin: graphUrl, conns: slices[i], query: SUBSCRIPTION, variables: week, parallel: 50 });
          return done;
        }),
      );
      const failed = opened.reduce((a, o) => a + o.failed, 0);
      if (failed) throw new Error(`${kind}: ${failed} connections failed: ${opened.find((o) => o.firstError)?.firstError}`);
      log(`\n${kind}: ${subs} connections${kind === 'graph' ? ' subscribed' : ''} in ${((performance.now() - o0) / 1000).toFixed(1)} s (load ${load()})`);

      const reportAll = async (refs: Record<string, number>) => (await Promise.all(gens.map((g) => g.request<GenReport & { type: string }>({ type: 'report', refs })))) as GenReport[];

      // warm-up: every entry once; proves every subscription receives (not measured)
      for (const e of entries) {
        const r = await send(e, ++seq);
        if (!(await delivered(r.key, 20_000))) throw new Error(`${kind}: warm-up change ${r.key} did not reach every connection`);
      }
      const warm = await reportAll({}); // also resets the generators' lag histograms
      const samples = Object.assign({}, ...warm.map((w) => w.samples)) as Record<string, string>;

      const phase = async (name: string, run: () => Promise<{ refs: Record<string, number>; sent: Record<string, number>; first: number }>): Promise<PhaseResult> => {
        const ours = [server.proc.pid!, ...gens.map((g) => g.proc.pid!), process.pid];
        const pg0 = postgresPids(pgData);
        const m0 = snapshot([...pg0, ...ours]);
        await server.stats(true);
        const g0 = await Promise.all(gens.map((g) => g.stats(true)));
        void g0;
        const { refs, sent, first } = await run();
        await sleep(200);
        const pg1 = [...new Set([...pg0, ...postgresPids(pgData)])];
        const m1 = snapshot([...pg1, ...ours]);
        const st = await server.stats(true);
        const gs = await Promise.all(gens.map((g) => g.stats(true)));
        const reports = await reportAll(sent);
        const lat = reports.flatMap((r) => r.latencies).sort((a, b) => a - b);
        // latency from the answer = from the request sent − (answer − send)
        const shift = Object.keys(refs).map((k) => sent[k] - refs[k]);
        const perKeyShift = shift.length ? shift.reduce((a, b) => a + b, 0) / shift.length : 0;
        const last = Math.max(...reports.map((r) => r.lastReceipt));
        const deliveries = lat.length;
        const changes = Object.keys(refs).length;
        const use = machineUse(m0, m1, pg1, ours);
        const res: PhaseResult = {
          changes,
          deliveries,
          expected: changes * subs,
          missing: reports.reduce((a, r) => a + r.missing, 0),
          p50: pct(lat, 0.5),
          p90: pct(lat, 0.9),
          p99: pct(lat, 0.99),
          max: lat[lat.length - 1] ?? NaN,
          p99FromAnswer: pct(lat, 0.99) + perKeyShift,
          seconds: (last - first) / 1000,
          deliveriesPerSec: deliveries / ((last - first) / 1000),
          serverCpuMs: st.cpuUserMs + st.cpuSystemMs,
          serverCpuMsPerChange: (st.cpuUserMs + st.cpuSystemMs) / Math.max(1, changes),
          genCpuMs: gs.reduce((a, s) => a + s.cpuUserMs + s.cpuSystemMs, 0),
          genLagP99: Math.max(...reports.map((r) => r.lagP99)),
          machine: use && m0 && m1 ? { ...use, pgCpuMs: cpuBetween(m0, m1, pg1) } : null,
          load: load(),
        };
        const dup = reports.reduce((a, r) => a + r.duplicates, 0);
        const vio = reports.reduce((a, r) => a + r.violations, 0);
        const unx = reports.reduce((a, r) => a + r.unexpected, 0);
        const closed = reports.reduce((a, r) => a + r.closedEarly, 0);
        checks.push({ server: kind, phase: name, duplicates: dup, violations: vio, unexpected: unx, closed, missing: res.missing, first: reports.find((r) => r.firstViolation)?.firstViolation ?? reports.find((r) => r.firstUnexpected)?.firstUnexpected });
        log(
          `  ${name.padEnd(6)} ${changes} changes, ${deliveries}/${res.expected} delivered: p50 ${ms(res.p50)} p90 ${ms(res.p90)} p99 ${ms(res.p99)} max ${ms(res.max)} ms, ` +
            `${res.deliveriesPerSec.toFixed(0)} deliveries/s, server CPU ${res.serverCpuMsPerChange.toFixed(0)} ms/change, gen lag p99 ${ms(res.genLagP99)} ms, ` +
            `others ${res.machine?.otherPct.toFixed(0) ?? '-'}% (load ${res.load})` +
            (dup || vio || unx || res.missing || closed ? `  !! dup ${dup} violations ${vio} unexpected ${unx} missing ${res.missing} closed ${closed}` : ''),
        );
        return res;
      };

      const paced = await phase('paced', async () => {
        const refs: Record<string, number> = {};
        const sent: Record<string, number> = {};
        let first = 0;
        for (let i = 0; i < nPaced; i++) {
          const r = await send(entries[i % entries.length], ++seq);
          first ||= r.sentAt;
          refs[r.key] = r.answeredAt;
          sent[r.key] = r.sentAt;
          await delivered(r.key);
          await sleep(gapMs);
        }
        return { refs, sent, first };
      });
      const profileFile = args.profile && kind === 'graph' ? path.join(REPO_ROOT, 'bench/results', `live-graph-${Date.now()}.cpuprofile`) : null;
      if (profileFile) {
        fs.mkdirSync(path.dirname(profileFile), { recursive: true });
        await server.request({ type: 'profileStart' });
      }
      const train = await phase('train', async () => {
        const refs: Record<string, number> = {};
        const sent: Record<string, number> = {};
        const first = epoch();
        const per = Math.ceil(nTrain / entries.length);
        await Promise.all(
          entries.map(async (e, i) => {
            for (let k = 0; k < per && i + k * entries.length < nTrain; k++) {
              const r = await send(e, ++seq);
              refs[r.key] = r.answeredAt;
              sent[r.key] = r.sentAt;
            }
          }),
        );
        await Promise.all(Object.keys(refs).map((k) => delivered(k, 30_000)));
        return { refs, sent, first };
      });
      if (profileFile) {
        await server.request({ type: 'profileStop', file: profileFile });
        const prof = summariseProfile(profileFile, 30);
        log(`  CPU profile of the graph server over the train: ${path.relative(REPO_ROOT, profileFile)}, busy ${prof.busyMs.toFixed(0)} of ${prof.totalMs.toFixed(0)} ms`);
        log(table(['self time by area', 'ms', '% busy'], prof.byArea.slice(0, 15).map((a) => [a.area, a.ms.toFixed(0), a.pctBusy.toFixed(1)])));
        log(table(['hottest functions (self)', 'ms', '% busy'], prof.topFunctions.slice(0, 30).map((f) => [f.fn.slice(0, 110), f.ms.toFixed(0), f.pctBusy.toFixed(1)])));
      }
      const sockets = (await server.stats(false)).extra?.sockets;
      await Promise.all(gens.map((g) => g.request({ type: 'close' })));
      return { paced, train, samples, sockets };
    };

    const checks: { server: string; phase: string; duplicates: number; violations: number; unexpected: number; closed: number; missing: number; first?: string }[] = [];

    // --- graph: real updates through the GraphQL mutation (service → outbox → relay → subscriptions)
    const g = await runServer('graph', graph, async (e, n) => {
      const sentAt = epoch();
      const input = { ...inputFor(e.isPrivate, n, e.guestIds, today), version: e.version };
      const r = (await gql(graphUrl, e.owner.token, UPDATE, { id: e.id, input })).updateSchedule;
      const answeredAt = epoch();
      e.version = r.version;
      return { key: `${e.id}:${r.version}`, sentAt, answeredAt };
    });
    const publicFrame = g.samples.public;
    if (!publicFrame) throw new Error('no public-class frame captured in the graph run');
    log(`  visibility classes seen: ${Object.keys(g.samples).sort().join(', ')}; public frame ${Buffer.byteLength(publicFrame)} bytes`);

    // --- bare: the same frame bytes (public class), with a distinct version per change for keying
    const bareId = 999_999;
    const b = await runServer('bare', bare, async (_e, n) => {
      const frame = publicFrame.replace(/"scheduleId":\d+/, `"scheduleId":${bareId}`).replace(/"version":\d+/, `"version":${n}`);
      const sentAt = epoch();
      await post(`${bareUrl}/broadcast`, frame);
      const answeredAt = epoch();
      return { key: `${bareId}:${n}`, sentAt, answeredAt };
    });

    // --- report
    const row = (name: string, p: PhaseResult) => [
      name,
      `${p.deliveries}/${p.expected}`,
      ms(p.p50),
      ms(p.p90),
      ms(p.p99),
      ms(p.max),
      ms(p.p99FromAnswer),
      p.deliveriesPerSec.toFixed(0),
      p.serverCpuMsPerChange.toFixed(1),
      ((p.genCpuMs / Math.max(1, p.deliveries)) * 1000).toFixed(1),
      ms(p.genLagP99),
      p.machine ? p.machine.otherPct.toFixed(0) : '-',
      p.load,
    ];
    log(`\n${subs} subscriptions over ${viewers.length} sessions, ${nGens} load generators; latency = change request sent (mutation / POST) → frame received`);
    log(
      table(
        ['server / phase', 'delivered', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'p99 from answer', 'deliveries/s', 'srv cpu ms/change', 'gen cpu µs/delivery', 'gen lag p99', 'others cpu%', 'load 1/5/15'],
        [row('graph paced', g.paced), row('bare paced', b.paced), row('graph train', g.train), row('bare train', b.train)],
      ),
    );
    const ratio = g.train.deliveriesPerSec / b.train.deliveriesPerSec;
    const correct = checks.every((c) => !c.duplicates && !c.violations && !c.unexpected && !c.missing && !c.closed);
    const verdict = {
      pacedP99: g.paced.p99 < p99Limit,
      throughput: ratio >= targetRatio,
      correct,
    };
    log(`ratios graph/bare: throughput ${ratio.toFixed(2)} (target ≥ ${targetRatio}), paced p99 ${(g.paced.p99 / b.paced.p99).toFixed(1)}×, train p99 ${(g.train.p99 / b.train.p99).toFixed(1)}×`);
    log(`correctness: ${correct ? 'every subscriber got every change exactly once, with its own view; no private title left the owner' : JSON.stringify(checks.filter((c) => c.duplicates || c.violations || c.unexpected || c.missing || c.closed))}`);
    log(`targets: paced p99 ${ms(g.paced.p99)} ms < ${p99Limit} ${verdict.pacedP99 ? 'PASS' : 'FAIL'}; throughput ${ratio.toFixed(2)}× bare ≥ ${targetRatio} ${verdict.throughput ? 'PASS' : 'FAIL'}; correctness ${correct ? 'PASS' : 'FAIL'}`);
    log(`load at end: ${load()}; total ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    const pass = verdict.pacedP99 && verdict.throughput && verdict.correct;
    return {
      pass,
      headline:
        `graph paced p50/p99 ${ms(g.paced.p50)}/${ms(g.paced.p99)} ms (bare ${ms(b.paced.p50)}/${ms(b.paced.p99)}), train ${g.train.deliveriesPerSec.toFixed(0)} vs bare ${b.train.deliveriesPerSec.toFixed(0)} deliveries/s = ${ratio.toFixed(2)}×, ` +
        `correct ${correct}; ${pass ? 'PASS' : 'FAIL'} (load ${load()})`,
      results: {
        setup: { subscriptions: subs, sessions: viewers.length, generators: nGens, entries: entries.map((e) => ({ id: e.id, isPrivate: e.isPrivate, guests: e.guestIds.length })), paced: nPaced, train: nTrain, gapMs, pool, frameBytes: Buffer.byteLength(publicFrame) },
        graph: { paced: g.paced, train: g.train, classes: Object.keys(g.samples) },
        bare: { paced: b.paced, train: b.train },
        ratio,
        checks,
        verdict,
        loadavg: os.loadavg(),
      },
    };
  },
};

function inputFor(isPrivate: boolean, n: number, guestIds: number[], date: string) {
  const minutes = 9 * 60 + (n % 16) * 15;
  const hh = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  return {
    title: isPrivate ? `SECRET 通院 ${n}` : `定例ミーティング ${n}`,
    date,
    endDate: date,
    isAllDay: false,
    startTime: hh(minutes),
    endTime: hh(minutes + 60),
    type: 'APPOINTMENT',
    description: isPrivate ? 'SECRET notes' : '議題: 進捗共有と来週の予定',
    syncGoogle: false,
    isPrivate,
    guestIds,
    externalGuests: isPrivate ? [] : ['partner@example.com'],
  };
}

export default bench;
