/**
 * Bench child (load generator for bench/live.bench.ts and bench/likes.bench.ts): holds many
 * WebSocket connections and records when each change reaches each of them.
 *
 *   graphql  the graphql-transport-ws protocol as the web app speaks it (session cookie + Origin,
 *            connection_init → connection_ack → subscribe with the bench's document), one
 *            subscription per connection (one browser tab);
 *   bare     plain `ws` connections that only listen.
 *
 * Every received `next` frame is parsed (JSON.parse, once per distinct frame text: see parseFrame)
 * and keyed by the bench's frame kind (frames.ts: schedule-frames.ts, ../likes/like-frames.ts). In
 * graphql mode each delivery is also checked against what its viewer may see, and a delivery to a
 * viewer who must not receive the change at all is a violation (a leak). Receipt times are epoch
 * milliseconds with sub-ms precision (performance.timeOrigin + performance.now()), comparable across
 * the bench's processes.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { runChild } from '../lib/child.js';
import type { FrameKind } from './frames.js';

interface Conn {
  viewerId: number;
  ws?: WebSocket;
  ready: boolean;
  onReady?: () => void;
}
interface Row {
  recv: Float64Array; // per connection, NaN until received
  count: number;
}

const now = () => performance.timeOrigin + performance.now();
let conns: Conn[] = [];
let mode: 'graphql' | 'bare' = 'graphql';
const rows = new Map<string, Row>();
let frames: FrameKind | undefined;
/** Per connection: whether its viewer must receive the changes (graphql mode; bare: all). */
let mustReceive: boolean[] = [];
let receivers = 0;
let duplicates = 0;
let violations = 0;
let firstViolation: string | undefined;
let unexpected = 0;
let firstUnexpected: string | undefined;
let closedEarly = 0;
let closing = false;
/** The first frame received per visibility class (for the bare baseline's frame and the report). */
const sampleFrames = new Map<string, string>();
const lag = monitorEventLoopDelay({ resolution: 5 });

function violation(msg: string) {
  violations++;
  firstViolation ??= msg;
}

type Message = { type?: string; id?: string; payload?: { data?: Record<string, unknown>; errors?: unknown } };

/** The bench's frame kind, from the module the parent names (absolute path). */
async function useFrames(file: unknown): Promise<FrameKind> {
  frames = ((await import(String(file))) as { frames: FrameKind }).frames;
  return frames;
}
/**
 * Parsed frames by their exact text. Every subscriber of one visibility class receives the same
 * bytes, so a generator holding 2,500 connections would otherwise parse the same 2.5 KB document
 * 2,500 times per change and delay the receipt of the frames queued behind (that is client cost,
 * not delivery). Parsing once per distinct frame keeps the receive path short; each delivery is
 * still checked against its own viewer below. Cleared with every open().
 */
const parsed = new Map<string, Message | null>();

function parseFrame(raw: string): Message | null {
  let msg = parsed.get(raw);
  if (msg !== undefined) return msg;
  try {
    msg = JSON.parse(raw) as Message;
  } catch {
    msg = null;
  }
  if (parsed.size < 10_000) parsed.set(raw, msg);
  return msg;
}

function onFrame(i: number, data: WebSocket.RawData) {
  const t = now();
  const raw = data.toString();
  const msg = parseFrame(raw);
  if (!msg) {
    unexpected++;
    firstUnexpected ??= raw.slice(0, 200);
    return;
  }
  if (mode === 'graphql' && msg.type === 'connection_ack') return subscribe(i);
  if (msg.type !== 'next') {
    if (msg.type !== 'pong' && msg.type !== 'ping') {
      unexpected++;
      firstUnexpected ??= raw.slice(0, 300);
    }
    return;
  }
  const change = msg.payload?.data?.[frames!.field];
  const key = change ? frames!.keyOf(change) : undefined;
  if (!key) {
    unexpected++;
    firstUnexpected ??= raw.slice(0, 300);
    return;
  }
  const viewer = conns[i].viewerId;
  if (!mustReceive[i]) return violation(`leak: viewer ${viewer} must not receive ${key}, got ${raw.slice(0, 200)}`);
  let row = rows.get(key);
  if (!row) rows.set(key, (row = { recv: new Float64Array(conns.length).fill(NaN), count: 0 }));
  if (!Number.isNaN(row.recv[i])) duplicates++;
  else {
    row.recv[i] = t;
    row.count++;
    if (row.count === receivers) process.send?.({ type: 'complete', key });
  }
  if (mode === 'graphql') {
    const { cls, problem } = frames!.check(viewer, raw, change);
    if (!sampleFrames.has(cls)) sampleFrames.set(cls, raw);
    if (problem) violation(problem);
  }
}

