import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushEventId } from '@intranet/graph/areas';
import { startHarness, type Harness } from './google-sync.test-support.js';

let h: Harness;
let a: { id: number; email: string };
beforeAll(async () => {
  h = await startHarness({ users: 2 });
  a = h.users[0]!;
  await h.connect(a.id);
});
afterAll(async () => h?.close());

const em = () => h.db.orm.em.fork();
const rows = async () =>
  (await em().execute(
    `select id, title, to_char(start_date, 'YYYY-MM-DD') as d, to_char(end_date, 'YYYY-MM-DD') as e, start_time::text as st, end_time::text as et, is_all_day, is_private, sync_google, google_event_id, external_guests from schedule where owner_id = ? order by id`,
    [a.id],
  )) as {
    id: number;
    title: string;
    d: string;
    e: string;
    st: string | null;
    et: string | null;
    is_all_day: boolean;
    is_private: boolean;
    sync_google: boolean;
    google_event_id: string;
    external_guests: string[];
  }[];
const soon = (days: number) => new Date(Date.now() + days * 86_400_000 + 9 * 3_600_000).toISOString().slice(0, 10);
const timed = (date: string, from: string, to: string) => ({
  start: { dateTime: `${date}T${from}:00+09:00` },
  end: { dateTime: `${date}T${to}:00+09:00` },
});

