import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushEventId } from '@intranet/graph/areas';
import { startHarness, type Harness } from './google-sync.test-support.js';

let h: Harness;
let a: { id: number; email: string };
let b: { id: number; email: string };
beforeAll(async () => {
  h = await startHarness({ users: 3 });
  [a, b] = h.users as [typeof a, typeof b];
  await h.connect(a.id);
});
afterAll(async () => h?.close());

const entry = (extra: Record<string, unknown> = {}) => ({
  title: '設計レビュー',
  date: '2026-12-08',
  startTime: '10:00',
  endTime: '11:00',
  type: 'APPOINTMENT',
  syncGoogle: true,
  ...extra,
});
const row = async (id: number) => (await h.db.orm.em.fork().execute(`select * from schedule where id = ?`, [id]))[0];
const gEvent = (email: string, id: string) => h.fake.events(email).find((e) => e.id === id);

describe("push: our entries written to the owner's Google calendar", () => {
  it('create → insert with our id in extendedProperties, guests as attendees, etag stored', async () => {
    const s = await h.schedules.create(
      h.ctx(a.id),
      entry({ guestIds: [b.id], externalGuests: ['partner@example.com'], description: '議題' }),
    );
    expect(await h.deliver()).toBe(1);
    const r = await row(s.id);
    expect(r.google_event_id).toBe(pushEventId(s.id));
    const ev = gEvent(a.email, r.google_event_id)!;
    expect(r.google_etag).toBe(ev.etag);
    expect(ev).toMatchObject({
      summary: '設計レビュー',
      description: '議題',
      start: { dateTime: '2026-12-08T10:00:00+09:00', timeZone: 'Asia/Tokyo' },
      end: { dateTime: '2026-12-08T11:00:00+09:00' },
      visibility: 'default',
      extendedProperties: { private: { intranetId: String(s.id) } },
    });
    expect(ev.attendees!.map((x) => x.email).sort()).toEqual([b.email, 'partner@example.com'].sort());
    const st = await h.sync.engine.connections.statusOf(h.db.orm.em.fork(), a.id);
    expect(st).toMatchObject({ connected: true, pendingChanges: 0, lastError: null });
    expect(st.lastSuccessAt).toBeInstanceOf(Date);
    // The calls were paced by the quota every process shares: the owner's bucket in PostgreSQL was spent from.
    const [quota] = await h.db.orm.em
      .fork()
      .getConnection()
      .execute(`select tokens from google_quota where employee_id = ?`, [a.id]);
    expect(quota.tokens).toBeLessThan(Number(h.config.GOOGLE_QUOTA_BURST));
  });

  it('edit → patch with If-Match; private entries are visibility private; all-day end is exclusive', async () => {
    const s = await h.schedules.create(h.ctx(a.id), entry({ title: '通院' }));
    await h.deliver();
    const before = await row(s.id);
    await h.schedules.update(
      h.ctx(a.id),
      s.id,
      entry({
        title: '通院（私用）',
        isPrivate: true,
        isAllDay: true,
        startTime: null,
        endTime: null,
        endDate: '2026-12-09',
        version: s.version,
      }),
    );
    await h.deliver();
    const ev = gEvent(a.email, pushEventId(s.id))!;
    expect(ev).toMatchObject({
      summary: '通院（私用）',
      visibility: 'private',
      start: { date: '2026-12-08' },
      end: { date: '2026-12-10' },
    });
    const patch = h.fake.log.filter((l) => l.method === 'PATCH' && l.path.includes(pushEventId(s.id)));
    expect(patch.length).toBe(1);
    expect((await row(s.id)).google_etag).not.toBe(before.google_etag);
  });

  it('delete → deleted on Google; syncGoogle off → nothing pushed; turning sync off removes the Google copy', async () => {
    const s = await h.schedules.create(h.ctx(a.id), entry({ title: '消す' }));
    await h.deliver();
    await h.schedules.delete(h.ctx(a.id), s.id);
    await h.deliver();
    expect(gEvent(a.email, pushEventId(s.id))!.status).toBe('cancelled');

    const local = await h.schedules.create(h.ctx(a.id), entry({ title: 'ローカルだけ', syncGoogle: false }));
    await h.deliver();
    expect(gEvent(a.email, pushEventId(local.id))).toBeUndefined();

    const t = await h.schedules.create(h.ctx(a.id), entry({ title: '一度同期' }));
    await h.deliver();
    await h.schedules.update(h.ctx(a.id), t.id, entry({ title: '一度同期', syncGoogle: false, version: t.version }));
    await h.deliver();
    expect(gEvent(a.email, pushEventId(t.id))!.status).toBe('cancelled');
    expect((await row(t.id)).google_event_id).toBeNull();
  });

  it('owners without a connection are skipped; origin google is never pushed back', async () => {
    const s = await h.schedules.create(h.ctx(b.id), entry());
    const before = h.fake.log.length;
    await h.deliver();
    expect(h.fake.log.length).toBe(before);
    expect((await row(s.id)).google_event_id).toBeNull();
  });

  it('a lost insert answer is retried into the same event (409 adopted), never a duplicate', async () => {
    const s = await h.schedules.create(h.ctx(a.id), entry({ title: '重複しない' }));
    // The insert reaches Google but our transaction fails afterwards: simulate by inserting first.
    h.fake.insert(a.email, {
      id: pushEventId(s.id),
      summary: '古い',
      start: { date: '2026-12-08' },
      end: { date: '2026-12-09' },
    });
    await h.deliver();
    const mine = h.fake
      .events(a.email)
      .filter((e) => e.extendedProperties?.private?.intranetId === String(s.id) || e.id === pushEventId(s.id));
    expect(mine.length).toBe(1);
    expect(mine[0]!.summary).toBe('重複しない');
  });

  it('412 conflict: Google newer → Google wins here (origin google); ours newer → patched again', async () => {
    const s = await h.schedules.create(h.ctx(a.id), entry({ title: '元' }));
    await h.deliver();
    const id = pushEventId(s.id);
    // Ours newer: Google changed first, then we edit.
    h.fake.patch(a.email, id, { description: 'Google側のメモ' });
    await new Promise((r) => setTimeout(r, 5));
    const v = (await h.schedules.get(h.ctx(a.id), s.id)).version;
    await h.schedules.update(h.ctx(a.id), s.id, entry({ title: 'こちらの変更', version: v }));
    await h.deliver();
    expect(gEvent(a.email, id)!.summary).toBe('こちらの変更');
    expect(h.fake.log.filter((l) => l.method === 'PATCH' && l.path.includes(id) && l.status === 412).length).toBe(1);

    // Google newer: we edit, then Google changes before our push runs.
    const v2 = (await h.schedules.get(h.ctx(a.id), s.id)).version;
    await h.schedules.update(h.ctx(a.id), s.id, entry({ title: '古いこちら', version: v2 }));
    await new Promise((r) => setTimeout(r, 5));
    h.fake.patch(a.email, id, { summary: 'Googleで後から変更' });
    await h.deliver();
    expect(gEvent(a.email, id)!.summary).toBe('Googleで後から変更');
    expect((await row(s.id)).title).toBe('Googleで後から変更');
    const [ev] = await h.db.orm.em
      .fork()
      .execute(
        `select payload from outbox_all where type = 'schedule.updated' and aggregate_id = ? order by seq desc limit 1`,
        [String(s.id)],
      );
    expect(ev.payload.origin).toBe('google');
  });

  it('an event deleted on Google while we edit: the deletion wins here too', async () => {
    const s = await h.schedules.create(h.ctx(a.id), entry({ title: 'Googleで削除される' }));
    await h.deliver();
    h.fake.remove(a.email, pushEventId(s.id));
    await h.schedules.update(h.ctx(a.id), s.id, entry({ title: '編集', version: s.version }));
    await h.deliver();
    expect(await row(s.id)).toBeUndefined();
    expect(gEvent(a.email, pushEventId(s.id))!.status).toBe('cancelled');
  });

  it('guests: an edit keeps the RSVPs Google holds; attendees are sent only when our guest list changed, then merged', async () => {
    const s = await h.schedules.create(
      h.ctx(a.id),
      entry({ title: '商談', guestIds: [b.id], externalGuests: ['partner@example.com', 'client@example.org'] }),
    );
    await h.deliver();
    const id = pushEventId(s.id);
    const attendees = () => Object.fromEntries(gEvent(a.email, id)!.attendees!.map((x) => [x.email, x.responseStatus]));
    expect(attendees()).toEqual({
      [b.email]: 'needsAction',
      'partner@example.com': 'needsAction',
      'client@example.org': 'needsAction',
    });
    // The external guests answer on Google.
    h.fake.respond(a.email, id, 'partner@example.com', 'accepted');
    h.fake.respond(a.email, id, 'client@example.org', 'tentative');
    await h.sync.engine.pull(h.db.orm.em.fork(), a.id);
    const patches = () =>
      h.fake.log.filter((l) => l.method === 'PATCH' && l.path.includes(`/events/${id}?`) && l.status === 200);

    // Same guests, new title: no attendees in the patch; the answers stay.
    let v = (await h.schedules.get(h.ctx(a.id), s.id)).version;
    await h.schedules.update(
      h.ctx(a.id),
      s.id,
      entry({
        title: '商談（場所変更）',
        guestIds: [b.id],
        externalGuests: ['partner@example.com', 'client@example.org'],
        version: v,
      }),
    );
    await h.deliver();
    expect(patches().at(-1)!.body).not.toHaveProperty('attendees');
    expect(gEvent(a.email, id)!.summary).toBe('商談（場所変更）');
    expect(attendees()).toEqual({
      [b.email]: 'needsAction',
      'partner@example.com': 'accepted',
      'client@example.org': 'tentative',
    });

    // A guest answers after our last sync and we edit before pulling: the stale etag is noticed,
    // ours is newer and wins, and the answer is still kept.
    h.fake.respond(a.email, id, 'partner@example.com', 'declined');
    await new Promise((r) => setTimeout(r, 5));
    v = (await h.schedules.get(h.ctx(a.id), s.id)).version;
    await h.schedules.update(
      h.ctx(a.id),
      s.id,
      entry({
        title: '商談（再調整）',
        guestIds: [b.id],
        externalGuests: ['partner@example.com', 'client@example.org'],
        version: v,
      }),
    );
    await h.deliver();
    expect(gEvent(a.email, id)!.summary).toBe('商談（再調整）');
    expect(attendees()).toEqual({
      [b.email]: 'needsAction',
      'partner@example.com': 'declined',
      'client@example.org': 'tentative',
    });

    // Guest list changed: one external guest removed, one added (case differs), the others keep their answers.
    v = (await h.schedules.get(h.ctx(a.id), s.id)).version;
    await h.schedules.update(
      h.ctx(a.id),
      s.id,
      entry({
        title: '商談（再調整）',
        guestIds: [b.id],
        externalGuests: ['Partner@Example.com', 'new@example.net'],
        version: v,
      }),
    );
    await h.deliver();
    const sent = patches().at(-1)!.body!.attendees as { email: string; responseStatus: string }[];
    expect(sent.map((x) => x.email).sort()).toEqual([b.email, 'new@example.net', 'partner@example.com'].sort());
    expect(attendees()).toEqual({
      [b.email]: 'needsAction',
      'partner@example.com': 'declined',
      'new@example.net': 'needsAction',
    });

    // An internal guest answers here: the next push carries that answer, the external answers stay.
    await h.schedules.respond(h.ctx(b.id), s.id, true);
    v = (await h.schedules.get(h.ctx(a.id), s.id)).version;
    await h.schedules.update(
      h.ctx(a.id),
      s.id,
      entry({
        title: '商談（確定）',
        guestIds: [b.id],
        externalGuests: ['partner@example.com', 'new@example.net'],
        version: v,
      }),
    );
    await h.deliver();
    expect(attendees()).toEqual({
      [b.email]: 'accepted',
      'partner@example.com': 'declined',
      'new@example.net': 'needsAction',
    });
    expect((await row(s.id)).google_etag).toBe(gEvent(a.email, id)!.etag);
    expect(await h.deadLetters()).toBe(0);
  });

  it('429/5xx are retried (client backoff, then the runner); 400 is not retried and shows as an error', async () => {
    h.fake.fail({ status: 429 }, { status: 503 }, { status: 500 });
    const s = await h.schedules.create(h.ctx(a.id), entry({ title: 'リトライ' }));
    await h.deliver();
    expect(gEvent(a.email, pushEventId(s.id))!.summary).toBe('リトライ');

    const n = h.fake.log.length;
    h.fake.fail({ status: 400, reason: 'invalid', method: 'POST' });
    const bad = await h.schedules.create(h.ctx(a.id), entry({ title: '拒否される' }));
    await h.deliver();
    expect(h.fake.log.slice(n).filter((l) => l.method === 'POST' && l.path.includes('/events')).length).toBe(1);
    const st = await h.sync.engine.connections.statusOf(h.db.orm.em.fork(), a.id);
    expect(st.lastError).toMatch(/400/);
    expect(st.pendingChanges).toBe(1);
    expect(await h.deadLetters()).toBe(0);
    // The repair pass (run before each pull) pushes it once Google accepts it.
    await h.sync.engine.pushDirty(h.db.orm.em.fork(), a.id);
    expect(gEvent(a.email, pushEventId(bad.id))!.summary).toBe('拒否される');
    expect((await h.sync.engine.connections.statusOf(h.db.orm.em.fork(), a.id)).pendingChanges).toBe(0);
  });
  it('sync switched off while Google refuses the delete: shown as pending, and the repair pass removes the Google copy (regression)', async () => {
    // The repair query and the pending count once had a `?` inside a regex literal (taken by
    // MikroORM for a parameter): entries waiting to be unlinked were neither counted nor repaired.
    const s = await h.schedules.create(h.ctx(a.id), entry({ title: '同期をやめる' }));
    await h.deliver();
    h.fake.fail({ status: 400, reason: 'invalid', method: 'DELETE' });
    await h.schedules.update(
      h.ctx(a.id),
      s.id,
      entry({ title: '同期をやめる', syncGoogle: false, version: s.version }),
    );
    await h.deliver();
    expect(gEvent(a.email, pushEventId(s.id))!.status).toBe('confirmed');
    expect((await h.sync.engine.connections.statusOf(h.db.orm.em.fork(), a.id)).pendingChanges).toBe(1);
    expect(await h.sync.engine.pushDirty(h.db.orm.em.fork(), a.id)).toBe(1);
    expect(gEvent(a.email, pushEventId(s.id))!.status).toBe('cancelled');
    expect((await row(s.id)).google_event_id).toBeNull();
    expect((await h.sync.engine.connections.statusOf(h.db.orm.em.fork(), a.id)).pendingChanges).toBe(0);
  });
});
