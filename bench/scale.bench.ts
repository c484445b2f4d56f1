/**
 * `npm run bench -- scale [--duration=120]`: several instances as an operator runs them (issue 41):
 * two graph instances and two worker processes against one PostgreSQL, one Kafka broker and one
 * S3-compatible store (SeaweedFS: every file in one bucket) on this machine (bench/scale/cluster.ts), 50 virtual users across both behind a load balancer (each VU's
 * home is one instance; while it is down its requests go to the other), the soak's mix plus the
 * blog's reads, comments, likes and uploads (bench/soak/), and one instance SIGKILLed at 40 % of the
 * run and started again 5 s later.
 *
 * Measured and judged:
 *   errors    < 1 % of the VUs' requests (5xx, INTERNAL_SERVER_ERROR, network): only the requests in
 *             flight on the killed instance may fail;
 *   live      p99 < 250 ms from a write sent to instance A to the first frame showing it (or a
 *             later write: a frame carries the entry as it is when delivered) on a subscription
 *             held on instance B (a schedule entry rewritten every 300 ms; writes while B is down
 *             are not expected): every write shown, no frame twice, none older than one before;
 *   writes    every acknowledged comment is in the database, the probe entry's stored version is at
 *             least the last acknowledged one, nothing parked as a dead letter, the outbox empty;
 *   files     a picture uploaded through A is served by B, a demo attachment by both;
 *   capacity  after the run, closed-loop VUs (no think time) for --phase-s against instance A alone,
 *             then against both: requests per second and p99 of each, and their ratio (on 2 cores
 *             a second instance adds overhead rather than capacity: the figure shows its cost).
 *
 * Flags: --duration=120 --vus=50 --think-ms=1000 --kill-at=0.4 --down-s=5 --phase-s=20 --phase-vus=20
 *        --max-error-pct=1 --live-p99=250
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { numArg, type Bench } from './lib/bench.js';
import { ms, table } from './lib/format.js';
import { REPO_ROOT } from './lib/procs.js';
import { blogOperations, prepareBlog } from './soak/blog.js';
import { load, pct, sleep, type Sample } from './soak/client.js';
import { openSubscriptions, operations, prepareEdits, signIn } from './soak/vus.js';
import { startCluster, type Instance } from './scale/cluster.js';
import { checkFilesAcross, checkIntegrity, liveSummary, startLiveProbe } from './scale/probes.js';

const bench: Bench = {
  description:
    'Scale: two graph instances and two workers on one PostgreSQL and one Kafka, 50 VUs across both, one instance killed and restarted; live across instances, acknowledged writes, capacity of two against one',
  async run({ args, log }) {
    const durationS = numArg(args, 'duration', 120);
    const nVus = numArg(args, 'vus', 50);
    const thinkMs = numArg(args, 'think-ms', 1000);
    const killAt = numArg(args, 'kill-at', 0.4);
    const downS = numArg(args, 'down-s', 5);
    const phaseS = numArg(args, 'phase-s', 20);
    const phaseVus = numArg(args, 'phase-vus', 20);
    const maxErrorPct = numArg(args, 'max-error-pct', 1);
    const liveP99 = numArg(args, 'live-p99', 250);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    log(`load at start: ${load()}; ${nVus} VUs for ${durationS} s, think ${thinkMs} ms`);

    const cluster = await startCluster({ instances: 2, workers: 2, stamp, log });
    const [a, b] = cluster.instances as [Instance, Instance];
    try {
      // Sessions, the records the VUs edit and the posts they use: set up through A (B sees the same database).
      const vus = await signIn(a.client, nVus, log);
      const edits = await prepareEdits(a.client, vus, log);
      const blog = await prepareBlog(a.client, vus, log);
      const comments: number[] = [];
      const chooseOf = (i: Instance) =>
        operations(
          i.client,
          edits,
          blogOperations(i.client, blog, (id) => comments.push(id)),
        ).choose;
      const choosers = new Map(cluster.instances.map((i) => [i, chooseOf(i)]));
      for (const inst of cluster.instances) {
        const mine = vus.filter((v) => cluster.route(v) === inst);
        await openSubscriptions(inst.client, inst.platform.url, mine, edits.week, log);
      }
      const admin = vus.find((v) => v.login === 'admin')!;
      const probe = await startLiveProbe(a, b, admin.token, edits.week);

      // --- the load, with B killed and restarted in the middle
      const t0 = performance.now();
      for (const i of cluster.instances) for (const c of i.clients) c.loadStart = t0;
      const deadline = t0 + durationS * 1000;
      const events: string[] = [];
      const killer = (async () => {
        await sleep(killAt * durationS * 1000);
        cluster.kill(b);
        events.push(`${((performance.now() - t0) / 1000).toFixed(1)} s: instance B SIGKILLed`);
        log(`  ${events.at(-1)}`);
        await sleep(downS * 1000);
        const r0 = performance.now();
        await cluster.restart(b);
        choosers.set(b, chooseOf(b));
        events.push(
          `${((performance.now() - t0) / 1000).toFixed(1)} s: instance B answering again (restart took ${((performance.now() - r0) / 1000).toFixed(1)} s)`,
        );
        log(`  ${events.at(-1)}`);
      })();
      await Promise.all(
        vus.map(async (vu) => {
          await sleep(Math.random() * thinkMs);
          while (performance.now() < deadline) {
            const inst = cluster.route(vu);
            await choosers.get(inst)!(vu).run(vu);
            await sleep(thinkMs * (0.5 + Math.random()));
          }
        }),
      );
      await killer;
      await probe.stop();
      const samples = cluster.instances.flatMap((i) => i.clients.flatMap((c) => c.samples));
      const failures = cluster.instances.flatMap((i) => i.clients.flatMap((c) => c.failures));
      const errors = samples.filter((s) => s.outcome === 'error').length;
      const errorPct = (errors / Math.max(1, samples.length)) * 100;
      const live = liveSummary(probe);
      for (const vu of vus) vu.closing = true;
      for (const vu of vus) (vu.ws as WebSocket | undefined)?.close(1000, 'bench done');

      // --- every acknowledged write stored, nothing consumed twice (after the workers drained)
      await sleep(3000);
      const integrity = await checkIntegrity(cluster.db.url, comments, probe);
      const files = await checkFilesAcross(a, b, admin.token, blog.dataUrl);

      // --- capacity: A alone, then A and B
      const phase = async (targets: Instance[]) => {
        for (const i of targets) i.client.samples.length = 0;
        const p0 = performance.now();
        for (const i of targets) i.client.loadStart = p0;
        const end = p0 + phaseS * 1000;
        const phaseChoosers = new Map(targets.map((i) => [i, chooseOf(i)]));
        await Promise.all(
          vus.slice(0, phaseVus).map(async (vu, k) => {
            const inst = targets[k % targets.length]!;
            while (performance.now() < end) await phaseChoosers.get(inst)!(vu).run(vu);
          }),
        );
        const s: Sample[] = targets.flatMap((i) => i.client.samples);
        const lat = s.map((x) => x.ms).sort((x, y) => x - y);
        return {
          rps: s.length / ((performance.now() - p0) / 1000),
          p50: pct(lat, 0.5),
          p99: pct(lat, 0.99),
          errors: s.filter((x) => x.outcome === 'error').length,
        };
      };
      const one = await phase([a]);
      const two = await phase([a, b]);

      // --- report
      const verdict = {
        errors: errorPct < maxErrorPct,
        live:
          live.delivered > 0 &&
          live.p99 < liveP99 &&
          live.duplicates === 0 &&
          live.regressions === 0 &&
          live.missed === 0,
        writes: integrity.ok,
        files: files.ok,
      };
      const pf = (x: boolean) => (x ? 'PASS' : 'FAIL');
      log(`\nevents: ${events.join('; ')}`);
      const missedAt = probe.missedAt().map((t) => ((t - t0) / 1000).toFixed(1));
      if (missedAt.length) log(`live writes never delivered, sent at (s): ${missedAt.join(', ')}`);
      if (failures.length)
        log(
          `errors (first 5): ${failures
            .slice(0, 5)
            .map((f) => `${f.kind} ${f.detail.slice(0, 120)}`)
            .join(' | ')}`,
        );
      log(
        `consumed (consumer: rows / distinct events): ${integrity.consumed.map((c) => `${c.consumer} ${c.n}/${c.events}`).join(', ')}`,
      );
      log(
        table(
          ['target', 'measured', 'verdict'],
          [
            [
              `errors < ${maxErrorPct} %`,
              `${errors} of ${samples.length} requests = ${errorPct.toFixed(2)} % (all instances, kill included)`,
              pf(verdict.errors),
            ],
            [
              `live A→B p99 < ${liveP99} ms, in order`,
              `${live.delivered} of ${live.acked} writes delivered: p50 ${ms(live.p50)} ms, p99 ${ms(live.p99)} ms, max ${ms(live.max)} ms; never shown ${live.missed}, shown twice ${live.duplicates}, went back ${live.regressions}; reconnects ${probe.reconnects}`,
              pf(verdict.live),
            ],
            [
              'acknowledged writes stored',
              `comments ${integrity.commentsPresent} of ${integrity.commentsAcked}; probe version ${integrity.probeVersionStored} ≥ ${integrity.probeVersionAcked}; dead letters ${integrity.deadLetters}; outbox unsent ${integrity.unsent}`,
              pf(verdict.writes),
            ],
            [
              'files: uploaded on A, read on B',
              `upload ${files.uploadStatus}, read through B ${files.readOnOther}; a demo attachment through A and B ${files.demoAttachment.join(', ') || 'none found'} (S3: ${cluster.s3.endpoint})`,
              pf(verdict.files),
            ],
            [
              'capacity, 2 instances / 1',
              `${two.rps.toFixed(1)} / ${one.rps.toFixed(1)} req/s = ${(two.rps / one.rps).toFixed(2)}× (p99 ${ms(two.p99)} vs ${ms(one.p99)} ms; ${phaseVus} VUs, no think time)`,
              'reported',
            ],
          ],
        ),
      );
      const pass = verdict.errors && verdict.live && verdict.writes && verdict.files;
      return {
        pass,
        headline: `2 instances + 2 workers, ${nVus} VUs ${durationS} s, B killed at ${(killAt * 100).toFixed(0)} %: errors ${errorPct.toFixed(2)} %, live A→B p50/p99 ${ms(live.p50)}/${ms(live.p99)} ms (never shown ${live.missed}, twice ${live.duplicates}, back ${live.regressions}), writes ${integrity.ok ? 'all stored' : 'MISSING'}, capacity 2/1 ${(two.rps / one.rps).toFixed(2)}×; ${pass ? 'PASS' : 'FAIL'} (load ${load()})`,
        results: {
          flags: { durationS, nVus, thinkMs, killAt, downS, phaseS, phaseVus },
          requests: samples.length,
          errors,
          errorPct,
          live,
          integrity,
          files,
          capacity: { one, two, ratio: two.rps / one.rps },
          events,
          logs: path.relative(REPO_ROOT, path.join(REPO_ROOT, 'bench/results', `scale-*-${stamp}.log`)),
        },
      };
    } finally {
      await cluster.stop();
    }
  },
};

export default bench;
