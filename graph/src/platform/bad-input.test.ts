import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { startGraph, type Graph } from './bootstrap.js';
import { createTestDatabase, testConfig, type TestDatabase } from '../test/db.js';
import { api, gql, loginToken } from '../test/http.js';

/** The platform with its log lines kept, to check what an internal error leaves behind. */
let db: TestDatabase;
let graph: Graph;
let url: string;
let token: string;
const lines: Record<string, unknown>[] = [];
beforeAll(async () => {
  db = await createTestDatabase();
  const sink = new Writable({ write: (chunk, _enc, done) => void (lines.push(JSON.parse(String(chunk))), done()) });
  graph = await startGraph(testConfig(), pino({ level: 'info' }, sink), db.url);
  url = graph.server.url;
  token = await loginToken(url, 'admin');
});
afterAll(async () => {
  await graph?.stop();
  await db?.close();
});

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
    body,
  });

describe('every bad input is a 4xx, over GraphQL and /api', () => {
  it('a GraphQL syntax error is 400 GRAPHQL_PARSE_FAILED, not 500', async () => {
    const r = await gql(url, '{ me { id ', {}, { token });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
  });

  it('too many tokens is a 400 parse failure too', async () => {
    const r = await gql(url, `{ me { ${'id '.repeat(3000)} } }`, {}, { token });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].message).toMatch(/tokens/);
  });

  it('a raw NUL inside a GraphQL string literal is refused like an escaped one', async () => {
    for (const q of [
      '{ employees(filter: { name: "a\u0000b" }) { total } }',
      '{ employees(filter: { name: "a\\u0000b" }) { total } }',
    ]) {
      const r = await gql(url, q, {}, { token });
      expect(r.status).toBe(400);
      expect(r.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    }
  });

  it('a control character other than tab and line breaks is refused on every channel before any service; nothing is stored', async () => {
    const CONTROL = '入力に使えない制御文字が含まれています（文字列に使える制御文字はタブと改行だけです）。';
    const rest = await api(url, 'POST', '/computers', {
      token,
      body: { maker: 'Dell\u0007Bell', status: '正常', location: '東京' },
    });
    expect(rest).toMatchObject({ status: 400, body: { code: 'BAD_USER_INPUT', error: CONTROL } });
    expect((await api(url, 'GET', '/computers?maker=a%1Bb', { token })).status).toBe(400);
    const variable = await gql(
      url,
      `mutation($i: ProfileInput!) { createProfile(input: $i) { id } }`,
      { i: { hobbies: 'ベル\u0007' } },
      { token },
    );
    expect(variable.status).toBe(400);
    expect(variable.body.errors[0].message).toBe(CONTROL);
    const literal = await gql(url, '{ employees(filter: { name: "a\\u001bb" }) { total } }', {}, { token });
    expect(literal.body.errors[0]).toMatchObject({ message: CONTROL, extensions: { code: 'BAD_USER_INPUT' } });
    // Tabs and line breaks are text.
    const fine = await api(url, 'POST', '/computers', {
      token,
      body: { maker: 'Dell', model: 'Latitude\t5440', memo: '一行目\r\n二行目', status: '正常', location: '東京' },
    });
    expect(fine.status).toBe(201);
    const [{ n }] = await db.orm.em
      .fork()
      .getConnection()
      .execute(`select count(*)::int as n from computer where maker like '%Bell'`);
    expect(n).toBe(0);
  });

  it('year-0000 dates are 400 in /api and BAD_USER_INPUT in GraphQL', async () => {
    const rest = await api(url, 'GET', '/schedules?from=0000-01-01&to=0000-01-02', { token });
    expect(rest.status).toBe(400);
    const g = await gql(url, '{ scheduleGrid(from: "0000-01-03", to: "0000-01-09") { from } }', {}, { token });
    expect(g.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const conflicts = await gql(
      url,
      '{ scheduleConflicts(date: "0000-02-01", employeeIds: [1]) { employeeId } }',
      {},
      { token },
    );
    expect(conflicts.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('a deeply nested JSON body or variables are a 400, not a stack overflow', async () => {
    const rest = await post('/api/employees', `{"name":${deep(20_000)}}`);
    expect(rest.status).toBe(400);
    expect((await rest.json()).code).toBe('BAD_USER_INPUT');
    const g = await post('/graphql', `{"query":"{ me { id } }","variables":{"a":${deep(20_000)}}}`);
    expect(g.status).toBe(400);
    expect((await g.json()).errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('ids in paths are decimal digits only: 0x1, 1e0, +1, 1.0 and " 1" are 400, not record 1', async () => {
    const ok = await api(url, 'GET', '/employees/1', { token });
    expect(ok.status).toBe(200);
    for (const id of ['0x1', '1e0', '+1', '1.0', '%201', '-1', '1%20']) {
      const r = await api(url, 'GET', `/employees/${id}`, { token });
      expect(r.status, id).toBe(400);
      expect(r.body).toMatchObject({ code: 'BAD_USER_INPUT', fieldErrors: [{ field: 'id' }] });
    }
  });

  it('a subscription sent over HTTP is a 400 saying it needs the WebSocket, logged as nothing worse than a warning', async () => {
    const before = lines.length;
    const r = await post(
      '/graphql',
      JSON.stringify({ query: 'subscription { notificationsChanged { unreadCount } }' }),
    );
    expect(r.status).toBe(400);
    const body = await r.json();
    expect(body.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    expect(body.errors[0].message).toMatch(/WebSocket/);
    expect(lines.slice(before).filter((l) => (l.level as number) >= 50)).toEqual([]);
  });

  it('a malformed body on /graphql is a JSON 400 without a stack trace or a path', async () => {
    const r = await post('/graphql', '{bad json');
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toMatch(/json/);
    const text = await r.text();
    expect(text).not.toMatch(/node_modules|at \w+ \(|<html/i);
  });
});

describe('internal errors are logged with the request id', () => {
  it('a resolver failure answers without internals and logs the error under the X-Request-Id', async () => {
    // A broken table makes the employee list fail inside the resolver: an internal error, not the caller's.
    await db.orm.em.fork().getConnection().execute('alter table location rename to location_gone');
    try {
      const r = await post('/graphql', JSON.stringify({ query: '{ locations { id } }' }), {
        'x-request-id': 'probe-123',
      });
      const body = await r.json();
      expect(r.headers.get('x-request-id')).toBe('probe-123');
      expect(body.errors[0]).toMatchObject({
        message: 'サーバーでエラーが発生しました。',
        extensions: { code: 'INTERNAL_SERVER_ERROR' },
      });
      expect(JSON.stringify(body)).not.toMatch(/location_gone|relation/);
      const logged = lines.find((l) => l.requestId === 'probe-123' && l.level === 50);
      expect(logged?.msg).toBe('graphql operation failed');
      const rest = await fetch(`${url}/api/employees`, {
        headers: { authorization: `Bearer ${token}`, 'x-request-id': 'probe-456' },
      }); // the list joins location
      expect(rest.status).toBe(500);
      expect(lines.some((l) => l.requestId === 'probe-456' && l.level === 50)).toBe(true);
    } finally {
      await db.orm.em.fork().getConnection().execute('alter table location_gone rename to location');
    }
  });
});

describe('security headers', () => {
  it('every response carries CSP, frame, nosniff and referrer headers', async () => {
    for (const path of ['/', '/api/employees', '/healthz']) {
      const r = await fetch(`${url}${path}`);
      expect(r.headers.get('content-security-policy'), path).toMatch(/frame-ancestors 'none'/);
      expect(r.headers.get('content-security-policy'), path).toMatch(/script-src 'self'/);
      expect(r.headers.get('x-frame-options'), path).toBe('DENY');
      expect(r.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(r.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
    }
  });
});
