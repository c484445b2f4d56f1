import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../test/db.js';
import { api, gql, loginToken } from '../../test/http.js';

let p: TestPlatform;
let devadmin: string;
let staff: string;
beforeAll(async () => {
  p = await startTestPlatform();
  [devadmin, staff] = await Promise.all(['devadmin', 'staff'].map((l) => loginToken(p.url, l)));
});
afterAll(async () => p?.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of ad-hoc test SQL, read by column name
const sql = (q: string, params: unknown[] = []): Promise<any[]> =>
  p.db.orm.em.fork().getConnection().execute(q, params);
const REVEAL = `mutation($kind: DeviceKind!, $id: Int!, $secret: DeviceSecret!) { revealDeviceSecret(kind: $kind, id: $id, secret: $secret) }`;
const HISTORY = `query($kind: DeviceKind!, $id: Int!) { deviceHistory(kind: $kind, id: $id) { changes { reason changed changedBy { name } } } }`;

describe('revealing a PIN code or password', () => {
  it('returns the value and records who revealed which field (never the value) in the history and the outbox', async () => {
    const [pc] = await sql(
      `update computer set pin_code = '482913' where id = (select min(id) from computer) returning id`,
    );
    const [who] = await sql(`select name from employee where login_id = 'devadmin'`);
    const r = await gql(p.url, REVEAL, { kind: 'COMPUTER', id: pc.id, secret: 'PIN_CODE' }, { token: devadmin });
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.revealDeviceSecret).toBe('482913');

    const h = await gql(p.url, HISTORY, { kind: 'COMPUTER', id: pc.id }, { token: devadmin });
    expect(h.body.data.deviceHistory.changes.at(-1)).toEqual({
      reason: 'revealed',
      changed: ['pinCode'],
      changedBy: { name: who.name },
    });
    // queued or already relayed (the relay moves sent events to outbox_sent)
    const [event] = await sql(
      `select payload from outbox_event where type = 'device.secret_revealed' and aggregate_id = ?
       union all select payload from outbox_sent where type = 'device.secret_revealed' and aggregate_id = ?`,
      [`computer:${pc.id}`, `computer:${pc.id}`],
    );
    expect(event.payload.field).toBe('pinCode');
    expect(JSON.stringify(event.payload)).not.toContain('482913');
  });

  it('refuses 一般 (FORBIDDEN) and records nothing; a field of the other kind is BAD_USER_INPUT', async () => {
    const [phone] = await sql(`select min(id) as id from smartphone`);
    const refused = await gql(p.url, REVEAL, { kind: 'SMARTPHONE', id: phone.id, secret: 'PIN_PW' }, { token: staff });
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(refused.body.data?.revealDeviceSecret ?? null).toBeNull();
    const wrong = await gql(
      p.url,
      REVEAL,
      { kind: 'SMARTPHONE', id: phone.id, secret: 'PIN_CODE' },
      { token: devadmin },
    );
    expect(wrong.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const [n] = await sql(
      `select count(*)::int as n from device_history where device_kind = 'SMARTPHONE' and device_id = ? and reason = 'revealed'`,
      [phone.id],
    );
    expect(n.n).toBe(0);
  });
});

describe('secrets on the detail screens', () => {
  it('the view says which secrets are set without their values (secretsSet)', async () => {
    const [pc] = await sql(
      `update computer set pin_code = '1357', pass = null where id = (select max(id) from computer) returning id`,
    );
    const r = await gql(
      p.url,
      `query($id: Int!) { computer(id: $id) { secretsSet } }`,
      { id: pc.id },
      { token: devadmin },
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.computer.secretsSet).toEqual(['PIN_CODE']);
    const [phone] = await sql(
      `update smartphone set pin_pw = '2468' where id = (select max(id) from smartphone) returning id`,
    );
    const s = await gql(
      p.url,
      `query($id: Int!) { smartphone(id: $id) { secretsSet } }`,
      { id: phone.id },
      { token: devadmin },
    );
    expect(s.body.data.smartphone.secretsSet).toEqual(['PIN_PW']);
  });

  it('an update that leaves a secret out keeps it (GraphQL and /api); null clears it', async () => {
    const [pc] = await sql(
      `update computer set pin_code = '9753', pass = 'kept-pass' where id = (select max(id) from computer) returning id, version, maker`,
    );
    const UPDATE = `mutation($id: Int!, $input: ComputerInput!) { updateComputer(id: $id, input: $input) { version secretsSet } }`;
    const kept = await gql(
      p.url,
      UPDATE,
      { id: pc.id, input: { maker: 'SecretKeepMaker', status: 'NORMAL', version: pc.version } },
      { token: devadmin },
    );
    expect(kept.body.errors).toBeUndefined();
    expect(kept.body.data.updateComputer.secretsSet).toEqual(['PIN_CODE', 'PASS']);
    const [after] = await sql(`select pin_code, pass, maker from computer where id = ?`, [pc.id]);
    expect(after).toEqual({ pin_code: '9753', pass: 'kept-pass', maker: 'SecretKeepMaker' });

    const cleared = await gql(
      p.url,
      UPDATE,
      {
        id: pc.id,
        input: {
          maker: 'SecretKeepMaker',
          status: 'NORMAL',
          pinCode: null,
          version: kept.body.data.updateComputer.version,
        },
      },
      { token: devadmin },
    );
    expect(cleared.body.data.updateComputer.secretsSet).toEqual(['PASS']);

    const [phone] = await sql(
      `update smartphone set pin_pw = '1122' where id = (select max(id) from smartphone) returning id, version`,
    );
    const put = await api(p.url, 'PUT', `/smartphone/${phone.id}`, {
      token: devadmin,
      body: {
        phone_number: '080-3333-4444',
        carrier: 'au',
        os: 'Android 15',
        price: '50000',
        status: '正常',
        location: '姫路',
        version: phone.version,
      },
    });
    expect(put.status).toBe(200);
    const [phoneAfter] = await sql(`select pin_pw, phone_number from smartphone where id = ?`, [phone.id]);
    expect(phoneAfter.phone_number).toBe('080-3333-4444');
    expect(phoneAfter.pin_pw).toBe('1122');
  });
});
