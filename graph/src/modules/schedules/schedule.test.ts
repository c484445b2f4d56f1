import { subscribeRegistered } from '../../test/live.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { startTestPlatform, type TestPlatform } from '../../test/db.js';
import { api, gql, loginToken } from '../../test/http.js';

let p: TestPlatform;
const t: Record<string, string> = {};
const id: Record<string, number> = {};
beforeAll(async () => {
  p = await startTestPlatform();
  for (const l of ['admin', 'sysadmin', 'devadmin', 'staff']) {
    t[l] = await loginToken(p.url, l);
    id[l] = (await api(p.url, 'GET', '/auth/me', { token: t[l] })).body.employee.employee_id;
  }
});
afterAll(async () => p?.close());

// Far from the demo seed's weeks (which follow today's date).
const D = '2025-06-10';
const entry = (extra: Record<string, unknown> = {}) => ({
  title: '設計レビュー',
  date: D,
  start_time: '10:00',
  end_time: '11:00',
  type: 'appointment',
  ...extra,
});

describe('schedule: owner, guests and everyone else', () => {
  it('creates with the spec fields; the owner comes from the session, not the body', async () => {
    const r = await api(p.url, 'POST', '/schedules', {
      token: t.admin,
      body: entry({
        user_id: id.staff,
        guest_id: [id.staff, id.devadmin],
        other_guest: ' partner@example.com , ,',
        description: '議題: 画面設計',
      }),
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      user_id: id.admin,
      title: '設計レビュー',
      date: D,
      end_date: D,
      start_time: '10:00:00',
      end_time: '11:00:00',
      type: 'appointment',
      other_guest: 'partner@example.com',
      is_my_self: 0,
      syncGoogle: true,
      can_edit: true,
    });
    expect(r.body.guest_id.sort()).toEqual([id.staff, id.devadmin].sort());
    id.meeting = r.body.schedule_id;
  });

  it('only the owner edits or deletes; a guest and others get 403 and nothing changes', async () => {
    for (const who of ['staff', 'sysadmin']) {
      const put = await api(p.url, 'PUT', `/schedules/${id.meeting}`, {
        token: t[who],
        body: entry({ title: '乗っ取り', version: 1 }),
      });
      expect(put.status).toBe(403);
      expect((await api(p.url, 'DELETE', `/schedules/${id.meeting}`, { token: t[who] })).status).toBe(403);
    }
    expect((await api(p.url, 'GET', `/schedules/${id.meeting}`, { token: t.staff })).body).toMatchObject({
      title: '設計レビュー',
      can_edit: false,
    });
  });

  it('a listed guest accepts or declines; others cannot answer', async () => {
    const yes = await gql(
      p.url,
      `mutation($id:Int!){ respondToSchedule(id:$id, accept:true) { myResponse canRespond } }`,
      { id: id.meeting },
      { token: t.staff },
    );
    expect(yes.body.data.respondToSchedule).toEqual({ myResponse: 'ACCEPTED', canRespond: true });
    const no = await api(p.url, 'PUT', `/schedules/${id.meeting}/response`, {
      token: t.devadmin,
      body: { is_joined: 0 },
    });
    expect(no.body.is_joined).toBe(0);
    const stranger = await api(p.url, 'PUT', `/schedules/${id.meeting}/response`, {
      token: t.sysadmin,
      body: { is_joined: 1 },
    });
    expect(stranger.status).toBe(403);
    const bad = await api(p.url, 'PUT', `/schedules/${id.meeting}/response`, {
      token: t.staff,
      body: { is_joined: 'maybe' },
    });
    expect(bad.status).toBe(400);
  });

  it('an edit keeps the answers of guests who stay; a stale version is a conflict', async () => {
    const cur = (await api(p.url, 'GET', `/schedules/${id.meeting}`, { token: t.admin })).body;
    const r = await api(p.url, 'PUT', `/schedules/${id.meeting}`, {
      token: t.admin,
      body: entry({ title: '設計レビュー（延長）', end_time: '12:00', guest_id: [id.staff], version: cur.version }),
    });
    expect(r.status).toBe(200);
    expect(r.body.guests).toEqual([{ id: id.staff, name: '田中 美咲', response: 'ACCEPTED' }]);
    const stale = await api(p.url, 'PUT', `/schedules/${id.meeting}`, {
      token: t.admin,
      body: entry({ version: cur.version }),
    });
    expect(stale.status).toBe(409);
    expect(stale.body.current.title).toBe('設計レビュー（延長）');
  });

  it('a save that changes nothing keeps the version and records no event; a real change is a new version', async () => {
    const body = entry({ title: '設計レビュー（延長）', end_time: '12:00', guest_id: [id.staff] });
    const cur = (await api(p.url, 'GET', `/schedules/${id.meeting}`, { token: t.admin })).body;
    const events = async () =>
      (
        await p.db.orm.em
          .fork()
          .getConnection()
          .execute(`select count(*)::int as n from outbox_all where aggregate_type = 'schedule' and aggregate_id = ?`, [
            String(id.meeting),
          ])
      )[0].n;
    const n0 = await events();
    for (let i = 0; i < 2; i++) {
      const same = await api(p.url, 'PUT', `/schedules/${id.meeting}`, {
        token: t.admin,
        body: { ...body, version: cur.version },
      });
      expect(same.status).toBe(200);
      expect([same.body.version, same.body.upd_dt ?? null]).toEqual([cur.version, cur.upd_dt ?? null]);
    }
    expect(await events()).toBe(n0);
    const changed = await api(p.url, 'PUT', `/schedules/${id.meeting}`, {
      token: t.admin,
      body: { ...body, description: '議題を追加', version: cur.version },
    });
    expect(changed.body.version).toBe(cur.version + 1);
    expect(await events()).toBe(n0 + 1);
  });

  it('bad input is refused with field errors and creates nothing', async () => {
    const [before] = await p.db.orm.em.fork().getConnection().execute(`select count(*)::int as n from schedule`);
    const r = await api(p.url, 'POST', '/schedules', {
      token: t.admin,
      body: entry({ title: '', start_time: '10:10', guest_id: [999999] }),
    });
    expect(r.status).toBe(400);
    expect(r.body.fieldErrors.map((f: { field: string }) => f.field).sort()).toEqual(['start_time', 'title']);
    const g = await api(p.url, 'POST', '/schedules', { token: t.admin, body: entry({ guest_id: [999999] }) });
    expect(g.status).toBe(400);
    expect(g.body.error).toContain('999999');
    const [after] = await p.db.orm.em.fork().getConnection().execute(`select count(*)::int as n from schedule`);
    expect(after.n).toBe(before.n);
  });

  it('all-day entries have null times', async () => {
    const r = await api(p.url, 'POST', '/schedules', {
      token: t.staff,
      body: entry({ title: '有給休暇', is_all_day: 1, type: 'task' }),
    });
    expect([r.body.is_all_day, r.body.start_time, r.body.end_time]).toEqual([true, null, null]);
  });
});

