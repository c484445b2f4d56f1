/**
 * `npm run bench -- soak [--duration=300]`: a soak of the platform as `npm start` runs it (compiled
 * dist/bin/start.js in a child process, its own embedded PostgreSQL and demo company in a temp
 * DATA_DIR, a free port; bench/soak/platform.ts) under 50 virtual users for 5 minutes.
 *
 * Each VU signs in once (POST /api/auth/login, one session per VU, the 4 demo logins admin,
 * sysadmin, devadmin, staff spread round-robin), holds one graphql-ws WebSocket (session cookie +
 * Origin, as the browser) with a `scheduleChanged` (this week) or `employeeChanged` subscription
 * (alternating) and counts the events it receives, then loops until the end: a weighted random
 * operation, then a think time (uniform 0.5–1.5 × --think-ms). Operations (staff does none on
 * computers, only 管理者/システム管理者 edit employees):
 *   lists    employees and computers pages through GraphQL (the web app's documents) and /api;
 *   details  employee (GraphQL and /api), computer (GraphQL), schedule entry (/api);
 *   grid     the schedule week grid (the web app's ScheduleGrid document, 25 people a page);
 *   edits    read the record with its version (counted as a detail), "edit" 100–400 ms, save with
 *            that version: schedule entries of the VU's login (GraphQL updateSchedule or PUT
 *            /api/schedules/:id, alternating; 3 entries per login, 12–13 VUs per login race on
 *            them), computers (GraphQL updateComputer, 6 of them shared by 38 VUs), employees
 *            (GraphQL updateEmployee, e-mail changed, 6 non-login employees). A lost race (409 /
 *            CONFLICT) is an expected outcome, not an error.
 *   blog     the feed's first page with 速報 (the web app's BlogFeed), a post (/api), a page of its
 *            comments (GraphQL and /api), a comment, a like and its undo, a picture uploaded
 *            (POST /api/blog_images), on the posts of the login's feed (soak/blog.ts); each
 *            person's writes stay under the default per-person limits at this rate.
 * Beside the VUs, a hostile client (a staff session of its own, no think time) sends the 15-alias
 * `blogComments` query at the largest page on the most commented post in a loop, and a prober
 * times GET /healthz every 250 ms.
 *
 * Targets (absolute: a soak has no peer to compare with):
 *   errors   < 1 % of requests: a 5xx, a GraphQL INTERNAL_SERVER_ERROR, a network error or timeout,
 *            an error frame or an unexpected close of a subscription's WebSocket;
 *   latency  p95 < 300 ms over all requests, and per kind of request;
 *   memory   the server's VmRSS (/proc/<pid>/status, sampled every --sample-s) flat after warm-up:
 *            mean of the last minute ≤ 1.10 × mean of the minute after warm-up (warm-up: the first
 *            60 s or 20 % of the duration, whichever is shorter, or --warmup-s; windows shrink for
 *            short runs). The V8 heap (the launcher's /metrics) is sampled beside it;
 *   leaks    after the VUs have closed everything: the server's open TCP connections on its port
 *            (/proc/<pid>/net/tcp, all states but LISTEN/TIME_WAIT) back to the count before the
 *            load, and pg_stat_activity's backends of the database back to the count before the
 *            load (the pool's idle size is 0: tarn closes idle connections after 30 s), waiting up
 *            to --settle-s for both;
 *   health   /healthz p99 < --healthz-ms (100) and every probe 200, with the hostile client running.
 *
 * Environment of the platform: WS_MAX_SOCKETS_PER_USER=100 (the default 20 per user would fit 13
 * VUs per login, but not their reconnects), LOG_LEVEL=warn (the per-request info lines off; every
 * line the server writes is kept in bench/results/soak-server-*.log and warn/error lines counted).
 * Sign-in throttling counts failed attempts only and a success takes its attempt back, so the VUs
 * sign in one after another (never concurrently) and no throttle setting is changed.
 *
 * The bench stops at once, with an error, when the platform exits during the load.
 *
 * bench/soak/: platform.ts (the platform child and its probes), client.ts (requests and outcomes),
 * documents.ts (logins and documents), vus.ts (the load generator), report.ts (figures, verdict).
 *
 * Flags: --duration=300 --vus=50 --think-ms=1000 --sample-s=2 --settle-s=60 --ws-max=100 --warmup-s=60
 *        --p95=300 --max-error-pct=1 --max-rss-growth-pct=10 --healthz-ms=100
 */
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { numArg, type Bench } from './lib/bench.js';
import { ms } from './lib/format.js';
import { onCleanup, REPO_ROOT } from './lib/procs.js';
import { cpuBetween, machineUse, postgresPids, snapshot } from './lib/sysstat.js';
import { byOutcomeCount, load, pct, sleep, SoakClient } from './soak/client.js';
import { fdCount, heapMetrics, pgMonitor, rssMb, serverTcp, startPlatform } from './soak/platform.js';
import { reportSoak } from './soak/report.js';
import { openSubscriptions, operations, prepareEdits, signIn } from './soak/vus.js';
import { blogOperations, prepareBlog, reportBystanders, startBystanders } from './soak/blog.js';
import { DEMO_PASSWORD } from '@intranet/graph/areas';