let query = '';
let operationName = '';
let variables: Record<string, unknown> = {};
function subscribe(i: number) {
  const c = conns[i];
  c.ws!.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { operationName, query, variables } }));
  c.ready = true;
  c.onReady?.();
}

async function open(msg: Record<string, unknown>) {
  mode = msg.mode as 'graphql' | 'bare';
  query = String(msg.query ?? '');
  operationName = String(msg.operationName ?? '');
  const kind = await useFrames(msg.frames);
  variables = (msg.variables as Record<string, unknown>) ?? {};
  const url = String(msg.url);
  const origin = String(msg.origin ?? '');
  const list = msg.conns as { viewerId: number; token?: string }[];
  const parallel = Number(msg.parallel ?? 100);
  conns = list.map((c) => ({ viewerId: c.viewerId, ready: false }));
  mustReceive = conns.map((c) => mode === 'bare' || !kind.receives || kind.receives(c.viewerId));
  receivers = mustReceive.filter(Boolean).length;
  closing = false;
  rows.clear();
  parsed.clear();
  let next = 0;
  let done = 0;
  let failed = 0;
  let firstError: string | undefined;
  const t0 = performance.now();
  await new Promise<void>((resolve) => {
    const start = () => {
      if (next >= list.length) return;
      const i = next++;
      const c = conns[i];
      const headers: Record<string, string> = {};
      if (mode === 'graphql') {
        headers.cookie = `intranet_sid=${list[i].token}`;
        headers.origin = origin;
      }
      const ws = new WebSocket(url, mode === 'graphql' ? 'graphql-transport-ws' : undefined, {
        headers,
        perMessageDeflate: false,
      });
      c.ws = ws;
      let settled = false;
      const settle = (err?: string) => {
        if (settled) return;
        settled = true;
        if (err) {
          failed++;
          firstError ??= err;
        }
        if (++done === list.length) resolve();
        else start();
      };
      ws.on('message', (d) => onFrame(i, d));
      ws.on('error', (e) => settle(e.message));
      ws.on('close', (code, reason) => {
        if (!settled) settle(`closed ${code} ${reason}`);
        else if (!closing) closedEarly++;
      });
      ws.on('open', () => {
        if (mode === 'graphql') ws.send(JSON.stringify({ type: 'connection_init', payload: {} }));
        else {
          c.ready = true;
          settle();
        }
      });
      c.onReady = () => settle(); // graphql: once subscribed (after connection_ack)
    };
    for (let k = 0; k < Math.min(parallel, list.length); k++) start();
  });
  lag.enable();
  return { opened: list.length - failed, failed, firstError, ms: performance.now() - t0 };
}

async function closeAll() {
  closing = true;
  const all = conns.map(
    (c) =>
      new Promise<void>((r) => {
        if (!c.ws || c.ws.readyState === WebSocket.CLOSED) return r();
        c.ws.once('close', () => r());
        c.ws.terminate();
      }),
  );
  await Promise.all(all);
  conns = [];
  rows.clear();
  lag.disable();
  return {};
}

await runChild(async () => ({ info: { pid: process.pid }, stop: async () => void (await closeAll()) }), {
  // Opening thousands of connections outlasts an IPC request's timeout: answer at once, report {type:'opened'} when done.
  open: (m) => {
    void open(m).then(
      (r) => process.send?.({ type: 'opened', ...r }),
      (err: Error) => process.send?.({ type: 'opened', opened: 0, failed: -1, firstError: err.message }),
    );
    return {};
  },
  close: closeAll,
  expect: async (m) => {
    (await useFrames(m.frames)).expect(m.expects);
    return {};
  },
  /** Latencies of the given keys against reference times (epoch ms), and what is missing. */
  report: (m) => {
    const refs = m.refs as Record<string, number>;
    const lat: number[] = [];
    let missing = 0;
    let last = 0;
    for (const [key, ref] of Object.entries(refs)) {
      const row = rows.get(key);
      if (!row) {
        missing += receivers;
        continue;
      }
      for (let i = 0; i < row.recv.length; i++) {
        const t = row.recv[i];
        if (Number.isNaN(t)) {
          if (mustReceive[i]) missing++;
        } else {
          lat.push(Math.round((t - ref) * 100) / 100);
          if (t > last) last = t;
        }
      }
      if (m.forget !== false) rows.delete(key);
    }
    const out = {
      latencies: lat,
      missing,
      lastReceipt: last,
      duplicates,
      violations,
      firstViolation,
      unexpected,
      firstUnexpected,
      closedEarly,
      lagP99: lag.percentile(99) / 1e6,
      samples: Object.fromEntries(sampleFrames),
    };
    lag.reset();
    return out;
  },
});
