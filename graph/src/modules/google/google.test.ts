import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../test/db.js';
import { api, gql, loginToken } from '../../test/http.js';
import { startFakeGoogle, type FakeGoogle } from '../../test/fake-google-calendar.js';

let p: TestPlatform;
let fake: FakeGoogle;
const t: Record<string, string> = {};
const id: Record<string, number> = {};
const ADMIN_GOOGLE = 'taro.yamada@example.co.jp';

beforeAll(async () => {
  fake = await startFakeGoogle();
  p = await startTestPlatform({
    GOOGLE_CLIENT_ID: 'test-client.apps.googleusercontent.com',
    GOOGLE_CLIENT_SECRET: 'test-secret',
    GOOGLE_CALENDAR_API_URL: fake.rootUrl,
    GOOGLE_OAUTH_TOKEN_URL: fake.tokenUrl,
    GOOGLE_OAUTH_REVOKE_URL: fake.revokeUrl,
    GOOGLE_OAUTH_AUTH_URL: fake.authUrl,
    GOOGLE_OAUTH_REDIRECT_URL: 'http://intranet.test/api/google/oauth/callback',
    GOOGLE_RETRY_BASE_MS: '1',
    GOOGLE_RETRY_MAX_MS: '5',
  });
  for (const l of ['admin', 'staff', 'sysadmin']) {
    t[l] = await loginToken(p.url, l);
    id[l] = (await api(p.url, 'GET', '/auth/me', { token: t[l] })).body.employee.employee_id;
  }
});
afterAll(async () => {
  await p?.close();
  await fake?.close();
});

const STATUS = `{ googleCalendarStatus { enabled connected email lastSuccessAt lastError pending pendingChanges } }`;
const callback = (token: string, q: string) =>
  fetch(`${p.url}/api/google/oauth/callback?${q}`, {
    headers: { authorization: `Bearer ${token}` },
    redirect: 'manual',
  });

