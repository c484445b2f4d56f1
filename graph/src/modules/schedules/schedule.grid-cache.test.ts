/**
 * The week-grid cache through the real server: a repeated grid read is served from the cache, and
 * no cached page is ever stale for its own writer or shown to another viewer. Every write below
 * runs with the outbox relay held (all its lanes locked), so the live feed cannot deliver the
 * write's event: what drops the pages is the writing process's own post-commit invalidation
 * (read-your-writes). Each test checks that the event was indeed still queued.
 */
import pg from 'pg';
import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../test/db.js';
import { api, gql, loginToken } from '../../test/http.js';
import { LANES } from '../../platform/events/relay.js';
import { record } from '../../platform/events/outbox.js';
import { waitFor } from '../../platform/events/test-support.js';
import { ScheduleService } from './schedule.service.js';

let p: TestPlatform;
const t: Record<string, string> = {};
const id: Record<string, number> = {};

// A week of its own, far from the demo seed's weeks.
const FROM = '2031-03-03';
const TO = '2031-03-09';

/** The web grid's document (cells only) plus the person's department, as the /schedules page asks. */
const GRID = `query ScheduleGrid($from: String!, $to: String!, $departmentId: Int, $name: String, $offset: Int!, $limit: Int!) {
  scheduleGrid(from: $from, to: $to, departmentId: $departmentId, name: $name, offset: $offset, limit: $limit) {
    from to totalPeople offset limit
    people { id name departmentName entries { id busyOnly title date isPrivate myResponse canEdit } }
  }
}`;

type Cell = { id: number; busyOnly: boolean; title: string | null; myResponse: string | null; canEdit: boolean };
type Grid = {
  totalPeople: number;
  people: { id: number; name: string; departmentName: string | null; entries: Cell[] }[];
};

async function grid(
  who: string,
  vars: { departmentId?: number | null; offset?: number; limit?: number } = {},
): Promise<Grid> {
  const r = await gql(
    p.url,
    GRID,
    { from: FROM, to: TO, departmentId: null, name: null, offset: 0, limit: 200, ...vars },
    { token: t[who] },
  );
  expect(r.body.errors).toBeUndefined();
  return r.body.data.scheduleGrid;
}
const row = (g: Grid, personId: number) => g.people.find((x) => x.id === personId);
const cell = (g: Grid, personId: number, entryId: number) => row(g, personId)?.entries.find((e) => e.id === entryId);
const stats = () => p.graph.services.scheduleGridCache.stats();

async function mutate(who: string, query: string, variables: Record<string, unknown>) {
  const r = await gql(p.url, query, variables, { token: t[who] });
  expect(r.body.errors).toBeUndefined();
  return r.body.data;
}
const create = async (who: string, input: Record<string, unknown>): Promise<number> =>
  (
    await mutate(who, `mutation($i: ScheduleInput!) { createSchedule(input: $i) { id } }`, {
      i: { date: FROM, startTime: '10:00', endTime: '11:00', syncGoogle: false, ...input },
    })
  ).createSchedule.id;

/**
 * Runs `fn` while the relay cannot publish (a transaction of ours holds every lane's advisory
 * lock, blocking until a claim in progress has ended), then checks that `fn`'s events were still
 * queued at its end, so that only the local invalidation can have dropped the pages.
 */
async function withRelayHeld(fn: () => Promise<void>) {
  const c = new pg.Client({ connectionString: p.db.url });
  await c.connect();
  try {
    await c.query('begin');
    await c.query(`select pg_advisory_xact_lock(${0x0b0c5}, l) from generate_series(0, ${LANES - 1}) l`);
    const before = Number((await c.query(`select coalesce(max(seq), 0) as s from outbox_event`)).rows[0].s);
    const sentBefore = Number((await c.query(`select count(*) as n from outbox_sent`)).rows[0].n);
    await fn();
    const queued = Number((await c.query(`select count(*) as n from outbox_event where seq > $1`, [before])).rows[0].n);
    const sentAfter = Number((await c.query(`select count(*) as n from outbox_sent`)).rows[0].n);
    expect(queued).toBeGreaterThan(0);
    expect(sentAfter).toBe(sentBefore);
  } finally {
    await c.query('rollback').catch(() => undefined);
    await c.end();
  }
}

