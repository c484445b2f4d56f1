/**
 * Open-loop load at a fixed request rate (the wrk2 model): request i is due at start + i/rate and is
 * sent then, whether or not earlier ones have answered; its latency is measured from that scheduled
 * time, so queueing anywhere (client sockets, server, database) is counted and a stalled server
 * cannot hide its stall by slowing the sender down (no coordinated omission).
 */
import http from 'node:http';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { MachineUse } from './sysstat.js';

export interface Target {
  name: string;
  url: string;
  path: string;
  headers: Record<string, string>;
  /** Request bodies; each request takes one, in a seeded pseudo-random order shared by all targets. */
  bodies: Buffer[];
  /** Whether a 200 answer is a success (e.g. has data and no errors). */
  ok: (body: Buffer) => boolean;
}

export interface StepResult {
  target: string;
  rate: number;
  durationS: number;
  scheduled: number;
  sent: number;
  ok: number;
  errors: number;
  /** Successful answers per second over the step (first send to last answer). */
  achievedRps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
  /** The step was cut short: more than maxInFlight requests outstanding. */
  saturated: boolean;
  firstError?: string;
  /** Load generator: CPU (% of one core) and its own event-loop delay p99 (ms), to spot a struggling client. */
  clientCpuPct: number;
  clientLagP99: number;
  pass?: boolean;
  server?: { cpuPct: number; cpuMsPerReq: number; elu: number; rssMb: number };
  /** Machine-wide CPU during the step (see sysstat.ts), with PostgreSQL's CPU per successful request. */
  machine?: (MachineUse & { pgMsPerReq: number }) | null;
}

/**
 * Each step's sorted latencies (ms), kept out of the step's JSON: pooling the samples of several
 * rounds gives a p99 that means something where one round is too short to have one.
 */
export const stepSamples = new WeakMap<StepResult, Float64Array>();

/** The p-quantile (0 < p ≤ 1) of sorted samples: the smallest sample with at least p of them at or below it. */
export const quantile = (sorted: Float64Array, p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] : NaN;

export function keepAliveAgent(maxSockets: number): http.Agent {
  // Free sockets close before the server's 5 s keep-alive timeout, so no request lands on a closing socket.
  return new http.Agent({ keepAlive: true, maxSockets, timeout: 4000 });
}

function lcg(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296;
}

export async function runStep(
  target: Target,
  agent: http.Agent,
  opts: { rate: number; durationMs: number; timeoutMs?: number; maxInFlight?: number; seed?: number },
): Promise<StepResult> {
  const { rate, durationMs } = opts;
  const timeoutMs = opts.timeoutMs ?? 5000;
  // Half a second of backlog means p99 is lost anyway: stop instead of burying the server.
  const maxInFlight = opts.maxInFlight ?? Math.max(100, Math.ceil(rate * 0.5));
  const url = new URL(target.url);
  const total = Math.max(1, Math.round((rate * durationMs) / 1000));
  const interval = 1000 / rate;
  const rand = lcg(opts.seed ?? 12345);
  const order = Array.from({ length: total }, () => Math.floor(rand() * target.bodies.length));
  const latencies = new Float64Array(total);
  let nLat = 0;
  let sent = 0;
  let finished = 0;
  let ok = 0;
  let errors = 0;
  let inFlight = 0;
  let saturated = false;
  let firstError: string | undefined;
  let lastDone = 0;
  const lag = monitorEventLoopDelay({ resolution: 5 });
  lag.enable();
  const cpu0 = process.cpuUsage();

  let resolveAll!: () => void;
  const allDone = new Promise<void>((r) => (resolveAll = r));
  let sendingDone = false;
  const settle = () => {
    if (sendingDone && finished === sent) resolveAll();
  };
  const fail = (msg: string) => {
    errors++;
    firstError ??= msg;
  };

  const fire = (i: number, scheduledAt: number) => {
    inFlight++;
    sent++;
    const body = target.bodies[order[i]];
    let closed = false;
    const done = (err?: string, status?: number, payload?: Buffer) => {
      if (closed) return;
      closed = true;
      inFlight--;
      finished++;
      const now = performance.now();
      lastDone = now;
      if (err) fail(err);
      else if (status !== 200) fail(`HTTP ${status}: ${payload?.toString('utf8', 0, 200)}`);
      else if (!target.ok(payload!)) fail(`bad answer: ${payload!.toString('utf8', 0, 200)}`);
      else {
        ok++;
        latencies[nLat++] = now - scheduledAt;
      }
      settle();
    };
    const req = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: target.path,
        method: 'POST',
        headers: { ...target.headers, 'content-length': String(body.length) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(undefined, res.statusCode, Buffer.concat(chunks)));
        res.on('error', (e) => done(e.message));
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`timeout after ${timeoutMs} ms`)));
    req.on('error', (e) => done(e.message));
    req.end(body);
  };

  const start = performance.now() + 2;
  await new Promise<void>((resolveSending) => {
    const tick = () => {
      const now = performance.now();
      const due = Math.min(total, Math.floor((now - start) / interval) + 1);
      while (sent < due) {
        if (inFlight >= maxInFlight) {
          saturated = true;
          break;
        }
        fire(sent, start + sent * interval);
      }
      // Sleep until the next request is due (timers fire ≥ 1 ms late; the lateness is counted).
      if (sent < total && !saturated) setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
      else resolveSending();
    };
    setTimeout(tick, 1);
  });
  sendingDone = true;
  settle();
  await allDone; // every request ends: answer, error or its own timeout
  const cpu = process.cpuUsage(cpu0);
  lag.disable();

  const elapsed = Math.max(lastDone, start + (sent - 1) * interval) - start;
  const sorted = latencies.subarray(0, nLat).sort();
  const mean = nLat ? sorted.reduce((a, b) => a + b, 0) / nLat : NaN;
  const result: StepResult = {
    target: target.name,
    rate,
    durationS: durationMs / 1000,
    scheduled: total,
    sent,
    ok,
    errors: errors + (total - sent),
    achievedRps: elapsed > 0 ? (ok * 1000) / elapsed : 0,
    p50: quantile(sorted, 0.5),
    p90: quantile(sorted, 0.9),
    p99: quantile(sorted, 0.99),
    max: nLat ? sorted[nLat - 1] : NaN,
    mean,
    saturated,
    firstError:
      saturated && !firstError
        ? `saturated: over ${maxInFlight} requests outstanding, ${total - sent} not sent`
        : firstError,
    clientCpuPct: ((cpu.user + cpu.system) / 1000 / elapsed) * 100,
    clientLagP99: lag.percentile(99) / 1e6,
  };
  stepSamples.set(result, sorted);
  return result;
}