const bench: Bench = {
  description:
    'Soak: 50 virtual users (lists, details, edits with versions, week grid, blog reads, comments, likes, uploads, subscriptions) and a hostile client for 5 minutes against the platform as npm start runs it',
  async run({ args, log }) {
    const durationS = numArg(args, 'duration', 300);
    const nVus = numArg(args, 'vus', 50);
    const thinkMs = numArg(args, 'think-ms', 1000);
    const sampleS = numArg(args, 'sample-s', 2);
    const settleS = numArg(args, 'settle-s', 60);
    const wsMax = numArg(args, 'ws-max', 100);
    const p95Limit = numArg(args, 'p95', 300);
    const maxErrorPct = numArg(args, 'max-error-pct', 1);
    const maxRssGrowthPct = numArg(args, 'max-rss-growth-pct', 10);
    const warmS = numArg(args, 'warmup-s', Math.min(60, 0.2 * durationS));
    const healthzLimitMs = numArg(args, 'healthz-ms', 100);
    const t0 = performance.now();
    log(
      `load at start: ${load()} (1/5/15 min), ${os.cpus().length} cores; ${nVus} VUs for ${durationS} s, think ${thinkMs} ms`,
    );

    // --- the platform, as `npm start` runs it
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const logFile = path.join(REPO_ROOT, 'bench/results', `soak-server-${stamp}.log`);
    const platform = await startPlatform({
      env: { WS_MAX_SOCKETS_PER_USER: String(wsMax), LOG_LEVEL: 'warn' },
      logFile,
    });
    const { url, pid, port } = platform;
    log(
      `platform: dist/bin/start.js pid ${pid} at ${url}, embedded PostgreSQL in ${platform.pgData}, demo company; ready in ${((performance.now() - t0) / 1000).toFixed(1)} s; server log ${path.relative(REPO_ROOT, logFile)}`,
    );
    const pgmon = await pgMonitor(platform.dbUrl);

    const client = new SoakClient(port);
    onCleanup('http agents', () => client.agents.forEach((a) => a.destroy()));
    const { samples } = client;
    const now = client.now;

    // --- the baseline, before any VU connects
    // The backends' count at rest moves by one (the relay's and the job pollers' pool connections come
    // and go with tarn's 30 s idle timeout): the baseline is the highest of 3 s of samples.
    await sleep(1000);
    const tcp0 = serverTcp(pid, port);
    let pg0 = await pgmon.backends();
    for (let k = 0; k < 6; k++) {
      await sleep(500);
      const b = await pgmon.backends();
      if (b.total > pg0.total) pg0 = b;
    }
    const pgDetail0 = await pgmon.detail();
    const fd0 = fdCount(pid);
    const rss0 = rssMb(pid);
    log(
      `before the load: server TCP connections on :${port} ${tcp0.open} ${JSON.stringify(tcp0.byState)}, database backends ${pg0.total} (idle ${pg0.idle}, active ${pg0.active}, other ${pg0.other}), server fds ${fd0}, RSS ${rss0?.toFixed(0)} MB`,
    );
    log(`  backends: ${pgDetail0.join('; ')}`);

    const vus = await signIn(client, nVus, log);
    const edits = await prepareEdits(client, vus, log);
    await openSubscriptions(client, url, vus, edits.week, log);
    const blog = await prepareBlog(client, vus, log);
    const { choose, counters } = operations(client, edits, blogOperations(client, blog));
    const hostileLogin = await client.request(false, 'POST', '/api/auth/login', null, {
      loginId: 'staff',
      password: DEMO_PASSWORD,
    });
    const hostileToken = (JSON.parse(hostileLogin.body) as { token: string }).token;

    // --- samplers: RSS (every --sample-s), TCP, fds and database backends
    const rss: { at: number; mb: number }[] = [];
    const heap: { at: number; heapUsedMb: number; heapTotalMb: number; externalMb: number; handles: number }[] = [];
    const probes: { at: number; tcp: number; pg: number; fds: number }[] = [];
    log(
      `VUs connected: server TCP connections on :${port} ${serverTcp(pid, port).open}, database backends ${(await pgmon.backends()).total}, server fds ${fdCount(pid)}, RSS ${rssMb(pid)?.toFixed(0)} MB`,
    );
    const pgPids0 = postgresPids(platform.pgData);
    const m0 = snapshot([...pgPids0, pid, process.pid]);
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();

    const loadAtStart = load();
    client.loadStart = performance.now();
    const bystanders = startBystanders(client, url, hostileToken, blog.postsOf.get('staff')![0]!);
    const deadline = client.loadStart + durationS * 1000;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const mb = rssMb(pid);
        if (mb !== null) rss.push({ at: now(), mb });
        const h = await heapMetrics(platform.metricsUrl);
        if (h) heap.push({ at: now(), ...h });
        try {
          probes.push({
            at: now(),
            tcp: serverTcp(pid, port).open,
            pg: (await pgmon.backends()).total,
            fds: fdCount(pid) ?? NaN,
          });
        } catch {
          /* the monitor connection failed: no probe this time */
        }
        await sleep(sampleS * 1000);
      }
    })();
    let lastMinute = -1;
    const progress = setInterval(() => {
      const minute = Math.floor(now() / 60_000);
      if (minute === lastMinute) return;
      lastMinute = minute;
      const last = samples.filter((s) => s.at >= now() - 60_000);
      const lat = last.map((s) => s.ms).sort((a, b) => a - b);
      if (minute > 0)
        log(
          `  ${minute} min: ${last.length} requests in the last minute, p95 ${ms(pct(lat, 0.95))} ms, errors ${last.filter((s) => s.outcome === 'error').length}, conflicts ${last.filter((s) => s.outcome === 'conflict').length}, RSS ${rss[rss.length - 1]?.mb.toFixed(0)} MB, load ${load()}`,
        );
    }, 5000);

    await Promise.all(
      vus.map(async (vu) => {
        await sleep(Math.random() * thinkMs); // staggered start
        while (performance.now() < deadline && !platform.exit()) {
          await choose(vu).run(vu);
          await sleep(thinkMs * (0.5 + Math.random()));
        }
      }),
    );
    const loadSeconds = (performance.now() - client.loadStart) / 1000;
    await bystanders.stop();
    clearInterval(progress);
    const died = platform.exit();
    if (died) {
      sampling = false;
      for (const vu of vus) vu.closing = true;
      const lines = platform.logLines();
      throw new Error(
        `the platform (pid ${pid}) exited during the load, ${loadSeconds.toFixed(0)} s in, at ${died.at.toISOString()}: code ${died.code}, signal ${died.signal} ` +
          `(exit code 0 with no signal of its own: it was stopped by a SIGINT/SIGTERM/SIGHUP from outside the bench). ${samples.length} requests until then, ` +
          `${byOutcomeCount(samples, 'error')} errors; its last warn/error lines: ${lines.first.slice(-3).join(' | ').slice(0, 1500)}; log ${path.relative(REPO_ROOT, logFile)}`,
      );
    }
    lag.disable();
    const pgPids1 = [...new Set([...pgPids0, ...postgresPids(platform.pgData)])];
    const m1 = snapshot([...pgPids1, pid, process.pid]);
    const use = machineUse(m0, m1, pgPids1, [pid, process.pid]);
    const serverCpuPct = m0 && m1 ? (cpuBetween(m0, m1, [pid]) / (m1.at - m0.at)) * 100 : NaN;
    const benchCpuPct = m0 && m1 ? (cpuBetween(m0, m1, [process.pid]) / (m1.at - m0.at)) * 100 : NaN;
    const pgCpuPct = m0 && m1 ? (cpuBetween(m0, m1, pgPids1) / (m1.at - m0.at)) * 100 : NaN;
    const peakTcp = Math.max(...probes.map((p) => p.tcp));
    const peakPg = Math.max(...probes.map((p) => p.pg));
    const loadAtEnd = load();

    // --- close everything (after the last saves' events had time to arrive), then wait for the
    // server's sockets and the pool to come back
    await sleep(3000);
    for (const vu of vus) vu.closing = true;
    await Promise.all(
      vus.map(
        (vu) =>
          new Promise<void>((r) => {
            const ws = vu.ws;
            if (!ws || ws.readyState === WebSocket.CLOSED) return r();
            const t = setTimeout(() => (ws.terminate(), r()), 5000);
            ws.once('close', () => (clearTimeout(t), r()));
            ws.close(1000, 'bench done');
          }),
      ),
    );
    client.agents.forEach((a) => a.destroy());
    const e0 = performance.now();
    let tcp1 = serverTcp(pid, port);
    let pg1 = await pgmon.backends();
    const tcpJustAfter = tcp1.open;
    const pgJustAfter = pg1.total;
    let tcpBackS = NaN;
    let pgBackS = NaN;
    while (performance.now() - e0 < settleS * 1000) {
      tcp1 = serverTcp(pid, port);
      pg1 = await pgmon.backends();
      const s = (performance.now() - e0) / 1000;
      if (Number.isNaN(tcpBackS) && tcp1.open <= tcp0.open) tcpBackS = s;
      if (Number.isNaN(pgBackS) && pg1.total <= pg0.total) pgBackS = s;
      if (!Number.isNaN(tcpBackS) && !Number.isNaN(pgBackS)) break;
      await sleep(1000);
    }
    sampling = false;
    await sampler;
    const fd1 = fdCount(pid);
    const rssEnd = rssMb(pid);
    const pgDetail = pg1.total > pg0.total ? await pgmon.detail() : [];

    const outcome = reportSoak({
      log,
      client,
      vus,
      counters,
      edits,
      rss,
      heap,
      probes,
      loadSeconds,
      peakTcp,
      peakPg,
      loadAtStart,
      loadAtEnd,
      lag,
      platform,
      logFile,
      t0,
      bystanders: reportBystanders(bystanders, healthzLimitMs),
      flags: { nVus, durationS, thinkMs, wsMax, p95Limit, maxErrorPct, maxRssGrowthPct, settleS, warmS },
      before: { tcp: tcp0, pg: pg0, pgDetail: pgDetail0, fds: fd0, rssMb: rss0 },
      after: { tcp: tcp1, pg: pg1, pgDetail, fds: fd1, rssMb: rssEnd, tcpJustAfter, pgJustAfter, tcpBackS, pgBackS },
      cpu: { serverPct: serverCpuPct, pgPct: pgCpuPct, benchPct: benchCpuPct, use },
    });
    await pgmon.close();
    await platform.stop();
    return outcome;
  },
};

export default bench;
