/**
 * What the scale bench checks beside the VUs' own figures: live delivery across instances (a writer
 * on one instance, a subscriber on another, every frame timed from its write and checked once), and
 * after the run, that every acknowledged write is in the database and nothing was consumed twice.
 */
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import WebSocket from 'ws';
import { CREATE_SCHEDULE, SCHEDULE_CHANGED, UPDATE_SCHEDULE } from '../soak/documents.js';
import { pct, sleep } from '../soak/client.js';
import type { Instance } from './cluster.js';

export interface LiveProbe {
  /** Write sent → the first frame showing it or a later write, per write (ms). */
  latencies: number[];
  acked: number;
  /** Writes acknowledged while the subscription was held whose frame never came (a loss). */
  missed(): number;
  /** When each missed write was sent (performance.now()). */
  missedAt(): number[];
  /** Frames showing the write the previous frame showed. */
  duplicates: number;
  /** Frames showing an older write than one shown before (the subscriber would go back). */
  regressions: number;
  reconnects: number;
  /** The highest version the writer had acknowledged. */
  lastAckedVersion: number;
  entryId: number;
  stop(): Promise<void>;
}

const gql = async (url: string, token: string, query: string, variables: Record<string, unknown>) => {
  const r = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
    signal: AbortSignal.timeout(10_000),
  });
  return (await r.json()) as { data?: Record<string, { id: number; version: number }>; errors?: unknown[] };
};

/** A schedule entry of `token`'s person, rewritten through `writer` every `everyMs`; `listener`'s subscription times each change. */
export async function startLiveProbe(
  writer: Instance,
  listener: Instance,
  token: string,
  week: { from: string; to: string },
  everyMs = 300,
): Promise<LiveProbe> {
  const input = (title: string, version?: number) => ({
    title,
    date: week.from,
    endDate: week.from,
    isAllDay: false,
    startTime: '18:00',
    endTime: '19:00',
    type: 'APPOINTMENT',
    description: null,
    syncGoogle: false,
    isPrivate: false,
    guestIds: [],
    externalGuests: [],
    ...(version === undefined ? {} : { version }),
  });
  const made = await gql(writer.platform.url, token, CREATE_SCHEDULE, { input: input('scale probe 0') });
  const entryId = made.data!.createSchedule!.id;
  let version = made.data!.createSchedule!.version;
  const sent = new Map<number, number>();
  const received = new Set<number>();
  let newest = 0;
  const out: LiveProbe = {
    latencies: [],
    acked: 0,
    duplicates: 0,
    regressions: 0,
    reconnects: 0,
    lastAckedVersion: version,
    entryId,
    missed: () => [...sent.keys()].filter((s) => !received.has(s)).length,
    missedAt: () => [...sent].filter(([s]) => !received.has(s)).map(([, t]) => t),
    stop: async () => undefined,
  };
  let running = true;
  let ws: WebSocket | null = null;
  /** Subscribed now: a write sent meanwhile must come back as a frame. */
  let listening = false;
  const connect = () =>
    new Promise<void>((resolve) => {
      const url = listener.platform.url;
      const socket = new WebSocket(url.replace('http', 'ws') + '/graphql', 'graphql-transport-ws', {
        headers: { cookie: `intranet_sid=${token}`, origin: url },
      });
      ws = socket;
      socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: {} })));
      socket.on('message', (d) => {
        const m = JSON.parse(d.toString()) as { type: string; payload?: { data?: Record<string, unknown> } };
        if (m.type === 'connection_ack') {
          socket.send(
            JSON.stringify({
              id: 'p',
              type: 'subscribe',
              payload: { query: SCHEDULE_CHANGED, variables: week, operationName: 'ScheduleChanged' },
            }),
          );
          listening = true;
          resolve();
        } else if (m.type === 'next') {
          const change = m.payload?.data?.scheduleChanged as { schedule?: { title?: string } } | undefined;
          const seq = Number(/^scale probe (\d+)$/.exec(change?.schedule?.title ?? '')?.[1] ?? NaN);
          if (!Number.isFinite(seq)) return;
          // A frame carries the entry as it is when delivered: it shows this write and every one
          // before it (a write whose own event is delivered after the next one's commit shows the
          // next one's title, and nothing changed is sent twice). Older than one shown: a regression.
          if (seq < newest) out.regressions++;
          else if (seq === newest) out.duplicates++;
          newest = Math.max(newest, seq);
          const now = performance.now();
          for (const [k, t] of sent)
            if (k <= seq && !received.has(k)) {
              received.add(k);
              out.latencies.push(now - t);
            }
        } else if (m.type === 'ping') socket.send(JSON.stringify({ type: 'pong' }));
      });
      socket.on('error', () => undefined);
      socket.on('close', () => {
        listening = false;
        resolve();
        if (!running) return;
        out.reconnects++;
        // As a browser behind the load balancer: back once the instance takes traffic again.
        const retry = () => (!running ? undefined : listener.up ? void connect() : void setTimeout(retry, 250));
        setTimeout(retry, 500);
      });
    });
  await connect();
  await sleep(500);
  const writing = (async () => {
    let seq = 0;
    while (running) {
      seq++;
      const t = performance.now();
      const expected = listening && listener.up;
      const r = await gql(writer.platform.url, token, UPDATE_SCHEDULE, {
        id: entryId,
        input: input(`scale probe ${seq}`, version),
      }).catch(() => null);
      const v = r?.data?.updateSchedule?.version;
      // Counted only while the subscription was held (its instance up, the socket subscribed): a
      // frame cannot reach a socket that is not there.
      if (v !== undefined) {
        version = v;
        out.lastAckedVersion = v;
        if (expected && listening) {
          sent.set(seq, t);
          out.acked++;
        }
      }
      await sleep(everyMs);
    }
  })();
  out.stop = async () => {
    running = false;
    await writing;
    await sleep(1000); // the last frames
    ws?.close();
  };
  return out;
}