describe('Google Calendar connection (GraphQL + OAuth callback)', () => {
  it('status before connecting; the consent URL asks for offline access with a signed state', async () => {
    const s = await gql(p.url, STATUS, {}, { token: t.admin });
    expect(s.body.data.googleCalendarStatus).toMatchObject({
      enabled: true,
      connected: false,
      email: null,
      pending: false,
    });
    const r = await gql(p.url, `{ googleCalendarConnectUrl }`, {}, { token: t.admin });
    const u = new URL(r.body.data.googleCalendarConnectUrl);
    expect(u.origin + u.pathname).toBe(fake.authUrl);
    expect(u.searchParams.get('access_type')).toBe('offline');
    expect(u.searchParams.get('prompt')).toBe('consent');
    expect(u.searchParams.get('redirect_uri')).toBe('http://intranet.test/api/google/oauth/callback');
    expect(u.searchParams.get('scope')).toContain('https://www.googleapis.com/auth/calendar.events');
    expect(u.searchParams.get('state')).toMatch(/^[\w-]+\.[\w-]+$/);
  });

  it('the callback checks the state against the session user; tampering and other users are refused', async () => {
    const url = new URL(
      (await gql(p.url, `{ googleCalendarConnectUrl }`, {}, { token: t.admin })).body.data.googleCalendarConnectUrl,
    );
    const state = url.searchParams.get('state')!;
    const other = await callback(
      t.staff,
      `code=${encodeURIComponent(fake.issueCode('x@example.com'))}&state=${encodeURIComponent(state)}`,
    );
    expect(other.status).toBe(303);
    expect(other.headers.get('location')).toBe('/schedules?google=error&code=FORBIDDEN&reason=user');
    const tampered = await callback(
      t.admin,
      `code=c&state=${encodeURIComponent(state.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')))}`,
    );
    expect(tampered.headers.get('location')).toBe('/schedules?google=error&code=BAD_USER_INPUT&reason=state');
    const denied = await callback(t.admin, `error=access_denied&state=${encodeURIComponent(state)}`);
    expect(denied.headers.get('location')).toBe('/schedules?google=denied');
    expect((await gql(p.url, STATUS, {}, { token: t.staff })).body.data.googleCalendarStatus.connected).toBe(false);
  });

  it('a valid callback stores the refresh token encrypted and asks for a full sync', async () => {
    const url = new URL(
      (await gql(p.url, `{ googleCalendarConnectUrl }`, {}, { token: t.admin })).body.data.googleCalendarConnectUrl,
    );
    const code = fake.issueCode(ADMIN_GOOGLE);
    const r = await callback(
      t.admin,
      `code=${encodeURIComponent(code)}&state=${encodeURIComponent(url.searchParams.get('state')!)}`,
    );
    expect(r.headers.get('location')).toBe('/schedules?google=connected');
    const [row] = await p.db.orm.em.fork().execute(`select * from google_connection where employee_id = ?`, [id.admin]);
    expect(row.google_email).toBe(ADMIN_GOOGLE);
    expect(row.refresh_token_enc).toMatch(/^v1\./);
    expect(row.refresh_token_enc).not.toContain('1//');
    expect(row.sync_token).toBeNull();
    const s = (await gql(p.url, STATUS, {}, { token: t.admin })).body.data.googleCalendarStatus;
    expect(s).toMatchObject({ connected: true, email: ADMIN_GOOGLE, pending: true });
  });

  it('syncGoogleCalendar(month) records the request for the worker; a bad month is refused', async () => {
    const ok = await gql(
      p.url,
      `mutation { syncGoogleCalendar(month: "2026-12") { connected pending } }`,
      {},
      { token: t.admin },
    );
    expect(ok.body.data.syncGoogleCalendar).toEqual({ connected: true, pending: true });
    const [row] = await p.db.orm.em
      .fork()
      .execute(`select requested_month from google_connection where employee_id = ?`, [id.admin]);
    expect(row.requested_month).toBe('2026-12');
    const bad = await gql(
      p.url,
      `mutation { syncGoogleCalendar(month: "2026-13") { connected } }`,
      {},
      { token: t.admin },
    );
    expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});

describe("the spec's GET /schedules/google and PUT /schedules/google/{googleEventId}", () => {
  it('lists external events in the range as schedule-like items (intranet-written events excluded)', async () => {
    fake.insert(ADMIN_GOOGLE, {
      summary: '取引先との打ち合わせ',
      start: { dateTime: '2026-12-03T01:00:00Z' },
      end: { dateTime: '2026-12-03T02:30:00Z' },
      organizer: { email: 'boss@partner.jp' },
      attendees: [
        { email: 'boss@partner.jp', responseStatus: 'accepted' },
        { email: ADMIN_GOOGLE, responseStatus: 'needsAction' },
      ],
      hangoutLink: 'https://meet.google.com/abc-defg-hij',
    });
    fake.insert(ADMIN_GOOGLE, {
      summary: '社内から',
      start: { date: '2026-12-04' },
      end: { date: '2026-12-05' },
      extendedProperties: { private: { intranetId: '1' } },
    });
    fake.insert(ADMIN_GOOGLE, { summary: '範囲外', start: { date: '2027-02-04' }, end: { date: '2027-02-05' } });
    const r = await api(
      p.url,
      'GET',
      '/schedules/google?timeMin=2026-12-01T00:00:00%2B09:00&timeMax=2027-01-01T00:00:00%2B09:00',
      { token: t.admin },
    );
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(1);
    expect(r.body[0]).toMatchObject({
      title: '取引先との打ち合わせ',
      date: '2026-12-03',
      end_date: '2026-12-03',
      is_all_day: false,
      start_time: '10:00:00',
      end_time: '11:30:00',
      meetLink: 'https://meet.google.com/abc-defg-hij',
      other_guest: 'boss@partner.jp',
      is_joined: null,
      syncGoogle: false,
      type: 'remote',
    });
    expect((await api(p.url, 'GET', '/schedules/google?timeMin=x&timeMax=y', { token: t.admin })).status).toBe(400);
    // Not connected: a code of its own (the request itself was fine), for either call.
    const unconnected = await api(p.url, 'GET', '/schedules/google?timeMin=2026-12-01&timeMax=2027-01-01', {
      token: t.staff,
    });
    expect(unconnected.status).toBe(409);
    expect(unconnected.body).toMatchObject({
      code: 'GOOGLE_NOT_CONNECTED',
      error: expect.stringContaining('接続されていません'),
    });
    const answer = await api(p.url, 'PUT', '/schedules/google/abc123', { token: t.staff, body: { is_joined: 1 } });
    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe('GOOGLE_NOT_CONNECTED');
    expect((await api(p.url, 'GET', '/schedules/google?timeMin=2026-12-01&timeMax=2027-01-01')).status).toBe(401);
  });

  it('PUT answers as the user: their attendee responseStatus on Google', async () => {
    const ev = fake.events(ADMIN_GOOGLE).find((e) => e.summary === '取引先との打ち合わせ')!;
    const yes = await api(p.url, 'PUT', `/schedules/google/${ev.id}`, {
      token: t.admin,
      body: {
        end_date: '2026-12-03',
        is_all_day: false,
        is_my_self: 0,
        is_joined: 1,
        start_time: '10:00',
        end_time: '11:30',
      },
    });
    expect(yes.status).toBe(200);
    expect(yes.body.is_joined).toBe(1);
    expect(
      fake
        .events(ADMIN_GOOGLE)
        .find((e) => e.id === ev.id)!
        .attendees!.find((a) => a.email === ADMIN_GOOGLE)!.responseStatus,
    ).toBe('accepted');
    const no = await api(p.url, 'PUT', `/schedules/google/${ev.id}`, { token: t.admin, body: { is_joined: 0 } });
    expect(no.body.is_joined).toBe(0);
    expect(
      (await api(p.url, 'PUT', `/schedules/google/${ev.id}`, { token: t.admin, body: { is_joined: 'maybe' } })).status,
    ).toBe(400);
    expect(
      (await api(p.url, 'PUT', `/schedules/google/nosuchevent1`, { token: t.admin, body: { is_joined: 1 } })).status,
    ).toBe(404);
    const mine = fake.insert(ADMIN_GOOGLE, {
      summary: '自分だけ',
      start: { date: '2026-12-10' },
      end: { date: '2026-12-11' },
    });
    expect(
      (await api(p.url, 'PUT', `/schedules/google/${mine.id}`, { token: t.admin, body: { is_joined: 1 } })).status,
    ).toBe(403);
  });
});

describe('ICS feed', () => {
  it("secret URL with the owner's entries (private ones as busy time unless the owner shows their titles) and accepted ones, never others' private entries; revocable", async () => {
    const mk = (token: string, body: Record<string, unknown>) =>
      api(p.url, 'POST', '/schedules', {
        token,
        body: { date: '2026-12-15', start_time: '10:00', end_time: '11:00', syncGoogle: false, ...body },
      });
    await mk(t.staff, { title: '私用;通院, 午前', is_my_self: 1, description: '内科\r受付 9時' });
    await mk(t.staff, { title: '週報', description: '1行目\r2行目\r\n3行目\nDTSTART:19700101T000000' });
    const accepted = (await mk(t.admin, { title: '全体会議', guest_id: [id.staff] })).body.schedule_id;
    await mk(t.admin, { title: '未回答の会議', guest_id: [id.staff] });
    await mk(t.admin, { title: '他人の私用', is_my_self: 1, guest_id: [id.staff] });
    await api(p.url, 'PUT', `/schedules/${accepted}/response`, { token: t.staff, body: { is_joined: 1 } });
    const g = await gql(p.url, `mutation { regenerateIcsFeed { url } }`, {}, { token: t.staff });
    const url = new URL(g.body.data.regenerateIcsFeed.url);
    const res = await fetch(`${p.url}${url.pathname}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/calendar/);
    const text = await res.text();
    expect(text.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    // A calendar client that polls revalidates: the same feed is a 304 without a body.
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await fetch(`${p.url}${url.pathname}`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    // Every line ends in CRLF and none holds a bare CR or LF or is longer than 75 octets.
    for (const line of text.slice(0, -2).split('\r\n')) {
      expect(line).not.toMatch(/[\r\n]/);
      expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    }
    const unfolded = text.replace(/\r\n[ \t]/g, '');
    expect(unfolded).toContain('DESCRIPTION:1行目\\n2行目\\n3行目\\nDTSTART:19700101T000000\r\n');
    // The owner's private entry: busy time only, by default.
    expect(text).toContain('SUMMARY:予定あり');
    expect(text).toContain('CLASS:PRIVATE');
    expect(text).not.toMatch(/私用|通院|内科/);
    // The accepted meeting names its organizer and its guest by their addresses, with the answer.
    const meeting = unfolded.split('BEGIN:VEVENT').find((v) => v.includes('SUMMARY:全体会議'))!;
    const [who] = await p.db.orm.em
      .fork()
      .execute(
        `select (select email from employee where id = ?) as admin, (select email from employee where id = ?) as staff`,
        [id.admin, id.staff],
      );
    expect(meeting).toMatch(new RegExp(`\r\nORGANIZER;CN="[^"]+":mailto:${who.admin}\r\n`));
    expect(meeting).toMatch(
      new RegExp(`\r\nATTENDEE;CN="[^"]+";ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED:mailto:${who.staff}\r\n`),
    );
    const settings = await gql(p.url, `{ icsFeedSettings { enabled showPrivateDetails } }`, {}, { token: t.staff });
    expect(settings.body.data.icsFeedSettings).toEqual({ enabled: true, showPrivateDetails: false });
    const on = await gql(
      p.url,
      `mutation { setIcsFeedShowPrivateDetails(show: true) { enabled showPrivateDetails } }`,
      {},
      { token: t.staff },
    );
    expect(on.body.data.setIcsFeedShowPrivateDetails).toEqual({ enabled: true, showPrivateDetails: true });
    const shown = (await (await fetch(`${p.url}${url.pathname}`)).text()).replace(/\r\n[ \t]/g, '');
    expect(shown).toContain('SUMMARY:私用\\;通院\\, 午前');
    expect(shown).toContain('DESCRIPTION:内科\\n受付 9時');
    expect(shown).not.toContain('予定あり');
    expect(text).toContain('SUMMARY:全体会議');
    expect(text).toContain('DTSTART;TZID=Asia/Tokyo:20261215T100000');
    expect(text).not.toContain('未回答の会議');
    expect(text).not.toContain('他人の私用');
    expect((await gql(p.url, `{ icsFeedEnabled }`, {}, { token: t.staff })).body.data.icsFeedEnabled).toBe(true);
    // Regenerating invalidates the old URL; revoking removes the feed.
    const g2 = await gql(p.url, `mutation { regenerateIcsFeed { url } }`, {}, { token: t.staff });
    expect((await fetch(`${p.url}${url.pathname}`)).status).toBe(404);
    const url2 = new URL(g2.body.data.regenerateIcsFeed.url);
    expect((await fetch(`${p.url}${url2.pathname}`)).status).toBe(200);
    expect(await (await fetch(`${p.url}${url2.pathname}`)).text()).toContain('SUMMARY:私用'); // regenerating keeps the choice
    await gql(p.url, `mutation { revokeIcsFeed }`, {}, { token: t.staff });
    expect((await fetch(`${p.url}${url2.pathname}`)).status).toBe(404);
    // Revoking forgets it: a new URL starts with private entries as busy time; without a feed there is nothing to set.
    expect(
      (await gql(p.url, `{ icsFeedSettings { enabled showPrivateDetails } }`, {}, { token: t.staff })).body.data
        .icsFeedSettings,
    ).toEqual({
      enabled: false,
      showPrivateDetails: false,
    });
    const none = await gql(
      p.url,
      `mutation { setIcsFeedShowPrivateDetails(show: true) { enabled } }`,
      {},
      { token: t.staff },
    );
    expect(none.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(none.body.errors[0].message).toMatch(/[ぁ-んァ-ン一-龥]/);
    const g3 = await gql(p.url, `mutation { regenerateIcsFeed { url } }`, {}, { token: t.staff });
    expect(await (await fetch(`${p.url}${new URL(g3.body.data.regenerateIcsFeed.url).pathname}`)).text()).toContain(
      'SUMMARY:予定あり',
    );
  });
});

describe('disconnect', () => {
  it('revokes the grant at Google, forgets the token and removes imported entries', async () => {
    const [row] = await p.db.orm.em
      .fork()
      .execute(`select refresh_token_enc from google_connection where employee_id = ?`, [id.admin]);
    expect(row).toBeTruthy();
    await p.db.orm.em
      .fork()
      .execute(
        `insert into schedule (owner_id, title, start_date, end_date, is_all_day, sync_google, google_event_id) values (?, 'imported', '2026-12-20', '2026-12-20', true, false, 'abcdefg')`,
        [id.admin],
      );
    const r = await gql(p.url, `mutation { disconnectGoogleCalendar { connected email } }`, {}, { token: t.admin });
    expect(r.body.data.disconnectGoogleCalendar).toEqual({ connected: false, email: null });
    expect(fake.revoked.size).toBe(1);
    const left = await p.db.orm.em.fork().execute(`select * from google_connection where employee_id = ?`, [id.admin]);
    expect(left).toEqual([]);
    const imported = await p.db.orm.em.fork().execute(`select id from schedule where google_event_id = 'abcdefg'`);
    expect(imported).toEqual([]);
    expect(
      (await api(p.url, 'GET', '/schedules/google?timeMin=2026-12-01&timeMax=2027-01-01', { token: t.admin })).status,
    ).toBe(409);
  });
});
