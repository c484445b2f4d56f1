/**
 * A local fake of the parts of Google Calendar v3 and Google OAuth 2.0 the sync uses, so tests run
 * the real @googleapis/calendar client (through `rootUrl`) and the real google-auth-library
 * OAuth2Client (through its `endpoints` overrides) against it.
 *
 * Calendar: GET calendars/{cal}; events list (syncToken, pageToken, maxResults, timeMin/timeMax,
 * singleEvents expansion of DAILY/WEEKLY;COUNT rules, showDeleted), insert (client ids, 409 on a
 * duplicate id), get, patch and delete (If-Match → 412), cancelled events kept as tombstones,
 * sync tokens that can be expired (410 fullSyncRequired). Faults can be queued or drawn at random
 * (403 rateLimitExceeded / userRateLimitExceeded, 429, 5xx, 410, 412).
 * OAuth: POST /token (authorization_code, refresh_token), POST /revoke, GET /auth (consent page).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

export interface FakeAttendee {
  email: string;
  responseStatus?: 'needsAction' | 'declined' | 'tentative' | 'accepted';
  displayName?: string;
  organizer?: boolean;
  self?: boolean;
}

export interface FakeEvent {
  kind: 'calendar#event';
  id: string;
  status: 'confirmed' | 'tentative' | 'cancelled';
  etag: string;
  created: string;
  updated: string;
  summary?: string;
  description?: string;
  location?: string;
  start?: { date?: string; dateTime?: string; timeZone?: string };
  end?: { date?: string; dateTime?: string; timeZone?: string };
  visibility?: 'default' | 'public' | 'private' | 'confidential';
  attendees?: FakeAttendee[];
  organizer?: { email: string; self?: boolean };
  extendedProperties?: { private?: Record<string, string>; shared?: Record<string, string> };
  recurrence?: string[];
  recurringEventId?: string;
  originalStartTime?: { date?: string; dateTime?: string };
  hangoutLink?: string;
  iCalUID?: string;
  sequence?: number;
  [k: string]: unknown;
}

interface Stored {
  event: FakeEvent;
  /** Change sequence of the calendar when this event last changed. */
  seq: number;
}

interface Calendar {
  email: string;
  events: Map<string, Stored>;
  seq: number;
  /** Sync tokens of an older generation are expired (410). */
  gen: number;
}

export interface Fault {
  status: number;
  reason?: string;
  /** Only requests whose method matches (GET, POST, PATCH, DELETE). */
  method?: string;
  /** Only requests of this calendar owner. */
  email?: string;
  /** Only paths containing this text. */
  path?: string;
}

export interface RandomFaults {
  /** Probability that a calendar request fails. */
  rate: number;
  faults: Fault[];
  /** Deterministic random source (0..1). */
  random?: () => number;
}

const RETRYABLE_REASONS: Record<number, string> = {
  403: 'rateLimitExceeded',
  429: 'rateLimitExceeded',
  500: 'backendError',
  503: 'backendError',
  410: 'fullSyncRequired',
  412: 'conditionNotMet',
};

const json = (res: http.ServerResponse, status: number, body?: unknown) => {
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify(body));
};

const gError = (res: http.ServerResponse, status: number, reason: string, message = reason) =>
  json(res, status, {
    error: {
      code: status,
      message,
      errors: [{ domain: status === 403 || status === 429 ? 'usageLimits' : 'global', reason, message }],
      status: String(status),
    },
  });

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const unb64 = <T>(s: string): T | null => {
  try {
    return JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as T;
  } catch {
    return null;
  }
};

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/**
 * Attendees as Calendar v3 stores them: every field the writer sent is kept, a missing
 * responseStatus is 'needsAction'. (Like Google, a patch that sends `attendees` replaces the whole
 * array, so a writer that sends responseStatus 'needsAction' resets a guest's answer.)
 */
const storeAttendees = (xs: FakeAttendee[] | undefined): FakeAttendee[] | undefined =>
  xs?.map((a) => {
    const { self: _self, ...rest } = a;
    return { ...rest, responseStatus: a.responseStatus ?? 'needsAction' };
  });

