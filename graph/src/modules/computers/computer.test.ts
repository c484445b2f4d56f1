import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../test/db.js';
import { api, gql, loginToken } from '../../test/http.js';

let p: TestPlatform;
let admin: string;
let sysadmin: string;
let devadmin: string;
let staff: string;
beforeAll(async () => {
  p = await startTestPlatform();
  [admin, sysadmin, devadmin, staff] = await Promise.all(
    ['admin', 'sysadmin', 'devadmin', 'staff'].map((l) => loginToken(p.url, l)),
  );
});
afterAll(async () => p?.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of ad-hoc test SQL, read by column name
const sql = (q: string, params: unknown[] = []): Promise<any[]> =>
  p.db.orm.em.fork().getConnection().execute(q, params);
const activeEmployee = async (skip = 0) =>
  (
    await sql(
      `select id, name from employee where status = 'ACTIVE' and login_id <> 'admin' order by id desc limit 1 offset ?`,
      [skip],
    )
  )[0];
const pc = (extra: Record<string, unknown> = {}) => ({
  maker: 'Dell',
  device_type: 'ノートPC',
  model: 'Latitude 7450',
  status: '正常',
  location: '東京',
  department: '開発',
  ...extra,
});

describe('computers: roles', () => {
  it('一般 gets 403 on every /api/computers path and FORBIDDEN in GraphQL; nothing changes', async () => {
    const [{ id }] = await sql(`select id from computer order by id limit 1`);
    const [before] = await sql(`select count(*)::int as n, max(version) as v from computer`);
    for (const [method, path, body] of [
      ['GET', '/computers'],
      ['POST', '/computers', pc()],
      ['GET', '/computers/export'],
      ['GET', `/computers/${id}`],
      ['PUT', `/computers/${id}`, pc({ version: 1 })],
      ['GET', `/computers/${id}/history`],
      ['POST', '/computers', pc({ location: '札幌' })], // even a bad name: 403 first, never a hint
    ] as const) {
      const r = await api(p.url, method, path, { token: staff, body });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body.code).toBe('FORBIDDEN');
    }
    for (const q of [
      `{ computers { total } }`,
      `{ computer(id: ${id}) { id } }`,
      `mutation { createComputer(input: { maker: "x", status: NORMAL }) { id } }`,
      `{ deviceHistory(kind: COMPUTER, id: ${id}) { deviceId } }`,
      `{ deviceOptions { computerStatuses { code } } }`,
    ]) {
      const g = await gql(p.url, q, {}, { token: staff });
      expect(g.body.errors?.[0]?.extensions?.code, q).toBe('FORBIDDEN');
    }
    expect(await sql(`select count(*)::int as n, max(version) as v from computer`)).toEqual([before]);
    expect((await api(p.url, 'GET', '/computers')).status).toBe(401);
  });

  it('管理者, デバイス管理者 and システム管理者 may all read', async () => {
    for (const token of [admin, devadmin, sysadmin])
      expect((await api(p.url, 'GET', '/computers', { token })).status).toBe(200);
  });
});