describe('private entries are busy time to everyone but the owner, in every channel', () => {
  it('lists, detail, my list, the grid and conflicts show others no content', async () => {
    const r = await api(p.url, 'POST', '/schedules', {
      token: t.devadmin,
      body: entry({ title: '通院', is_my_self: 1, start_time: '15:00', end_time: '16:00', type: 'task' }),
    });
    expect(r.status).toBe(201);
    const pid = r.body.schedule_id;
    id.private = pid;
    const detail = await api(p.url, 'GET', `/schedules/${pid}`, { token: t.staff });
    expect(detail.body).toMatchObject({ busy_only: true, title: null, description: null, start_time: '15:00:00' });
    const list = await api(p.url, 'GET', `/schedules?from=${D}&to=${D}`, { token: t.staff });
    expect(JSON.stringify(list.body)).not.toContain('通院');
    const grid = await gql(
      p.url,
      `query($f:String!,$t:String!){ scheduleGrid(from:$f, to:$t) { people { id entries { id title busyOnly } } } }`,
      { f: D, t: D },
      { token: t.staff },
    );
    const row = grid.body.data.scheduleGrid.people.find((x: { id: number }) => x.id === id.devadmin);
    expect(row.entries).toContainEqual({ id: pid, title: null, busyOnly: true });
    expect(JSON.stringify(grid.body)).not.toContain('通院');
    const conflicts = await gql(
      p.url,
      `query($e:[Int!]!,$d:String!){ scheduleConflicts(employeeIds:$e, date:$d, startTime:"15:30", endTime:"16:30") { employeeId title } }`,
      { e: [id.devadmin], d: D },
      { token: t.staff },
    );
    expect(conflicts.body.data.scheduleConflicts).toEqual([{ employeeId: id.devadmin, title: '予定あり' }]);
    const own = await api(p.url, 'GET', `/schedules/${pid}`, { token: t.devadmin });
    expect(own.body.title).toBe('通院');
    // A private entry cannot carry guests, so nobody can be invited into seeing it.
    const withGuest = await api(p.url, 'POST', '/schedules', {
      token: t.devadmin,
      body: entry({ is_my_self: 1, guest_id: [id.staff] }),
    });
    expect(withGuest.status).toBe(400);
  });
});