/** Start instant of an event in ms (all-day events start at midnight in Asia/Tokyo). */
function instant(t: { date?: string; dateTime?: string } | undefined): number {
  if (!t) return NaN;
  if (t.dateTime) return Date.parse(t.dateTime);
  if (t.date) return Date.parse(`${t.date}T00:00:00+09:00`);
  return NaN;
}

function shiftTime(t: { date?: string; dateTime?: string; timeZone?: string } | undefined, ms: number) {
  if (!t) return t;
  if (t.date) {
    const d = new Date(Date.parse(`${t.date}T00:00:00Z`) + ms);
    return { date: d.toISOString().slice(0, 10) };
  }
  if (t.dateTime) {
    // Keep the +09:00 form.
    const d = new Date(Date.parse(t.dateTime) + ms + 9 * 3_600_000);
    return { dateTime: `${d.toISOString().slice(0, 19)}+09:00`, ...(t.timeZone ? { timeZone: t.timeZone } : {}) };
  }
  return t;
}

/** Instances of a master with RRULE FREQ=DAILY|WEEKLY and COUNT (at most 366), for singleEvents. */
function expand(master: FakeEvent): FakeEvent[] {
  const rule = master.recurrence?.find((r) => r.startsWith('RRULE:'));
  if (!rule) return [master];
  const parts = Object.fromEntries(
    rule
      .slice(6)
      .split(';')
      .map((p) => p.split('=') as [string, string]),
  );
  const step = (parts.FREQ === 'WEEKLY' ? 7 : 1) * Number(parts.INTERVAL ?? 1) * 86_400_000;
  const count = Math.min(366, Number(parts.COUNT ?? 30));
  const out: FakeEvent[] = [];
  for (let i = 0; i < count; i++) {
    const start = shiftTime(master.start, i * step)!;
    const key = start.date
      ? start.date.replace(/-/g, '')
      : new Date(Date.parse(start.dateTime!)).toISOString().replace(/[-:]|\.\d+/g, '');
    const { recurrence: _r, ...rest } = master;
    out.push({
      ...clone(rest),
      id: `${master.id}_${key}`,
      recurringEventId: master.id,
      originalStartTime: start,
      start,
      end: shiftTime(master.end, i * step),
    });
  }
  return out;
}

export interface FakeGoogle {
  /** Base URL for `calendar({ rootUrl })` (ends with a slash). */
  rootUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  authUrl: string;
  /** Creates a calendar for the e-mail (idempotent). */
  calendar(email: string): Calendar;
  /** An access token for a user (for direct client use in tests). */
  accessToken(email: string): string;
  /** An authorization code the token endpoint exchanges for tokens of this user. */
  issueCode(email: string, scope?: string): string;
  /** Events as stored (masters, including cancelled tombstones). */
  events(email: string): FakeEvent[];
  /** Writes on the Google side (as if the user edited in Google Calendar). */
  insert(email: string, body: Partial<FakeEvent>): FakeEvent;
  patch(email: string, id: string, body: Partial<FakeEvent>): FakeEvent;
  remove(email: string, id: string): void;
  /** A guest answers an invitation (as from their own calendar): the organizer's event changes (etag, updated). */
  respond(
    email: string,
    id: string,
    attendee: string,
    responseStatus: NonNullable<FakeAttendee['responseStatus']>,
  ): FakeEvent;
  /** Expires every sync token issued so far for the calendar (the next incremental list gets 410). */
  expireSyncTokens(email: string): void;
  /** Queues faults: the next matching calendar requests fail with them, one each. */
  fail(...faults: Fault[]): void;
  randomFaults: RandomFaults | null;
  /** Refresh tokens revoked through /revoke. */
  revoked: Set<string>;
  /** Requests seen (method and path; the JSON body of calendar writes), for assertions. */
  log: { method: string; path: string; status: number; email?: string; body?: Record<string, unknown> }[];
  /** Minimum delay per calendar request (ms), to make rate tests observable. */
  latencyMs: number;
  close(): Promise<void>;
}