describe('computers: list', () => {
  it('hides 廃棄 and 処分済み unless asked, pages with a total, and flags rows for their styles', async () => {
    const [counts] = await sql(
      `select count(*)::int as all, count(*) filter (where status not in ('DISCARDED', 'DISPOSED'))::int as shown from computer`,
    );
    const page = await api(p.url, 'GET', '/computers?limit=10&offset=5', { token: devadmin });
    expect(page.status).toBe(200);
    expect(page.body).toHaveLength(10);
    expect(Number(page.headers.get('x-total-count'))).toBe(counts.shown);
    const all = await api(p.url, 'GET', '/computers?show_discarded=1&limit=200', { token: devadmin });
    expect(all.body).toHaveLength(counts.all);
    const ids = all.body.map((c: { id: number }) => c.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(all.body.some((c: { status: string }) => c.status === '処分済み')).toBe(true);
    const discarded = all.body.find((c: { status: string }) => c.status === '廃棄');
    expect(discarded).toMatchObject({ is_discarded: true, is_broken: false, status_code: 'DISCARDED' });
    expect(all.body.find((c: { status: string }) => c.status === '故障')).toMatchObject({
      is_broken: true,
      is_discarded: false,
    });
    const retiredRow = all.body.find((c: { current_user_status: string }) => c.current_user_status === '退職');
    expect(retiredRow).toMatchObject({ current_user_retired: true, current_user_name: expect.any(String) });
  });

  it('filters by maker text, department, status, location and Office account; an explicit status shows discarded ones', async () => {
    const list = async (q: string) =>
      (await api(p.url, 'GET', `/computers?limit=200&${q}`, { token: admin })).body as Record<string, unknown>[];
    const dell = await list('maker=de');
    expect(dell.length).toBeGreaterThan(0);
    expect(dell.every((c) => /de/i.test(c.maker as string))).toBe(true);
    expect(await list('maker=%25')).toEqual([]); // LIKE wildcards are literal
    const dept = (await list('department=開発'))[0];
    expect((await list(`department_id=${dept.department_id}`)).every((c) => c.department === '開発')).toBe(true);
    expect((await list('location=大阪')).every((c) => c.location === '大阪')).toBe(true);
    const lost = await list('status=紛失');
    expect(lost.length).toBe(2);
    expect((await list('status=DISCARDED')).every((c) => c.status === '廃棄')).toBe(true);
    expect((await list('status=DISCARDED')).length).toBe(2);
    const [acct] = await sql(
      `select office_account_id as id, count(*)::int as n from computer where office_account_id is not null group by 1 order by 2 desc limit 1`,
    );
    const tied = await list(`ms365=${acct.id}&show_discarded=1`);
    expect(tied).toHaveLength(acct.n);
    expect(tied.every((c) => c.ms365 === acct.id && typeof c.ms365_account === 'string')).toBe(true);
    const bad = await api(p.url, 'GET', '/computers?status=壊れた&location=札幌&limit=0', { token: admin });
    expect(bad.status).toBe(400);
  });

  it('GraphQL gives the same list with nested people, places and the Office account (all from the one joined query)', async () => {
    const g = await gql(
      p.url,
      `{ computers(limit: 100, filter: { showDiscarded: true }) { total items { id maker status statusLabel isDiscarded isBroken currentUserRetired currentUserStatus
          currentUser { id name statusLabel retired } previousUser { name } location { name } department { name } officeAccount { id account } } } }`,
      {},
      { token: sysadmin },
    );
    expect(g.body.errors).toBeUndefined();
    const items = g.body.data.computers.items;
    expect(items.length).toBe(g.body.data.computers.total);
    expect(items.some((c: { officeAccount: unknown }) => c.officeAccount)).toBe(true);
    expect(items.filter((c: { currentUserRetired: boolean }) => c.currentUserRetired).length).toBeGreaterThanOrEqual(3);
    const opts = await gql(
      p.url,
      `{ deviceOptions { computerStatuses { code label } smartphoneStatuses { label } officeAccountStatuses { label } officeUsageLimit } }`,
      {},
      { token: devadmin },
    );
    expect(opts.body.data.deviceOptions.computerStatuses.map((s: { label: string }) => s.label)).toEqual([
      '正常',
      '交換対象',
      '故障',
      '廃棄',
      '紛失',
      '処分済み',
    ]);
    expect(opts.body.data.deviceOptions.smartphoneStatuses.map((s: { label: string }) => s.label)).toEqual([
      '正常',
      '故障',
      '交換対象',
      '廃棄',
      '処分済み',
    ]);
    expect(opts.body.data.deviceOptions.officeAccountStatuses.map((s: { label: string }) => s.label)).toEqual([
      '使用中',
      '停止',
    ]);
    expect(opts.body.data.deviceOptions.officeUsageLimit).toBe(5); // the spec's limit, which the Office row colours use
  });
});

describe('computers: writes', () => {
  it('creates with the spec fields by REST (names for location and department), records the event and the first history row', async () => {
    const user = await activeEmployee();
    const [acct] = await sql(`select id, account from office_account where status = 'IN_USE' order by id desc limit 1`);
    const r = await api(p.url, 'POST', '/computers', {
      token: devadmin,
      body: pc({
        current_user: String(user.id),
        ms365: acct.id,
        purchase_date: '2025/04/01',
        introduction_date: '2025-04-10',
        pin_code: '1234',
        pass: 'secret-pass',
        ac_adapter: '有',
        power_cable: '無',
        reason: '',
      }),
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      maker: 'Dell',
      device_type: 'ノートPC',
      model: 'Latitude 7450',
      status: '正常',
      location: '東京',
      department: '開発',
      current_user: user.id,
      current_user_name: user.name,
      current_user_status: '在籍',
      previous_user: null,
      ms365: acct.id,
      ms365_account: acct.account,
      purchase_date: '2025-04-01',
      introduction_date: '2025-04-10',
      pin_code: '1234',
      pass: 'secret-pass',
      ac_adapter: '有',
      power_cable: '無',
      reason: null,
      version: 1,
    });
    const [ev] = await sql(`select type, aggregate_type, payload from outbox_all where aggregate_id = ?`, [
      `computer:${r.body.id}`,
    ]);
    expect(ev).toMatchObject({ type: 'device.computer.created', aggregate_type: 'device' });
    expect(JSON.stringify(ev.payload)).not.toMatch(/secret-pass|1234/);
    const h = await api(p.url, 'GET', `/computers/${r.body.id}/history`, { token: devadmin });
    expect(h.body.changes).toHaveLength(1);
    expect(h.body.changes[0]).toMatchObject({
      reason: 'created',
      to_user: user.id,
      to_status: '正常',
      to_location: '東京',
      changed_by_name: '高橋 健太',
    });
    expect(h.body.assignments).toEqual([
      expect.objectContaining({ employee_id: user.id, to: null, assigned_by_name: '高橋 健太' }),
    ]);
  });

  it('refuses bad input with Japanese field errors and writes nothing', async () => {
    const [before] = await sql(`select count(*)::int as n from computer`);
    const [retired] = await sql(`select id from employee where status = 'RETIRED' limit 1`);
    const [suspended] = await sql(`select id from office_account where status = 'SUSPENDED' limit 1`);
    const bad = await gql(
      p.url,
      `mutation($i: ComputerInput!) { createComputer(input: $i) { id } }`,
      {
        i: {
          maker: ' ',
          status: 'NORMAL',
          purchaseDate: '2025-02-30',
          introductionDate: 'tomorrow',
          currentUserId: 999999,
          previousUserId: 999998,
        },
      },
      { token: admin },
    );
    expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const fields = bad.body.errors[0].extensions.fieldErrors.map((f: { field: string }) => f.field).sort();
    expect(fields).toEqual(['introductionDate', 'maker', 'purchaseDate']);
    expect(
      bad.body.errors[0].extensions.fieldErrors.every((f: { message: string }) => /[ぁ-んァ-ン一-龥]/.test(f.message)),
    ).toBe(true);
    const refs = await api(p.url, 'POST', '/computers', {
      token: admin,
      body: pc({
        current_user: retired.id,
        previous_user: 999999,
        location_id: 999,
        department_id: 999,
        ms365: suspended.id,
      }),
    });
    expect(refs.status).toBe(400);
    expect(refs.body.fieldErrors.map((f: { field: string }) => f.field).sort()).toEqual([
      'current_user',
      'department_id',
      'location_id',
      'ms365',
      'previous_user',
    ]);
    expect(refs.body.fieldErrors.find((f: { field: string }) => f.field === 'current_user').message).toContain('退職');
    const unknownName = await api(p.url, 'POST', '/computers', { token: admin, body: pc({ location: '札幌' }) });
    expect(unknownName.status).toBe(400);
    expect(unknownName.body.fieldErrors[0].field).toBe('location');
    const order = await api(p.url, 'POST', '/computers', {
      token: admin,
      body: pc({ purchase_date: '2025-05-01', introduction_date: '2025-04-01' }),
    });
    expect(order.body.fieldErrors).toEqual([
      { field: 'introduction_date', message: '導入日は購入日以降の日付にしてください。' },
    ]);
    const badStatus = await api(p.url, 'POST', '/computers', {
      token: admin,
      body: pc({ status: '絶好調', ms365: 'abc' }),
    });
    expect(badStatus.body.fieldErrors.map((f: { field: string }) => f.field).sort()).toEqual(['ms365', 'status']);
    expect(await sql(`select count(*)::int as n from computer`)).toEqual([before]);
  });

  it('a stale save is a CONFLICT naming who saved in between; an unchanged save makes no version and no event', async () => {
    const c = (await api(p.url, 'POST', '/computers', { token: admin, body: pc({ model: '競合テスト' }) })).body;
    const first = await api(p.url, 'PUT', `/computers/${c.id}`, {
      token: sysadmin,
      body: { ...pc({ model: '競合テスト' }), status: '故障', reason: '画面割れ', version: c.version },
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: '故障', is_broken: true, reason: '画面割れ', version: c.version + 1 });
    const stale = await api(p.url, 'PUT', `/computers/${c.id}`, {
      token: devadmin,
      body: { ...pc({ model: '競合テスト' }), model: '上書き', version: c.version },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('CONFLICT');
    expect(stale.body.error).toContain('鈴木 花子さん');
    expect(stale.body.current).toMatchObject({
      id: c.id,
      status: '故障',
      status_code: 'BROKEN',
      version: c.version + 1,
    });
    expect(stale.body.current).toEqual((await api(p.url, 'GET', `/computers/${c.id}`, { token: devadmin })).body); // the REST record, as GET answers it
    const g = await gql(
      p.url,
      `mutation($id:Int!,$v:Int!){ updateComputer(id:$id, input:{ maker:"Dell", status: NORMAL, version:$v }) { id } }`,
      { id: c.id, v: c.version },
      { token: admin },
    );
    expect(g.body.errors[0].extensions.code).toBe('CONFLICT');
    const same = await api(p.url, 'PUT', `/computers/${c.id}`, {
      token: admin,
      body: { ...pc({ model: '競合テスト' }), status: '故障', reason: '画面割れ', version: first.body.version },
    });
    expect(same.body.version).toBe(first.body.version);
    expect(await sql(`select type from outbox_all where aggregate_id = ? order by seq`, [`computer:${c.id}`])).toEqual([
      { type: 'device.computer.created' },
      { type: 'device.computer.updated' },
    ]);
    expect((await api(p.url, 'PUT', '/computers/99999', { token: admin, body: pc({ version: 1 }) })).status).toBe(404);
    expect((await api(p.url, 'GET', '/computers/99999', { token: admin })).status).toBe(404);
    expect((await api(p.url, 'GET', '/computers/abc', { token: admin })).status).toBe(400);
    expect(
      (await api(p.url, 'PUT', `/computers/${c.id}`, { token: admin, body: pc() })).body.fieldErrors[0].field,
    ).toBe('version');
  });

  it('an unchanged save of a computer with dates and an Office account is a no-op; GraphQL YYYY/MM/DD is stored as YYYY-MM-DD', async () => {
    const [acct] = await sql(`select id from office_account where status = 'IN_USE' order by id limit 1`);
    const input = {
      maker: 'NEC',
      status: 'NORMAL',
      purchaseDate: '2024/4/1',
      introductionDate: '2024-04-02',
      officeAccountId: acct.id,
      pinCode: '0000',
    };
    const c = await gql(
      p.url,
      `mutation($i: ComputerInput!) { createComputer(input: $i) { id version purchaseDate introductionDate } }`,
      { i: input },
      { token: devadmin },
    );
    const made = c.body.data.createComputer;
    expect(made).toMatchObject({ purchaseDate: '2024-04-01', introductionDate: '2024-04-02', version: 1 });
    const same = await gql(
      p.url,
      `mutation($id:Int!, $i: ComputerInput!) { updateComputer(id: $id, input: $i) { version } }`,
      { id: made.id, i: { ...input, purchaseDate: '2024-04-01', version: 1 } },
      { token: devadmin },
    );
    expect(same.body.data.updateComputer.version).toBe(1);
  });

  it('handing over keeps the story: the old user becomes the previous user, the history names who had it from when to when', async () => {
    const a = await activeEmployee(1);
    const b = await activeEmployee(2);
    const c = (await api(p.url, 'POST', '/computers', { token: admin, body: pc({ current_user: a.id }) })).body;
    const moved = await api(p.url, 'PUT', `/computers/${c.id}`, {
      token: devadmin,
      body: pc({ current_user: b.id, location: '大阪', version: c.version }),
    });
    expect(moved.body).toMatchObject({
      current_user: b.id,
      previous_user: a.id,
      previous_user_name: a.name,
      location: '大阪',
    });
    const edited = await api(p.url, 'PUT', `/computers/${c.id}`, {
      token: devadmin,
      body: pc({
        current_user: b.id,
        previous_user: a.id,
        location: '大阪',
        model: '型番だけ変更',
        version: moved.body.version,
      }),
    });
    expect(edited.body.version).toBe(moved.body.version + 1);
    const returned = await api(p.url, 'PUT', `/computers/${c.id}`, {
      token: admin,
      body: pc({
        current_user: null,
        previous_user: b.id,
        location: '大阪',
        model: '型番だけ変更',
        status: '交換対象',
        version: edited.body.version,
      }),
    });
    expect(returned.body).toMatchObject({ current_user: null, previous_user: b.id, status: '交換対象' });
    const t = await gql(
      p.url,
      `query($id:Int!){ deviceHistory(kind: COMPUTER, id: $id) { deviceId assignments { user { id } from to assignedBy { name } endedBy { name } }
         changes { reason changed fromUser { id } toUser { id } fromStatus toStatus fromLocation { name } toLocation { name } changedBy { name } changedAt } } }`,
      { id: c.id },
      { token: sysadmin },
    );
    const { assignments, changes } = t.body.data.deviceHistory;
    expect(changes.map((x: { changed: string[] }) => x.changed)).toEqual([
      ['currentUser', 'status', 'location'],
      ['currentUser', 'location'],
      ['currentUser', 'status'],
    ]);
    expect(changes[1]).toMatchObject({
      reason: 'edit',
      fromUser: { id: a.id },
      toUser: { id: b.id },
      fromLocation: { name: '東京' },
      toLocation: { name: '大阪' },
      changedBy: { name: '高橋 健太' },
    });
    expect(changes[2]).toMatchObject({
      fromStatus: 'NORMAL',
      toStatus: 'REPLACE',
      toUser: null,
      changedBy: { name: '山田 太郎' },
    });
    expect(assignments).toHaveLength(2);
    expect(assignments[0]).toMatchObject({
      user: { id: a.id },
      to: changes[1].changedAt,
      assignedBy: { name: '山田 太郎' },
      endedBy: { name: '高橋 健太' },
    });
    expect(assignments[1]).toMatchObject({
      user: { id: b.id },
      from: changes[1].changedAt,
      to: changes[2].changedAt,
      endedBy: { name: '山田 太郎' },
    });
    const rest = await api(p.url, 'GET', `/computers/${c.id}/history`, { token: admin });
    expect(rest.body.assignments.map((x: { employee_id: number }) => x.employee_id)).toEqual([a.id, b.id]);
    expect(rest.body.changes[2]).toMatchObject({
      from_status: '正常',
      to_status: '交換対象',
      from_user: b.id,
      to_user: null,
    });
    expect((await api(p.url, 'GET', '/computers/99999/history', { token: admin })).status).toBe(404);
  });
});

describe('computers: 管理番号', () => {
  it('is unique (a clash names the field), kept when an update leaves it out, cleared by an empty value', async () => {
    const a = await api(p.url, 'POST', '/computers', { token: devadmin, body: pc({ asset_number: ' AN-1 ' }) });
    expect(a.status).toBe(201);
    expect(a.body.asset_number).toBe('AN-1');
    const clash = await api(p.url, 'POST', '/computers', { token: devadmin, body: pc({ asset_number: 'AN-1' }) });
    expect(clash.status).toBe(400);
    expect(clash.body.fieldErrors).toEqual([{ field: 'asset_number', message: 'この管理番号は既に使われています。' }]);
    const kept = await api(p.url, 'PUT', `/computers/${a.body.id}`, {
      token: devadmin,
      body: pc({ model: 'X', version: a.body.version }),
    });
    expect(kept.body.asset_number).toBe('AN-1');
    const g = await gql(
      p.url,
      `mutation($id: Int!, $v: Int!) { updateComputer(id: $id, input: { maker: "Dell", status: NORMAL, assetNumber: "", version: $v }) { assetNumber } }`,
      { id: a.body.id, v: kept.body.version },
      { token: devadmin },
    );
    expect(g.body.data.updateComputer.assetNumber).toBeNull();
  });
});