export const liveSummary = (p: LiveProbe) => {
  const l = [...p.latencies].sort((a, b) => a - b);
  return {
    delivered: l.length,
    acked: p.acked,
    missed: p.missed(),
    duplicates: p.duplicates,
    regressions: p.regressions,
    p50: pct(l, 0.5),
    p99: pct(l, 0.99),
    max: l[l.length - 1] ?? NaN,
  };
};

/** After the run: acknowledged comments and the probe's last acknowledged version are in the database; consumption once per event. */
export async function checkIntegrity(dbUrl: string, comments: number[], probe: LiveProbe) {
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    const present = Number(
      (await c.query(`select count(*)::int as n from blog_comment where id = any($1::int[])`, [comments])).rows[0].n,
    );
    const version = Number(
      (await c.query(`select version from schedule where id = $1`, [probe.entryId])).rows[0]?.version ?? 0,
    );
    const consumed = (
      await c.query<{ consumer: string; n: number; events: number }>(
        `select consumer, count(*)::int as n, count(distinct event_id)::int as events from event_consumed group by consumer order by consumer`,
      )
    ).rows;
    const deadLetters = Number((await c.query(`select count(*)::int as n from event_dead_letter`)).rows[0].n);
    // The outbox keeps only what the relay has not sent yet (sent events move to outbox_sent).
    const unsent = Number((await c.query(`select count(*)::int as n from outbox_event`)).rows[0].n);
    return {
      commentsAcked: comments.length,
      commentsPresent: present,
      probeVersionAcked: probe.lastAckedVersion,
      probeVersionStored: version,
      consumed,
      deadLetters,
      unsent,
      ok: present === comments.length && version >= probe.lastAckedVersion && deadLetters === 0 && unsent === 0,
    };
  } finally {
    await c.end();
  }
}

/** Files across instances: a picture uploaded through one instance and read through the other, and a demo attachment read through both. */
export async function checkFilesAcross(one: Instance, other: Instance, token: string, dataUrl: string) {
  const auth = { authorization: `Bearer ${token}` };
  const up = await fetch(`${one.platform.url}/api/blog_images`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth },
    body: JSON.stringify({ name: 'scale.png', data_url: dataUrl }),
  });
  const url = ((await up.json()) as { file?: { url: string } }).file?.url;
  const readBack = url ? (await fetch(`${other.platform.url}${url}`, { headers: auth })).status : 0;
  const posts = (await (await fetch(`${other.platform.url}/api/blogs?limit=50`, { headers: auth })).json()) as {
    attachment?: { url: string } | null;
  }[];
  const attachment = posts.find((p) => p.attachment?.url)?.attachment?.url;
  const demo = attachment
    ? await Promise.all(
        [one, other].map(async (i) => (await fetch(`${i.platform.url}${attachment}`, { headers: auth })).status),
      )
    : [];
  return {
    uploadStatus: up.status,
    readOnOther: readBack,
    demoAttachment: demo,
    ok: up.status === 201 && readBack === 200 && demo.length === 2 && demo.every((s) => s === 200),
  };
}
