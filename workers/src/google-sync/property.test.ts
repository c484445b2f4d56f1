/**
 * Property test: random operations on both sides (our schedule service and the fake Google
 * directly) for several users, with injected faults (429, 5xx, 403 rate limits, 412 on patches,
 * expired sync tokens → 410), interleaved with pushes and pulls (half of the pulls run while
 * pushes are in flight). At the end both sides agree for every user, nothing is duplicated and
 * nothing deleted comes back.
 *
 * Runs in `npm test` (2,000 operations over 4 users). Seeded: a failure prints its seed and the
 * operations that touched the failing entries; replay or run longer with
 *   PROPERTY_GOOGLE_SEED=<seed> PROPERTY_GOOGLE_OPS=20000 npx vitest run workers/src/google-sync/property.test.ts
 * (PROPERTY_GOOGLE_SEED=random draws a seed; PROPERTY_GOOGLE_USERS sets the number of users,
 * PROPERTY_GOOGLE_CONCURRENT the share of pulls run concurrently with pushes, 0..1.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromGoogleEvent, isPushEventId } from '@intranet/graph/areas';
import { startHarness, type Harness } from './google-sync.test-support.js';

const env = (name: string) => process.env[`PROPERTY_GOOGLE_${name}`] ?? process.env[`PROPERTY_${name}`];
const SEED = env('SEED') === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(env('SEED') ?? 20261122);
const OPS = Number(env('OPS') ?? 2000);
const USERS = Number(env('USERS') ?? 4);
const CONCURRENT = Number(env('CONCURRENT') ?? 0.5);

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ users: USERS, maxAttempts: 10 });
  for (const u of h.users) await h.connect(u.id);
});
afterAll(async () => h?.close());

describe('property: two-way sync converges under random operations and faults', () => {
  it(
    `${OPS} random operations over ${USERS} users (seed ${SEED})`,
    { timeout: Math.max(120_000, OPS * 100) },
    async () => {
      const r = rng(SEED);
      const pick = <T>(xs: T[]): T | undefined => (xs.length ? xs[Math.floor(r() * xs.length)] : undefined);
      const day = () => `2026-12-${String(1 + Math.floor(r() * 28)).padStart(2, '0')}`;
      const slot = () => {
        const q = Math.floor(r() * 80); // 15-minute slots from 00:00
        const hh = (n: number) =>
          `${String(Math.floor(n / 4)).padStart(2, '0')}:${String((n % 4) * 15).padStart(2, '0')}`;
        return { startTime: hh(q), endTime: hh(q + 1 + Math.floor(r() * 8)) };
      };
      const em = () => h.db.orm.em.fork();
      const deletedHere = new Set<number>();
      const deletedOnGoogle = new Map<string, string>(); // event id → owner email
      const counts: Record<string, number> = {};
      const bump = (k: string) => (counts[k] = (counts[k] ?? 0) + 1);
      const ms: Record<string, number> = {}; // time spent per kind of operation
      let opStart = 0;
      const timed = (k: string) => (ms[k] = (ms[k] ?? 0) + Date.now() - opStart);
      /** Every operation, for the failure report: "#i user op target…". */
      const trace: string[] = [];
      const note = (i: number, u: { id: number }, what: string) =>
        trace.push(`#${i} user${h.users.indexOf(u as never)} ${what}`);
      h.fake.randomFaults = {
        rate: 0.04,
        random: r,
        // 412 only where Google can answer it (a patch with If-Match); 410 comes from expired sync tokens below.
        faults: [
          { status: 429 },
          { status: 500 },
          { status: 503 },
          { status: 403, reason: 'rateLimitExceeded' },
          { status: 403, reason: 'userRateLimitExceeded' },
          { status: 412, method: 'PATCH' },
        ],
      };
      const t0 = Date.now();
      for (let i = 0; i < OPS; i++) {
        const u = pick(h.users)!;
        const x = r();
        opStart = Date.now();
        if (x < 0.2) {
          const sync = r() < 0.85;
          const s = await h.schedules.create(h.ctx(u.id), {
            title: `ローカル${i}`,
            date: day(),
            ...slot(),
            syncGoogle: sync,
            isPrivate: r() < 0.2,
          });
          note(i, u, `local.create s${s.id} sync=${sync}`);
          bump('local.create');
          timed('local.create');
        } else if (x < 0.35) {
          const rows: { id: number; version: number; sync_google: boolean }[] = await em().execute(
            `select id, version, sync_google from schedule where owner_id = ? and (google_event_id is null or google_event_id like 'intra%') order by id limit 50`,
            [u.id],
          );
          const row = pick(rows);
          if (!row) continue;
          const d = day();
          const sync = r() < 0.1 ? !row.sync_google : row.sync_google;
          await h.schedules.update(h.ctx(u.id), row.id, {
            title: `更新${i}`,
            date: d,
            ...slot(),
            syncGoogle: sync,
            version: row.version,
          });
          note(i, u, `local.update s${row.id} sync=${sync}`);
          bump('local.update');
          timed('local.update');
        } else if (x < 0.45) {
          const rows: { id: number }[] = await em().execute(
            `select id from schedule where owner_id = ? and (google_event_id is null or google_event_id like 'intra%') order by id limit 50`,
            [u.id],
          );
          const row = pick(rows);
          if (!row) continue;
          await h.schedules.delete(h.ctx(u.id), row.id);
          deletedHere.add(row.id);
          note(i, u, `local.delete s${row.id}`);
          bump('local.delete');
          timed('local.delete');
        } else if (x < 0.6) {
          const d = day();
          const s = slot();
          const ev = h.fake.insert(u.email, {
            summary: `Google${i}`,
            start: { dateTime: `${d}T${s.startTime}:00+09:00` },
            end: { dateTime: `${d}T${s.endTime}:00+09:00` },
          });
          note(i, u, `google.insert ${ev.id}`);
          bump('google.insert');
          timed('google.insert');
        } else if (x < 0.72) {
          const ev = pick(h.fake.events(u.email).filter((e) => e.status !== 'cancelled'));
          if (!ev) continue;
          const d = day();
          const s = slot();
          h.fake.patch(
            u.email,
            ev.id,
            r() < 0.5
              ? { summary: `G更新${i}` }
              : {
                  summary: `G移動${i}`,
                  start: { dateTime: `${d}T${s.startTime}:00+09:00` },
                  end: { dateTime: `${d}T${s.endTime}:00+09:00` },
                },
          );
          note(i, u, `google.patch ${ev.id}`);
          bump('google.patch');
          timed('google.patch');
        } else if (x < 0.8) {
          const ev = pick(h.fake.events(u.email).filter((e) => e.status !== 'cancelled'));
          if (!ev) continue;
          h.fake.remove(u.email, ev.id);
          deletedOnGoogle.set(ev.id, u.email);
          note(i, u, `google.delete ${ev.id}`);
          bump('google.delete');
          timed('google.delete');
        } else if (x < 0.9) {
          const n = await h.deliver();
          trace.push(`#${i} push ${n} events`);
          bump('push');
          timed('push');
        } else if (x < 0.99) {
          // A pull, sometimes concurrently with the pushes in flight.
          const concurrent = r() < CONCURRENT;
          const pull = h.sync.engine.pull(em(), u.id).then(
            (res) => note(i, u, `pull${concurrent ? ' ∥ push' : ''} → ${JSON.stringify(res)}`),
            (err: Error) => {
              note(i, u, `pull${concurrent ? ' ∥ push' : ''} failed: ${err.message}`);
              bump('pull.failed');
            },
          );
          if (concurrent) await Promise.all([pull, h.deliver()]);
          else await pull;
          bump('pull');
          timed('pull');
        } else {
          h.fake.expireSyncTokens(u.email);
          note(i, u, 'google.410 (sync tokens expired)');
          bump('google.410');
          timed('google.410');
        }
      }
      const opsMs = Date.now() - t0;

      // Quiesce: faults off, push everything, repair, pull, until nothing moves.
      h.fake.randomFaults = null;
      for (let round = 0; round < 3; round++) {
        await h.deliver();
        for (const u of h.users) {
          await h.sync.engine.pushDirty(em(), u.id, 10_000);
          await h.sync.engine.pull(em(), u.id);
        }
      }
      await h.deliver();

      /** On a failure: the seed and every operation that touched the entries and events involved. */
      const report = (what: string, keys: (string | number)[]) => {
        const re = new RegExp(
          `(${keys.map((k) => (typeof k === 'number' ? `\\bs${k}\\b|intra${k}(u\\d+)?\\b` : k)).join('|')})`,
        );
        const first = trace.findIndex((l) => re.test(l));
        const users = new Set(trace.filter((l) => re.test(l)).map((l) => l.split(' ')[1]));
        // The operations on those entries and events, and from the first of them on every pull, push and 410 of their users.
        const lines = trace.filter(
          (l, i) =>
            re.test(l) ||
            (i > first &&
              (/ push \d+ events$/.test(l) || (users.has(l.split(' ')[1]!) && / (pull|google\.410)/.test(l)))),
        );
        console.error(
          `property FAILED (seed ${SEED}, ${OPS} ops, ${USERS} users): ${what}\n` +
            `replay: PROPERTY_GOOGLE_SEED=${SEED} PROPERTY_GOOGLE_OPS=${OPS} npx vitest run workers/src/google-sync/property.test.ts\n` +
            lines.join('\n'),
        );
      };

      // ---- the properties ----
      expect(await h.deadLetters()).toBe(0);
      for (const u of h.users) {
        const all = h.fake.events(u.email);
        const live = all.filter((e) => e.status !== 'cancelled');
        const rows: {
          id: number;
          title: string;
          sync_google: boolean;
          google_event_id: string | null;
          d: string;
          e: string;
          st: string | null;
          et: string | null;
          synced: boolean;
        }[] = await em().execute(
          `select id, title, sync_google, google_event_id, to_char(start_date, 'YYYY-MM-DD') as d, to_char(end_date, 'YYYY-MM-DD') as e,
                start_time::text as st, end_time::text as et, google_synced_at >= updated_at as synced
           from schedule where owner_id = ?`,
          [u.id],
        );
        const linked = rows.filter((x) => x.google_event_id);
        const liveIds = new Set(live.map((e) => e.id));
        const linkedIds = new Set(linked.map((x) => x.google_event_id!));
        const stale = linked.filter((x) => !liveIds.has(x.google_event_id!));
        const missing = live.filter((e) => !linkedIds.has(e.id));
        const unpushed = rows.filter((x) => (x.sync_google && !x.google_event_id) || (x.google_event_id && !x.synced));
        const resurrected = rows.filter((x) => deletedHere.has(x.id));
        if (
          stale.length ||
          missing.length ||
          unpushed.length ||
          resurrected.length ||
          linkedIds.size !== linked.length
        ) {
          report(
            `user${h.users.indexOf(u)}: linked here but cancelled/absent on Google ${JSON.stringify(stale.map((x) => [x.id, x.google_event_id, all.find((e) => e.id === x.google_event_id)?.status ?? 'absent']))}, ` +
              `live on Google but not here ${JSON.stringify(missing.map((e) => e.id))}, not pushed ${JSON.stringify(unpushed.map((x) => x.id))}, deleted here but present ${JSON.stringify(resurrected.map((x) => x.id))}`,
            [
              ...stale.map((x) => x.id),
              ...stale.map((x) => x.google_event_id!),
              ...missing.map((e) => e.id),
              ...missing.map((e) => Number(e.extendedProperties?.private?.intranetId)).filter(Boolean),
              ...unpushed.map((x) => x.id),
              ...resurrected.map((x) => x.id),
            ],
          );
        }
        // Every synced entry is on Google and up to date.
        for (const x of rows) {
          if (x.sync_google) expect(x.google_event_id, `entry ${x.id} pushed (seed ${SEED})`).toBeTruthy();
          if (x.google_event_id) expect(x.synced, `entry ${x.id} clean (seed ${SEED})`).toBe(true);
        }
        // Both sides hold the same set: one entry per live Google event and vice versa.
        expect(linkedIds.size, `duplicate links (seed ${SEED})`).toBe(linked.length);
        expect(
          [...linkedIds].sort(),
          `linked entries = live Google events of user${h.users.indexOf(u)} (seed ${SEED})`,
        ).toEqual([...liveIds].sort());
        // No duplicates on Google: one event per intranet entry.
        const ids = live.map((e) => e.extendedProperties?.private?.intranetId).filter(Boolean);
        expect(new Set(ids).size, `duplicate events on Google (seed ${SEED})`).toBe(ids.length);
        // Same content on both sides.
        const byId = new Map(live.map((e) => [e.id, e]));
        for (const x of linked) {
          const f = fromGoogleEvent(byId.get(x.google_event_id!)! as never, new Set())!;
          const same = { id: x.id, title: f.title, d: f.startDate, e: f.endDate, st: f.startTime, et: f.endTime };
          const ours = { id: x.id, title: x.title, d: x.d, e: x.e, st: x.st, et: x.et };
          if (JSON.stringify(same) !== JSON.stringify(ours))
            report(`content differs ${JSON.stringify(ours)} vs Google ${JSON.stringify(same)}`, [
              x.id,
              x.google_event_id!,
            ]);
          expect(ours, `content of entry ${x.id} (seed ${SEED})`).toEqual(same);
        }
        // Nothing deleted comes back.
        for (const x of rows)
          expect(deletedHere.has(x.id), `entry ${x.id} was deleted here (seed ${SEED})`).toBe(false);
        for (const e of live) {
          const sid = Number(e.extendedProperties?.private?.intranetId);
          if (sid)
            expect(
              deletedHere.has(sid) && isPushEventId(e.id, sid),
              `event ${e.id} of deleted entry ${sid} (seed ${SEED})`,
            ).toBe(false);
        }
        for (const [gid, email] of deletedOnGoogle)
          if (email === u.email) expect(linkedIds.has(gid), `google-deleted ${gid} (seed ${SEED})`).toBe(false);
      }
      const injected = h.fake.log.filter((l) => [403, 412, 429, 500, 503].includes(l.status)).length;
      console.log(
        `property (seed ${SEED}): ${OPS} ops over ${USERS} users in ${opsMs} ms, ${JSON.stringify(counts)}, ms per kind ${JSON.stringify(ms)}, faults injected ${injected}, Google requests ${h.fake.log.length}`,
      );
      expect(injected).toBeGreaterThan(Math.min(20, OPS / 100));
    },
  );
});