export async function startFakeGoogle(): Promise<FakeGoogle> {
  const calendars = new Map<string, Calendar>();
  const accessTokens = new Map<string, { email: string; exp: number }>();
  const refreshTokens = new Map<string, string>();
  const codes = new Map<string, { email: string; scope: string }>();
  const pages = new Map<string, { items: FakeEvent[]; nextSyncToken?: string; at: number }>();
  const queued: Fault[] = [];
  let clock = 0;

  const cal = (email: string): Calendar => {
    let c = calendars.get(email);
    if (!c) calendars.set(email, (c = { email, events: new Map(), seq: 0, gen: 0 }));
    return c;
  };

  /** A strictly increasing timestamp (ms), so `updated` orders every change. */
  const now = () => {
    clock = Math.max(clock + 1, Date.now());
    return clock;
  };

  const touch = (c: Calendar, e: FakeEvent): Stored => {
    c.seq++;
    e.etag = `"${now()}${String(c.seq).padStart(6, '0')}"`;
    e.updated = new Date(clock).toISOString();
    e.sequence = (e.sequence ?? -1) + 1;
    const s = { event: e, seq: c.seq };
    c.events.set(e.id, s);
    return s;
  };

  const decorate = (c: Calendar, e: FakeEvent): FakeEvent => {
    const out = clone(e);
    if (out.attendees)
      out.attendees = out.attendees.map((a) => ({ ...a, ...(a.email === c.email ? { self: true } : {}) }));
    if (out.organizer) out.organizer = { ...out.organizer, ...(out.organizer.email === c.email ? { self: true } : {}) };
    return out;
  };

  const ID_RE = /^[a-v0-9]{5,1024}$/;

  const doInsert = (c: Calendar, body: Partial<FakeEvent>): { status: number; event?: FakeEvent; reason?: string } => {
    if (
      !body.start ||
      !body.end ||
      (!body.start.date && !body.start.dateTime) ||
      (!body.end.date && !body.end.dateTime)
    ) {
      return { status: 400, reason: 'required' };
    }
    if (instant(body.end) < instant(body.start)) return { status: 400, reason: 'timeRangeEmpty' };
    const id = body.id ?? randomBytes(10).toString('hex');
    if (body.id !== undefined && !ID_RE.test(body.id)) return { status: 400, reason: 'invalid' };
    if (c.events.has(id)) return { status: 409, reason: 'duplicate' };
    const created = new Date(now()).toISOString();
    const e: FakeEvent = {
      kind: 'calendar#event',
      status: 'confirmed',
      organizer: { email: c.email },
      creator: { email: c.email },
      iCalUID: `${id}@google.com`,
      ...clone(body),
      id,
      created,
      etag: '',
      updated: created,
    } as FakeEvent;
    if (e.status === 'cancelled') e.status = 'confirmed';
    if (e.attendees) e.attendees = storeAttendees(e.attendees);
    touch(c, e);
    return { status: 200, event: e };
  };

  const doPatch = (
    c: Calendar,
    id: string,
    body: Partial<FakeEvent>,
    ifMatch?: string,
  ): { status: number; event?: FakeEvent; reason?: string } => {
    const s = c.events.get(id);
    if (!s) return { status: 404, reason: 'notFound' };
    if (s.event.status === 'cancelled') return { status: 410, reason: 'deleted' };
    if (ifMatch && ifMatch !== '*' && ifMatch !== s.event.etag) return { status: 412, reason: 'conditionNotMet' };
    const next = clone(s.event);
    for (const [k, v] of Object.entries(body)) {
      if (['id', 'etag', 'updated', 'created', 'kind', 'iCalUID'].includes(k)) continue;
      if (k === 'extendedProperties' && v && typeof v === 'object') {
        const ep = v as FakeEvent['extendedProperties'];
        next.extendedProperties = {
          private: { ...(next.extendedProperties?.private ?? {}), ...(ep?.private ?? {}) },
          shared: { ...(next.extendedProperties?.shared ?? {}), ...(ep?.shared ?? {}) },
        };
      } else if (v === null) delete next[k];
      else if (k === 'attendees') next.attendees = storeAttendees(v as FakeAttendee[]);
      else next[k] = clone(v);
    }
    if (next.start && next.end && instant(next.end) < instant(next.start))
      return { status: 400, reason: 'timeRangeEmpty' };
    if (next.status === 'cancelled') next.status = 'confirmed';
    touch(c, next);
    return { status: 200, event: next };
  };

  const doDelete = (c: Calendar, id: string, ifMatch?: string): { status: number; reason?: string } => {
    const s = c.events.get(id);
    if (!s) return { status: 404, reason: 'notFound' };
    if (s.event.status === 'cancelled') return { status: 410, reason: 'deleted' };
    if (ifMatch && ifMatch !== '*' && ifMatch !== s.event.etag) return { status: 412, reason: 'conditionNotMet' };
    const next = clone(s.event);
    next.status = 'cancelled';
    touch(c, next);
    return { status: 204 };
  };

  /** The items of a list request (before paging). */
  const listItems = (c: Calendar, q: URLSearchParams, sinceSeq: number | null): FakeEvent[] => {
    const single = q.get('singleEvents') === 'true';
    const showDeleted = sinceSeq !== null || q.get('showDeleted') === 'true';
    const tMin = q.get('timeMin') ? Date.parse(q.get('timeMin')!) : -Infinity;
    const tMax = q.get('timeMax') ? Date.parse(q.get('timeMax')!) : Infinity;
    const out: FakeEvent[] = [];
    const stored = [...c.events.values()]
      .filter((s) => sinceSeq === null || s.seq > sinceSeq)
      .sort((a, b) => a.seq - b.seq);
    for (const s of stored) {
      if (s.event.status === 'cancelled' && !showDeleted) continue;
      const items = single ? expand(s.event) : [s.event];
      for (const e of items) {
        // Overlap with [timeMin, timeMax): end > timeMin and start < timeMax.
        if (!(instant(e.end) > tMin && instant(e.start) < tMax) && e.status !== 'cancelled') continue;
        if (e.status === 'cancelled' && sinceSeq === null && !(instant(e.end) > tMin && instant(e.start) < tMax))
          continue;
        out.push(
          e.status === 'cancelled'
            ? {
                kind: 'calendar#event',
                id: e.id,
                status: 'cancelled',
                etag: e.etag,
                updated: e.updated,
                created: e.created,
                ...(e.recurringEventId ? { recurringEventId: e.recurringEventId } : {}),
              }
            : decorate(c, e),
        );
      }
    }
    return out;
  };

  const log: FakeGoogle['log'] = [];
  let randomFaults: RandomFaults | null = null;
  const fake: Partial<FakeGoogle> = {};

  const readBody = (req: http.IncomingMessage) =>
    new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      req.on('error', reject);
    });

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const method = req.method ?? 'GET';
    const raw = await readBody(req);
    const entry: FakeGoogle['log'][number] = { method, path: url.pathname + url.search, status: 0, email: undefined };
    log.push(entry);
    const origEnd = res.end.bind(res);
    res.end = ((...args: unknown[]) => {
      entry.status = res.statusCode;
      return (origEnd as (...a: unknown[]) => http.ServerResponse)(...args);
    }) as typeof res.end;
    try {
      // ---- OAuth ----
      if (url.pathname === '/token' && method === 'POST') {
        const form = new URLSearchParams(raw);
        const grant = form.get('grant_type');
        let email: string | undefined;
        let scope = 'https://www.googleapis.com/auth/calendar.events';
        let refresh: string | undefined;
        if (grant === 'authorization_code') {
          const c = codes.get(form.get('code') ?? '');
          if (!c) return json(res, 400, { error: 'invalid_grant', error_description: 'Bad code' });
          codes.delete(form.get('code')!);
          email = c.email;
          scope = c.scope;
          refresh = `1//r-${randomBytes(12).toString('hex')}`;
          refreshTokens.set(refresh, email);
        } else if (grant === 'refresh_token') {
          email = refreshTokens.get(form.get('refresh_token') ?? '');
          if (!email)
            return json(res, 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
        } else return json(res, 400, { error: 'unsupported_grant_type' });
        const access = `ya29.${randomBytes(12).toString('hex')}`;
        accessTokens.set(access, { email, exp: Date.now() + 3_600_000 });
        const idToken = `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64({ iss: 'https://accounts.google.com', sub: `sub-${email}`, email, email_verified: true })}.fakesig`;
        return json(res, 200, {
          access_token: access,
          expires_in: 3599,
          token_type: 'Bearer',
          scope,
          id_token: idToken,
          ...(refresh ? { refresh_token: refresh } : {}),
        });
      }
      if (url.pathname === '/revoke' && method === 'POST') {
        const token = url.searchParams.get('token') ?? new URLSearchParams(raw).get('token') ?? '';
        if (refreshTokens.has(token)) {
          const email = refreshTokens.get(token)!;
          refreshTokens.delete(token);
          fake.revoked!.add(token);
          for (const [a, v] of accessTokens) if (v.email === email) accessTokens.delete(a);
          return json(res, 200, {});
        }
        if (accessTokens.delete(token)) return json(res, 200, {});
        return json(res, 400, { error: 'invalid_token' });
      }
      if (url.pathname === '/auth' && method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>fake consent</body></html>');
        return;
      }

      // ---- Calendar v3 ----
      const m = url.pathname.match(/^\/calendar\/v3\/calendars\/([^/]+)(?:\/events(?:\/([^/]+))?)?$/);
      if (!m) return gError(res, 404, 'notFound', `no route ${method} ${url.pathname}`);
      const auth = (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
      const who = accessTokens.get(auth);
      if (!who || who.exp < Date.now()) return gError(res, 401, 'authError', 'Invalid Credentials');
      entry.email = who.email;
      const calId = decodeURIComponent(m[1]!);
      if (calId !== 'primary' && calId !== who.email) return gError(res, 404, 'notFound');
      const c = cal(who.email);
      const isEvents = url.pathname.includes('/events');
      const eventId = m[2] ? decodeURIComponent(m[2]) : undefined;

      if (fake.latencyMs) await new Promise((r) => setTimeout(r, fake.latencyMs));
      const matches = (f: Fault) =>
        (!f.method || f.method === method) &&
        (!f.email || f.email === who.email) &&
        (!f.path || url.pathname.includes(f.path));
      const qi = queued.findIndex(matches);
      let fault: Fault | undefined = qi >= 0 ? queued.splice(qi, 1)[0] : undefined;
      if (!fault && randomFaults && (randomFaults.random ?? Math.random)() < randomFaults.rate) {
        fault = randomFaults.faults[Math.floor((randomFaults.random ?? Math.random)() * randomFaults.faults.length)];
        if (fault && !matches(fault)) fault = undefined; // a drawn fault only hits requests it describes
      }
      if (fault)
        return gError(
          res,
          fault.status,
          fault.reason ?? RETRYABLE_REASONS[fault.status] ?? 'backendError',
          `injected ${fault.status}`,
        );

      if (!isEvents && method === 'GET')
        return json(res, 200, { kind: 'calendar#calendar', id: who.email, summary: who.email, timeZone: 'Asia/Tokyo' });
      const body = raw ? (JSON.parse(raw) as Partial<FakeEvent>) : {};
      if (raw) entry.body = body;
      const ifMatch = req.headers['if-match'] as string | undefined;

      if (!eventId && method === 'GET') {
        const q = url.searchParams;
        const pageToken = q.get('pageToken');
        let page: { items: FakeEvent[]; nextSyncToken?: string; at: number };
        let key: string;
        if (pageToken) {
          const p = unb64<{ key: string; at: number }>(pageToken);
          const stored = p && pages.get(p.key);
          if (!p || !stored) return gError(res, 400, 'invalid', 'Invalid page token');
          page = stored;
          key = p.key;
          const size = Number(q.get('maxResults') ?? 250);
          return sendPage(res, page, key, p.at, size);
        }
        let sinceSeq: number | null = null;
        const syncToken = q.get('syncToken');
        if (syncToken) {
          const t = unb64<{ email: string; seq: number; gen: number }>(syncToken);
          if (!t || t.email !== who.email) return gError(res, 400, 'invalid', 'Invalid sync token');
          if (t.gen !== c.gen)
            return gError(res, 410, 'fullSyncRequired', 'Sync token is no longer valid, a full sync is required.');
          for (const forbidden of ['timeMin', 'timeMax', 'orderBy', 'q', 'updatedMin']) {
            if (q.get(forbidden)) return gError(res, 400, 'invalid', `syncToken cannot be used with ${forbidden}`);
          }
          sinceSeq = t.seq;
        }
        const items = listItems(c, q, sinceSeq);
        key = randomBytes(8).toString('hex');
        page = { items, nextSyncToken: b64({ email: who.email, seq: c.seq, gen: c.gen }), at: 0 };
        pages.set(key, page);
        return sendPage(res, page, key, 0, Number(q.get('maxResults') ?? 250));
      }
      if (!eventId && method === 'POST') {
        const r = doInsert(c, body);
        if (!r.event) return gError(res, r.status, r.reason!);
        return json(res, 200, decorate(c, r.event));
      }
      if (eventId && method === 'GET') {
        const s = c.events.get(eventId);
        if (!s) return gError(res, 404, 'notFound', 'Not Found');
        return json(res, 200, decorate(c, s.event));
      }
      if (eventId && (method === 'PATCH' || method === 'PUT')) {
        const r = doPatch(c, eventId, body, ifMatch);
        if (!r.event) return gError(res, r.status, r.reason!);
        return json(res, 200, decorate(c, r.event));
      }
      if (eventId && method === 'DELETE') {
        const r = doDelete(c, eventId, ifMatch);
        if (r.status !== 204) return gError(res, r.status, r.reason!);
        return json(res, 204);
      }
      return gError(res, 405, 'methodNotAllowed');
    } catch (err) {
      return gError(res, 500, 'backendError', String(err));
    }
  });

  function sendPage(
    res: http.ServerResponse,
    page: { items: FakeEvent[]; nextSyncToken?: string },
    key: string,
    at: number,
    size: number,
  ) {
    const items = page.items.slice(at, at + Math.max(1, Math.min(2500, size)));
    const next = at + items.length;
    const more = next < page.items.length;
    return json(res, 200, {
      kind: 'calendar#events',
      summary: 'primary',
      timeZone: 'Asia/Tokyo',
      items,
      ...(more ? { nextPageToken: b64({ key, at: next }) } : { nextSyncToken: page.nextSyncToken }),
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  Object.assign(fake, {
    rootUrl: `${base}/`,
    tokenUrl: `${base}/token`,
    revokeUrl: `${base}/revoke`,
    authUrl: `${base}/auth`,
    calendar: cal,
    accessToken(email: string) {
      const t = `ya29.${randomBytes(12).toString('hex')}`;
      accessTokens.set(t, { email, exp: Date.now() + 3_600_000 });
      cal(email);
      return t;
    },
    issueCode(email: string, scope = 'https://www.googleapis.com/auth/calendar.events') {
      const code = `4/${randomBytes(10).toString('hex')}`;
      codes.set(code, { email, scope });
      cal(email);
      return code;
    },
    events: (email: string) => [...cal(email).events.values()].map((s) => clone(s.event)),
    insert(email: string, body: Partial<FakeEvent>) {
      const r = doInsert(cal(email), body);
      if (!r.event) throw new Error(`fake insert: ${r.status} ${r.reason}`);
      return clone(r.event);
    },
    patch(email: string, id: string, body: Partial<FakeEvent>) {
      const r = doPatch(cal(email), id, body);
      if (!r.event) throw new Error(`fake patch: ${r.status} ${r.reason}`);
      return clone(r.event);
    },
    remove(email: string, id: string) {
      const r = doDelete(cal(email), id);
      if (r.status !== 204) throw new Error(`fake delete: ${r.status} ${r.reason}`);
    },
    respond(email: string, id: string, attendee: string, responseStatus: NonNullable<FakeAttendee['responseStatus']>) {
      const c = cal(email);
      const st = c.events.get(id);
      if (!st || st.event.status === 'cancelled') throw new Error(`fake respond: no event ${id}`);
      const next = clone(st.event);
      const a = next.attendees?.find((x) => x.email.toLowerCase() === attendee.toLowerCase());
      if (!a) throw new Error(`fake respond: ${attendee} is not invited to ${id}`);
      a.responseStatus = responseStatus;
      touch(c, next);
      return clone(next);
    },
    expireSyncTokens(email: string) {
      cal(email).gen++;
    },
    fail: (...f: Fault[]) => queued.push(...f),
    revoked: new Set<string>(),
    log,
    latencyMs: 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  Object.defineProperty(fake, 'randomFaults', {
    get: () => randomFaults,
    set: (v: RandomFaults | null) => (randomFaults = v),
  });
  return fake as FakeGoogle;
}