describe('pull: Google events into the schedule (origin google, never echoed back)', () => {
  it('first connect: full sync with paging imports events (sync off), recurring ones as occurrences', async () => {
    for (let i = 0; i < 260; i++)
      h.fake.insert(a.email, { summary: `g${i}`, ...timed(soon(1 + (i % 20)), '09:00', '09:30') });
    h.fake.insert(a.email, {
      summary: '朝会',
      recurrence: ['RRULE:FREQ=DAILY;COUNT=5'],
      ...timed(soon(2), '09:45', '10:00'),
      attendees: [{ email: a.email, responseStatus: 'accepted' }, { email: 'guest@partner.jp' }],
    });
    h.fake.insert(a.email, {
      summary: '休暇',
      start: { date: soon(3) },
      end: { date: soon(5) },
      visibility: 'private',
    });
    const r = await h.sync.engine.pull(em(), a.id);
    expect(r).toMatchObject({ full: true, created: 266 });
    const list = h.fake.log.filter((l) => l.path.startsWith('/calendar/v3/calendars/primary/events?'));
    expect(list.length).toBe(2); // 266 items at 250 per page
    const all = await rows();
    expect(all.every((x) => !x.sync_google)).toBe(true);
    const morning = all.filter((x) => x.title === '朝会');
    expect(morning.map((x) => x.d)).toEqual([2, 3, 4, 5, 6].map(soon));
    expect(morning[0]).toMatchObject({ st: '09:45:00', et: '10:00:00', external_guests: ['guest@partner.jp'] });
    expect(all.find((x) => x.title === '休暇')).toMatchObject({
      is_all_day: true,
      d: soon(3),
      e: soon(4),
      is_private: true,
    });
    // The imported entries are recorded as events but nothing goes back to Google.
    const before = h.fake.log.length;
    await h.deliver();
    expect(h.fake.log.slice(before).filter((l) => l.method !== 'GET').length).toBe(0);
    const st = await h.sync.engine.connections.statusOf(em(), a.id);
    expect(st.lastSuccessAt).toBeInstanceOf(Date);
  });

  it('incremental: only changes since the sync token; cancelled events are deleted here', async () => {
    const target = h.fake.events(a.email).find((e) => e.summary === 'g0')!;
    const gone = h.fake.events(a.email).find((e) => e.summary === 'g1')!;
    h.fake.patch(a.email, target.id, { summary: 'g0 改' });
    h.fake.remove(a.email, gone.id);
    const n = h.fake.log.length;
    const r = await h.sync.engine.pull(em(), a.id);
    expect(r).toMatchObject({ full: false, created: 0, updated: 1, deleted: 1 });
    expect(h.fake.log.slice(n).find((l) => l.path.includes('syncToken='))).toBeTruthy();
    const all = await rows();
    expect(all.find((x) => x.google_event_id === target.id)!.title).toBe('g0 改');
    expect(all.find((x) => x.google_event_id === gone.id)).toBeUndefined();
    const [ev] = await em().execute(
      `select payload from outbox_all where type = 'schedule.deleted' order by seq desc limit 1`,
    );
    expect(ev.payload.origin).toBe('google');
    // Nothing changed: nothing applied.
    expect(await h.sync.engine.pull(em(), a.id)).toMatchObject({ full: false, created: 0, updated: 0, deleted: 0 });
  });

  it('410 Gone: full sync again; deletions missed meanwhile are applied, nothing is duplicated', async () => {
    const victim = h.fake.events(a.email).find((e) => e.summary === 'g2')!;
    h.fake.remove(a.email, victim.id);
    h.fake.insert(a.email, { summary: '新規', ...timed(soon(4), '13:00', '14:00') });
    h.fake.expireSyncTokens(a.email);
    const count = (await rows()).length;
    const r = await h.sync.engine.pull(em(), a.id);
    expect(r!.full).toBe(true);
    const all = await rows();
    expect(all.length).toBe(count); // one removed, one added
    expect(all.find((x) => x.google_event_id === victim.id)).toBeUndefined();
    expect(new Set(all.map((x) => x.google_event_id)).size).toBe(all.length);
  });

  it('410 Gone: an entry we pushed whose event was deleted on Google meanwhile is deleted here too (regression)', async () => {
    // The full sync lists live events only; reconciliation must also cover our own pushed events.
    // Its SQL once held a `?` inside a regex literal, which MikroORM took for a parameter, so the
    // pattern matched nothing and such entries stayed linked to a cancelled event for ever.
    const s = await h.schedules.create(h.ctx(a.id), {
      title: '押した予定',
      date: soon(7),
      startTime: '11:00',
      endTime: '12:00',
      syncGoogle: true,
    });
    await h.deliver();
    expect((await rows()).find((x) => x.id === s.id)!.google_event_id).toBe(pushEventId(s.id));
    h.fake.remove(a.email, pushEventId(s.id));
    h.fake.expireSyncTokens(a.email);
    const r = await h.sync.engine.pull(em(), a.id);
    expect(r).toMatchObject({ full: true, deleted: 1 });
    expect((await rows()).find((x) => x.id === s.id)).toBeUndefined();
    const [ev] = await em().execute(
      `select payload from outbox_all where type = 'schedule.deleted' and aggregate_id = ?`,
      [String(s.id)],
    );
    expect(ev.payload.origin).toBe('google');
    // Nothing goes back to Google.
    const before = h.fake.log.length;
    await h.deliver();
    expect(h.fake.log.slice(before).filter((l) => l.method !== 'GET').length).toBe(0);
  });

  it('our own pushed events are recognised (extendedProperties) and never imported as new entries', async () => {
    const s = await h.schedules.create(h.ctx(a.id), {
      title: '自分の予定',
      date: soon(6),
      startTime: '15:00',
      endTime: '16:00',
      syncGoogle: true,
    });
    await h.deliver();
    const count = (await rows()).length;
    await h.sync.engine.pull(em(), a.id);
    expect((await rows()).length).toBe(count);
    // Edited on Google later: applied to our entry, which stays a synced entry.
    await new Promise((r) => setTimeout(r, 5));
    h.fake.patch(a.email, pushEventId(s.id), { summary: 'Googleで改名' });
    await h.sync.engine.pull(em(), a.id);
    const mine = (await rows()).find((x) => x.id === s.id)!;
    expect(mine).toMatchObject({ title: 'Googleで改名', sync_google: true });
    const before = h.fake.log.length;
    await h.deliver();
    expect(h.fake.log.slice(before).filter((l) => l.method === 'PATCH').length).toBe(0);
    // Deleted here while a stale copy is still listed on Google: not re-imported.
    await h.schedules.delete(h.ctx(a.id), s.id);
    h.fake.expireSyncTokens(a.email);
    await h.sync.engine.pull(em(), a.id);
    expect((await rows()).find((x) => x.id === s.id || x.google_event_id === pushEventId(s.id))).toBeUndefined();
    await h.deliver();
    expect(h.fake.events(a.email).find((e) => e.id === pushEventId(s.id))!.status).toBe('cancelled');
  });

  it('a list taken before sync was switched off never links the entry to the removed event again (regression)', async () => {
    // A pull lists the event, a push concurrently switches sync off (removes the event, unlinks
    // the entry), then the pull applies its stale list: it once adopted the old event again, and
    // the next pull deleted the user's entry because that event was cancelled.
    const s = await h.schedules.create(h.ctx(a.id), {
      title: '同期を外す',
      date: soon(8),
      startTime: '09:00',
      endTime: '10:00',
      syncGoogle: true,
    });
    await h.deliver();
    await h.schedules.update(h.ctx(a.id), s.id, {
      title: '同期を外す',
      date: soon(8),
      startTime: '09:00',
      endTime: '10:00',
      syncGoogle: false,
      version: s.version,
    });
    await new Promise((r) => setTimeout(r, 5));
    h.fake.patch(a.email, pushEventId(s.id), { summary: 'Google側で変更' }); // newer than our edit
    const stale = await (await h.sync.engine.connections.calendarFor(em(), a.id))!.cal.get(pushEventId(s.id));
    await h.deliver(); // unlink: the event is removed from Google
    expect(h.fake.events(a.email).find((e) => e.id === pushEventId(s.id))!.status).toBe('cancelled');
    await (h.sync.engine as unknown as { apply: (...x: unknown[]) => Promise<unknown> }).apply(
      em(),
      a.id,
      a.email,
      [stale],
      null,
    );
    await h.sync.engine.pull(em(), a.id);
    expect((await rows()).find((x) => x.id === s.id)).toMatchObject({
      title: '同期を外す',
      sync_google: false,
      google_event_id: null,
    });
  });

  it('an imported entry deleted here is tombstoned: Google keeps it, it never comes back', async () => {
    const victim = (await rows()).find((x) => x.title === 'g5')!;
    await h.schedules.delete(h.ctx(a.id), victim.id);
    await h.deliver();
    expect(h.fake.events(a.email).find((e) => e.id === victim.google_event_id)!.status).toBe('confirmed');
    h.fake.patch(a.email, victim.google_event_id, { summary: 'g5 改' });
    h.fake.expireSyncTokens(a.email);
    await h.sync.engine.pull(em(), a.id);
    expect((await rows()).find((x) => x.google_event_id === victim.google_event_id)).toBeUndefined();
  });

  it('month sync: the shown month, recurring occurrences of a past month included; retryable faults are survived', async () => {
    h.fake.insert(a.email, {
      summary: '去年の定例',
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
      ...timed('2025-06-02', '10:00', '11:00'),
    });
    h.fake.fail({ status: 503 }, { status: 429 }, { status: 403, reason: 'rateLimitExceeded' });
    await h.sync.engine.pull(em(), a.id, { month: '2025-06' });
    const june = (await rows()).filter((x) => x.title === '去年の定例').map((x) => x.d);
    expect(june).toEqual(['2025-06-02', '2025-06-09', '2025-06-16']);
  });

  it('scheduler: a sync request (screen opened) is claimed and run; errors are shown in the status', async () => {
    const sched = h.sync.startScheduler(h.db.orm, { tickMs: 60_000 });
    try {
      await em().execute(
        `update google_connection set sync_requested_at = clock_timestamp(), requested_month = '2026-01' where employee_id = ?`,
        [a.id],
      );
      expect(await sched.tick()).toBe(1);
      expect(await sched.tick()).toBe(0);
      h.fake.fail({ status: 400, reason: 'invalid' });
      await em().execute(`update google_connection set sync_requested_at = clock_timestamp() where employee_id = ?`, [
        a.id,
      ]);
      await sched.tick();
      const st = await h.sync.engine.connections.statusOf(em(), a.id);
      expect(st.lastError).toMatch(/400/);
      await em().execute(`update google_connection set sync_requested_at = clock_timestamp() where employee_id = ?`, [
        a.id,
      ]);
      await sched.tick();
      expect((await h.sync.engine.connections.statusOf(em(), a.id)).lastError).toBeNull();
    } finally {
      await sched.stop();
    }
  });
});