describe('the grid and the my-schedule panel', () => {
  it('puts the viewer first, lists owners and non-declining guests, filters by department and name, labels the week', async () => {
    const q = `query($f:String!,$t:String!,$d:Int,$n:String){ scheduleGrid(from:$f, to:$t, departmentId:$d, name:$n) { label totalPeople people { id name entries { id title } } } }`;
    const g = await gql(p.url, q, { f: '2025-06-09', t: '2025-06-15' }, { token: t.staff });
    const grid = g.body.data.scheduleGrid;
    expect(grid.label).toBe('06月09日 〜 06月15日');
    expect(grid.people[0].id).toBe(id.staff);
    const staffRow = grid.people[0].entries.map((e: { id: number }) => e.id);
    expect(staffRow).toContain(id.meeting); // accepted guest
    const dev = grid.people.find((x: { id: number }) => x.id === id.devadmin);
    expect(dev.entries.map((e: { id: number }) => e.id)).not.toContain(id.meeting); // declined, then removed
    const byName = await gql(p.url, q, { f: '2025-06-09', t: '2025-06-15', n: '田中' }, { token: t.staff });
    expect(byName.body.data.scheduleGrid.people.every((x: { name: string }) => x.name.includes('田中'))).toBe(true);
    const tooLong = await gql(p.url, q, { f: '2026-01-01', t: '2026-12-31' }, { token: t.staff });
    expect(tooLong.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it("the viewer's own declined invitations stay in the viewer's row (marked DECLINED), on the full and the cell path; in nobody else's view", async () => {
    const answer = (accept: boolean) =>
      gql(
        p.url,
        `mutation($id:Int!,$a:Boolean!){ respondToSchedule(id:$id, accept:$a) { myResponse } }`,
        { id: id.meeting, a: accept },
        { token: t.staff },
      );
    await answer(false);
    try {
      for (const fields of ['id myResponse', 'id myResponse guests { id }']) {
        const q = `query($f:String!,$t:String!){ scheduleGrid(from:$f, to:$t) { people { id entries { ${fields} } } } }`;
        const mine = (await gql(p.url, q, { f: '2025-06-09', t: '2025-06-15' }, { token: t.staff })).body.data
          .scheduleGrid.people;
        expect(mine[0].id).toBe(id.staff);
        expect(mine[0].entries.find((e: { id: number }) => e.id === id.meeting)?.myResponse, fields).toBe('DECLINED');
        const others = (await gql(p.url, q, { f: '2025-06-09', t: '2025-06-15' }, { token: t.devadmin })).body.data
          .scheduleGrid.people;
        const staffRow = others.find((x: { id: number }) => x.id === id.staff);
        expect(
          staffRow.entries.map((e: { id: number }) => e.id),
          fields,
        ).not.toContain(id.meeting);
        expect(
          others.find((x: { id: number }) => x.id === id.admin).entries.map((e: { id: number }) => e.id),
          fields,
        ).toContain(id.meeting); // the owner's row
      }
    } finally {
      await answer(true);
    }
  });

  it('my schedules for a day include invitations; /api/schedules/my refuses another user_id', async () => {
    const mine = await gql(
      p.url,
      `query($d:String!){ mySchedules(date:$d) { id title } }`,
      { d: D },
      { token: t.staff },
    );
    expect(mine.body.data.mySchedules.map((x: { title: string }) => x.title)).toEqual([
      '有給休暇',
      '設計レビュー（延長）',
    ]);
    expect((await api(p.url, 'GET', `/schedules/my?user_id=${id.admin}`, { token: t.staff })).status).toBe(403);
    const own = await api(p.url, 'GET', `/schedules/my?user_id=${id.staff}&from=${D}&to=${D}`, { token: t.staff });
    expect(own.body.map((x: { title: string }) => x.title)).toEqual(['有給休暇']);
  });

  it('an x-user-id header that disagrees with the session is rejected on writes', async () => {
    const r = await api(p.url, 'POST', '/schedules', {
      token: t.staff,
      body: entry(),
      headers: { 'x-user-id': String(id.admin) },
    });
    expect(r.status).toBe(403);
  });
});

describe("the grid's cells (the web grid asks only for what a cell shows)", () => {
  const CELL =
    'id version busyOnly title date endDate isAllDay startTime endTime type isPrivate myResponse canRespond canEdit owner { id }';
  const HEAVY = 'description meetLink syncGoogle externalGuests guests { id name response } owner { name }';
  const grid = async (token: string, fields: string) => {
    const r = await gql(
      p.url,
      `query($f:String!,$t:String!){ scheduleGrid(from:$f, to:$t) { people { id entries { ...E } } } } fragment E on ScheduleView { ${fields} }`,
      { f: '2025-06-09', t: '2025-06-15' },
      { token },
    );
    expect(r.body.errors).toBeUndefined();
    return r.body.data.scheduleGrid.people as { id: number; entries: Record<string, unknown>[] }[];
  };
  const cellOf = (e: Record<string, unknown>) => {
    const { description: _d, meetLink: _m, syncGoogle: _s, externalGuests: _x, guests: _g, owner, ...rest } = e;
    return { ...rest, owner: { id: (owner as { id: number }).id } };
  };

  it('chooses the cell path only for cell fields, through fragments too', async () => {
    const { parse } = await import('graphql');
    const { cellsOnly } = await import('./schedule.resolver.js');
    const info = (doc: string) => {
      const d = parse(doc);
      const op = d.definitions.find((x) => x.kind === 'OperationDefinition')!;
      const fragments = Object.fromEntries(
        d.definitions.filter((x) => x.kind === 'FragmentDefinition').map((f) => [f.name.value, f]),
      );
      return { fieldNodes: [op.selectionSet.selections[0]], fragments } as unknown as Parameters<typeof cellsOnly>[0];
    };
    expect(
      cellsOnly(
        info(
          `{ scheduleGrid { label people { id name entries { ...C } } } } fragment C on ScheduleView { ${CELL} __typename }`,
        ),
      ),
    ).toBe(true);
    expect(cellsOnly(info(`{ scheduleGrid { people { entries { ... on ScheduleView { id title } } } } }`))).toBe(true);
    expect(
      cellsOnly(
        info(`{ scheduleGrid { people { entries { ...C } } } } fragment C on ScheduleView { id owner { id name } }`),
      ),
    ).toBe(false);
    expect(cellsOnly(info(`{ scheduleGrid { people { entries { id guests { id } } } } }`))).toBe(false);
    expect(cellsOnly(info(`{ scheduleGrid { people { entries { id x: description } } } }`))).toBe(false);
  });

  it("cells hide others' private entries and equal the full entries' cell fields; heavy fields on the grid come back whole", async () => {
    for (const who of ['staff', 'devadmin', 'admin']) {
      const slim = await grid(t[who], CELL);
      const full = await grid(t[who], `${CELL} ${HEAVY}`);
      expect(slim.map((x) => x.id)).toEqual(full.map((x) => x.id));
      expect(slim).toEqual(full.map((x) => ({ id: x.id, entries: x.entries.map(cellOf) })));
      const priv = slim.find((x) => x.id === id.devadmin)!.entries.find((e) => e.id === id.private)!;
      if (who === 'devadmin')
        expect(priv).toMatchObject({ title: '通院', busyOnly: false, isPrivate: true, canEdit: true });
      else {
        expect(priv).toMatchObject({
          title: null,
          type: null,
          busyOnly: true,
          isPrivate: true,
          myResponse: null,
          canRespond: false,
          canEdit: false,
        });
        expect(JSON.stringify(slim)).not.toContain('通院');
        expect(JSON.stringify(full)).not.toContain('通院');
      }
      // Heavy fields asked of the grid are the same as the entry's own detail.
      const detailFields = `${CELL} ${HEAVY}`;
      const picked = full.flatMap((x) => x.entries).filter((x) => x.id === id.meeting || x.id === id.private);
      expect(new Set(picked.map((x) => x.id)).size).toBe(2);
      for (const e of picked) {
        const d = await gql(
          p.url,
          `query($id:Int!){ schedule(id:$id) { ${detailFields} } }`,
          { id: e.id },
          { token: t[who] },
        );
        expect(e).toEqual(d.body.data.schedule);
      }
    }
    const staffRow = (await grid(t.staff, CELL))[0];
    expect(staffRow.entries.find((e) => e.id === id.meeting)).toMatchObject({
      myResponse: 'ACCEPTED',
      canRespond: true,
      canEdit: false,
    });
  });
});

describe('live: scheduleChanged', () => {
  it('delivers changes in place, private ones without content, deletions as null', async () => {
    const url = p.url.replace('http', 'ws') + '/graphql';
    const c = createClient({
      url,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${t.staff}` },
    });
    const got: { kind: string; schedule: { title: string | null; busyOnly: boolean } | null }[] = [];
    let registered!: Promise<void>;
    const three = new Promise<void>((resolve, reject) => {
      ({ registered } = subscribeRegistered<{ scheduleChanged: (typeof got)[number] }>(
        c,
        {
          query: `subscription { scheduleChanged(from:"2025-06-01", to:"2025-06-30") { kind scheduleId schedule { title busyOnly } } }`,
        },
        {
          next: (m) => {
            got.push(m.data!.scheduleChanged);
            if (got.length === 3) resolve();
          },
          error: reject,
          complete: () => undefined,
        },
      ));
    });
    await registered;
    const a = await api(p.url, 'POST', '/schedules', { token: t.admin, body: entry({ title: '全体会議' }) });
    await api(p.url, 'POST', '/schedules', { token: t.admin, body: entry({ title: '人事面談', is_my_self: 1 }) });
    await api(p.url, 'POST', '/schedules', { token: t.admin, body: entry({ title: '来年の話', date: '2025-08-10' }) }); // outside the range
    await api(p.url, 'DELETE', `/schedules/${a.body.schedule_id}`, { token: t.admin });
    await three;
    expect(got).toEqual([
      { kind: 'created', scheduleId: expect.any(Number), schedule: { title: '全体会議', busyOnly: false } },
      { kind: 'created', scheduleId: expect.any(Number), schedule: { title: null, busyOnly: true } },
      { kind: 'deleted', scheduleId: a.body.schedule_id, schedule: null },
    ]);
    await c.dispose();
  });
});

describe('GraphQL variables', () => {
  it('fills in input-object defaults for fields left out of variables (type task, sync on, not private, no guests)', async () => {
    const r = await gql(
      p.url,
      `mutation($input: ScheduleInput!) { createSchedule(input: $input) { type syncGoogle isPrivate guests { id } externalGuests isAllDay } }`,
      { input: { title: '変数だけで作成', date: D, startTime: '13:00', endTime: '14:00' } },
      { token: t.staff },
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.createSchedule).toEqual({
      type: 'TASK',
      syncGoogle: true,
      isPrivate: false,
      guests: [],
      externalGuests: [],
      isAllDay: false,
    });
  });
});

describe('schedule ids in paths', () => {
  it('a malformed id is a 400 naming the record, on every path, never a 500', async () => {
    for (const [method, path] of [
      ['GET', '/schedules/abc'],
      ['PUT', '/schedules/abc'],
      ['DELETE', '/schedules/0'],
      ['PUT', '/schedules/1.5/response'],
      ['GET', '/employees/abc'],
      ['PUT', '/departments/abc'],
    ] as const) {
      const r = await api(p.url, method, path, {
        token: t.admin,
        body: method === 'GET' || method === 'DELETE' ? undefined : entry({ version: 1 }),
      });
      expect([path, r.status, r.body.code]).toEqual([path, 400, 'BAD_USER_INPUT']);
    }
  });
});

describe('schedule edits racing a Google push', () => {
  it('an edit that waited for a push holding the row is still marked as not yet synced', async () => {
    const pg = (await import('pg')).default;
    const made = (await api(p.url, 'POST', '/schedules', { token: t.admin, body: entry({ title: '同期の競合' }) }))
      .body;
    // A push holds the row (FOR UPDATE) while it talks to Google, then stores its sync time.
    const push = new pg.Client({ connectionString: p.db.url });
    await push.connect();
    await push.query('begin');
    await push.query('select id from schedule where id = $1 for update', [made.schedule_id]);
    const edit = api(p.url, 'PUT', `/schedules/${made.schedule_id}`, {
      token: t.admin,
      body: entry({ title: '同期の競合（編集）', version: made.version }),
    });
    await new Promise((r) => setTimeout(r, 300)); // the edit's transaction has begun and waits for the row
    await push.query('update schedule set google_synced_at = clock_timestamp() where id = $1', [made.schedule_id]);
    await push.query('commit');
    expect((await edit).status).toBe(200);
    const [row] = (
      await push.query('select updated_at > google_synced_at as dirty from schedule where id = $1', [made.schedule_id])
    ).rows;
    await push.end();
    // With now() (the transaction's start) the edit looked older than the push and was never sent.
    expect(row.dirty).toBe(true);
  });
});