beforeAll(async () => {
  p = await startTestPlatform();
  for (const l of ['admin', 'staff', 'devadmin', 'sysadmin']) {
    t[l] = await loginToken(p.url, l);
    id[l] = (await mutate(l, `{ me { id } }`, {})).me.id;
  }
});
afterAll(async () => p?.close());

describe('week-grid cache', () => {
  it('serves a repeated read from the cache, equal to the computed answer', async () => {
    const first = await grid('admin');
    const before = stats();
    const again = await grid('admin');
    expect(again).toEqual(first);
    expect(stats().hits).toBe(before.hits + 1);
  });

  it('a cached answer is the very bytes and content type Apollo sent, for each Accept a client sends', async () => {
    const accepts = [undefined, 'application/json', 'application/graphql-response+json,application/json;q=0.9'];
    for (const [i, accept] of accepts.entries()) {
      // A page size of its own per Accept, so the first request is computed by Apollo.
      const body = JSON.stringify({
        query: GRID,
        variables: { from: FROM, to: TO, departmentId: null, name: null, offset: 0, limit: 150 + i },
      });
      const send = () =>
        fetch(`${p.url}/graphql`, {
          method: 'POST',
          body,
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${t.devadmin}`,
            ...(accept ? { accept } : {}),
          },
        });
      const computed = await send();
      const hits = stats().hits;
      const cached = await send();
      expect(stats().hits).toBe(hits + 1);
      expect(cached.status).toBe(computed.status);
      expect(cached.headers.get('content-type')).toBe(computed.headers.get('content-type'));
      // Every other header too (security headers, no cache headers), but for the per-response ones.
      const headers = (r: Response) =>
        [...r.headers].filter(([k]) => !['date', 'x-request-id', 'content-type'].includes(k)).sort();
      expect(headers(cached)).toEqual(headers(computed));
      expect(await cached.text()).toBe(await computed.text());
    }
  });

  it('over the WebSocket too: the same page, from the same cache', async () => {
    const vars = { from: FROM, to: TO, departmentId: null, name: null, offset: 0, limit: 140 };
    const overHttp = (await gql(p.url, GRID, vars, { token: t.sysadmin })).body.data;
    const c = createClient({
      url: `${p.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${t.sysadmin}` },
    });
    try {
      const hits = stats().hits;
      const result = await new Promise<unknown>((resolve, reject) => {
        let data: unknown;
        c.subscribe(
          { query: GRID, variables: vars },
          { next: (m) => void (data = m.data), error: reject, complete: () => resolve(data) },
        );
      });
      expect(result).toEqual(overHttp);
      expect(stats().hits).toBe(hits + 1);
    } finally {
      await c.dispose();
    }
  });

  it('a page cached for a session is not given once the session has ended, nor without one', async () => {
    const token = await loginToken(p.url, 'staff');
    const send = (auth?: string) =>
      gql(p.url, GRID, { from: FROM, to: TO, departmentId: null, name: null, offset: 0, limit: 120 }, { token: auth });
    expect((await send(token)).body.data.scheduleGrid.people.length).toBeGreaterThan(0);
    expect((await send(token)).body.data.scheduleGrid.people.length).toBeGreaterThan(0);
    expect((await api(p.url, 'POST', '/auth/logout', { token })).status).toBe(200);
    for (const auth of [token, undefined]) {
      const r = await send(auth);
      expect(r.body.data?.scheduleGrid ?? null).toBeNull();
      expect(r.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    }
  });

  it('the writer sees its own create, edit and delete at once; a page another viewer had cached is dropped too', async () => {
    await grid('admin');
    await grid('staff');
    await withRelayHeld(async () => {
      const entry = await create('admin', { title: '設計レビュー', guestIds: [id.staff] });
      let mine = await grid('admin');
      expect(cell(mine, id.admin, entry)?.title).toBe('設計レビュー');
      expect(cell(mine, id.staff, entry)?.title).toBe('設計レビュー');
      let theirs = await grid('staff');
      expect(cell(theirs, id.staff, entry)).toMatchObject({
        title: '設計レビュー',
        myResponse: 'PENDING',
        canEdit: false,
      });

      const { schedule } = await mutate('admin', `query($id: Int!) { schedule(id: $id) { version } }`, { id: entry });
      await mutate('admin', `mutation($id: Int!, $i: ScheduleInput!) { updateSchedule(id: $id, input: $i) { id } }`, {
        id: entry,
        i: {
          title: '設計レビュー（延長）',
          date: FROM,
          startTime: '10:00',
          endTime: '12:00',
          syncGoogle: false,
          guestIds: [id.staff],
          version: schedule.version,
        },
      });
      mine = await grid('admin');
      expect(cell(mine, id.admin, entry)?.title).toBe('設計レビュー（延長）');
      theirs = await grid('staff');
      expect(cell(theirs, id.staff, entry)?.title).toBe('設計レビュー（延長）');

      await mutate('admin', `mutation($id: Int!) { deleteSchedule(id: $id) }`, { id: entry });
      expect(cell(await grid('admin'), id.admin, entry)).toBeUndefined();
      expect(cell(await grid('staff'), id.staff, entry)).toBeUndefined();
    });
  });

  it("a private entry is the owner's in full and busy time to everyone else, whichever page was cached first", async () => {
    let entry = 0;
    await withRelayHeld(async () => {
      entry = await create('admin', { title: '人事面談', isPrivate: true, startTime: '13:00', endTime: '14:00' });
    });
    // The owner's page first, then another viewer's with the very same document and variables.
    expect(cell(await grid('admin'), id.admin, entry)).toMatchObject({
      busyOnly: false,
      title: '人事面談',
      canEdit: true,
    });
    for (let i = 0; i < 2; i++) {
      expect(cell(await grid('staff'), id.admin, entry)).toMatchObject({ busyOnly: true, title: null, canEdit: false });
      expect(cell(await grid('devadmin'), id.admin, entry)).toMatchObject({ busyOnly: true, title: null });
    }
    // And the other way round after a change: another viewer's page cached first.
    await withRelayHeld(async () => {
      const { schedule } = await mutate('admin', `query($id: Int!) { schedule(id: $id) { version } }`, { id: entry });
      await mutate('admin', `mutation($id: Int!, $i: ScheduleInput!) { updateSchedule(id: $id, input: $i) { id } }`, {
        id: entry,
        i: {
          title: '人事面談（再）',
          date: FROM,
          startTime: '13:00',
          endTime: '14:00',
          syncGoogle: false,
          isPrivate: true,
          version: schedule.version,
        },
      });
    });
    expect(cell(await grid('staff'), id.admin, entry)).toMatchObject({ busyOnly: true, title: null });
    expect(cell(await grid('admin'), id.admin, entry)).toMatchObject({ busyOnly: false, title: '人事面談（再）' });
    expect(stats().hits).toBeGreaterThan(0);
  });

  it("a guest's decline: the guest keeps it in their own row (declined); everyone else's pages drop it from that row", async () => {
    const entry = await create('admin', {
      title: '朝会',
      startTime: '09:00',
      endTime: '09:15',
      guestIds: [id.staff, id.devadmin],
    });
    // Cached by all three before the answer.
    for (const who of ['admin', 'staff', 'devadmin']) expect(cell(await grid(who), id.staff, entry)).toBeDefined();
    await withRelayHeld(async () => {
      await mutate('staff', `mutation($id: Int!) { respondToSchedule(id: $id, accept: false) { id } }`, { id: entry });
      expect(cell(await grid('staff'), id.staff, entry)).toMatchObject({ myResponse: 'DECLINED' });
      expect(cell(await grid('admin'), id.staff, entry)).toBeUndefined();
      const devadmin = await grid('devadmin');
      expect(cell(devadmin, id.staff, entry)).toBeUndefined();
      expect(cell(devadmin, id.devadmin, entry)).toMatchObject({ myResponse: 'PENDING' });
    });
  });

  it("another process's write (as the Google sync worker's) drops the pages through the live feed", async () => {
    const entry = await create('admin', { title: '外部の予定', startTime: '15:00', endTime: '16:00' });
    expect(cell(await grid('staff'), id.admin, entry)?.title).toBe('外部の予定');
    // A transaction of another ORM (no local early copy here), recording as sync-engine.ts does.
    const schedules = new ScheduleService();
    await p.db.orm.em.fork().transactional(async (tx) => {
      const before = (await schedules.snapshot(tx, entry))!;
      await tx.execute(
        `update schedule set title = 'Googleで変更', version = version + 1, updated_at = now() where id = ?`,
        [entry],
      );
      const after = (await schedules.snapshot(tx, entry))!;
      record(tx, {
        type: 'schedule.updated',
        aggregateId: entry,
        actorId: null,
        payload: { schedule: after, previous: before, origin: 'google' },
      });
    });
    await waitFor(
      () => grid('staff'),
      (g) => cell(g, id.admin, entry)?.title === 'Googleで変更',
      60_000,
    );
  }, 120_000);

  it('employee and department changes drop the pages: rename, department rename, move out, retirement', async () => {
    const emp = (
      await mutate('admin', `mutation($i: EmployeeInput!) { createEmployee(input: $i) { id version } }`, {
        i: {
          name: 'キャッシュ 太郎',
          loginId: 'grid-cache',
          password: 'intranet-demo-2',
          role: 'GENERAL',
          status: 'ACTIVE',
        },
      })
    ).createEmployee;
    const dept = (
      await mutate('admin', `mutation($i: DepartmentInput!) { createDepartment(input: $i) { id version } }`, {
        i: { name: 'キャッシュ課', memberIds: [emp.id] },
      })
    ).createDepartment;
    const inDept = { departmentId: dept.id };
    expect((await grid('staff', inDept)).people).toEqual([
      { id: emp.id, name: 'キャッシュ 太郎', departmentName: 'キャッシュ課', entries: [] },
    ]);
    const total = (await grid('staff')).totalPeople;

    const version = async (kind: 'employee' | 'department', x: number) =>
      (await mutate('admin', `query($id: Int!) { ${kind}(id: $id) { version } }`, { id: x }))[kind].version;
    const updateEmployee = async (name: string, status: string) =>
      mutate('admin', `mutation($id: Int!, $i: EmployeeInput!) { updateEmployee(id: $id, input: $i) { id } }`, {
        id: emp.id,
        i: { name, loginId: 'grid-cache', role: 'GENERAL', status, version: await version('employee', emp.id) },
      });
    const updateDepartment = async (name: string, memberIds: number[]) =>
      mutate('admin', `mutation($id: Int!, $i: DepartmentInput!) { updateDepartment(id: $id, input: $i) { id } }`, {
        id: dept.id,
        i: { name, memberIds, version: await version('department', dept.id) },
      });

    await withRelayHeld(async () => {
      await updateEmployee('キャッシュ 次郎', 'ACTIVE');
      expect((await grid('staff', inDept)).people[0]?.name).toBe('キャッシュ 次郎');
      await grid('staff', inDept);
      await updateDepartment('キャッシュ部', [emp.id]);
      expect((await grid('staff', inDept)).people[0]?.departmentName).toBe('キャッシュ部');
      await updateDepartment('キャッシュ部', []);
      expect((await grid('staff', inDept)).people).toEqual([]);
      expect(row(await grid('staff'), emp.id)?.departmentName).toBeNull();
      await updateEmployee('キャッシュ 次郎', 'RETIRED');
      const after = await grid('staff');
      expect(after.totalPeople).toBe(total - 1);
      expect(row(after, emp.id)).toBeUndefined();
    });
  });
});
