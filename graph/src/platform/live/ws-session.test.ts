import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient, type Client, type ExecutionResult } from 'graphql-ws';
import { startTestPlatform, type TestPlatform } from '../../test/db.js';
import { api, gql, loginToken } from '../../test/http.js';

let p: TestPlatform;
let admin: string;
beforeAll(async () => {
  // The periodic session check is far off here, so each test sees the path it names (events, each
  // operation's own check); the periodic check has a platform of its own below.
  p = await startTestPlatform({
    WS_MAX_SOCKETS_PER_USER: '3',
    WS_MAX_OPERATIONS_PER_SOCKET: '5',
    WS_MAX_OPERATIONS_PER_USER: '8',
    WS_SESSION_CHECK_MS: '600000',
  });
  admin = await loginToken(p.url, 'admin');
});
afterAll(async () => p?.close());

interface Socket {
  client: Client;
  closed: Promise<{ code: number; reason: string }>;
  /** One query or mutation over the socket. */
  run(query: string, variables?: Record<string, unknown>): Promise<ExecutionResult>;
}

async function openSocket(token: string, on: TestPlatform = p): Promise<Socket> {
  const url = on.url.replace('http', 'ws') + '/graphql';
  const client = createClient({
    url,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: false,
    connectionParams: { authorization: `Bearer ${token}` },
  });
  let onClosed!: (e: { code: number; reason: string }) => void;
  const closed = new Promise<{ code: number; reason: string }>((r) => (onClosed = r));
  client.on('closed', (e) => onClosed({ code: (e as CloseEvent).code, reason: String((e as CloseEvent).reason) }));
  await new Promise<void>((resolve, reject) => {
    client.on('connected', () => resolve());
    client.on('closed', (e) => reject(new Error(`closed ${(e as CloseEvent).code} ${(e as CloseEvent).reason}`)));
  });
  const run = (query: string, variables?: Record<string, unknown>) =>
    new Promise<ExecutionResult>((resolve, reject) => {
      let result: ExecutionResult | undefined;
      client.subscribe(
        { query, variables },
        { next: (r) => (result = r as ExecutionResult), error: reject, complete: () => resolve(result!) },
      );
    });
  return { client, closed, run };
}

/** A session of its own for `staff` (each test ends one). */
const staffToken = () => loginToken(p.url, 'staff');
const within = <T>(promise: Promise<T>, ms = 5000) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms)),
  ]);

const errorsOf = (r: unknown): string[] => {
  const errors = (r as { errors?: { extensions?: { code?: string } }[] }).errors ?? (Array.isArray(r) ? r : []);
  return errors.map((e: { extensions?: { code?: string } }) => e.extensions?.code ?? '?');
};

async function staffId(token: string): Promise<number> {
  return (await gql(p.url, '{ me { id } }', {}, { token })).body.data.me.id;
}

describe('a WebSocket runs with its session as it is now', () => {
  it('logout closes the session’s open sockets at once (4401), and the socket answers nothing after', async () => {
    const token = await staffToken();
    const s = await openSocket(token);
    expect((await s.run('{ me { id } }')).data).toBeTruthy();
    expect((await api(p.url, 'POST', '/auth/logout', { token })).status).toBe(200);
    const closed = await within(s.closed);
    expect(closed.code).toBe(4401);
    await expect(s.run('{ me { id } }')).rejects.toBeTruthy();
  });

  it('a sign-out elsewhere closes only that session’s sockets', async () => {
    const [a, b] = [await staffToken(), await staffToken()];
    const sa = await openSocket(a);
    const sb = await openSocket(b);
    await api(p.url, 'POST', '/auth/logout', { token: a });
    expect((await within(sa.closed)).code).toBe(4401);
    expect((await sb.run('{ me { id } }')).data).toBeTruthy();
    await sb.client.dispose();
  });

  it("an admin's revokeEmployeeSessions closes every socket of that employee", async () => {
    const token = await staffToken();
    const s = await openSocket(token);
    const id = await staffId(token);
    const r = await gql(
      p.url,
      'mutation($id: Int!) { revokeEmployeeSessions(employeeId: $id) }',
      { id },
      { token: admin },
    );
    expect(r.body.errors).toBeUndefined();
    expect((await within(s.closed)).code).toBe(4401);
  });

  it('a role change makes the socket reconnect, so the old role is not kept', async () => {
    const target = await gql(
      p.url,
      'mutation($i: EmployeeInput!) { createEmployee(input: $i) { id version } }',
      {
        i: { name: '役割 変更', loginId: 'role-change', password: 'intranet-demo-2', role: 'ADMIN', status: 'ACTIVE' },
      },
      { token: admin },
    );
    expect(target.body.errors).toBeUndefined();
    const { id, version } = target.body.data.createEmployee;
    const token = await loginToken(p.url, 'role-change', 'intranet-demo-2');
    const s = await openSocket(token);
    const demoted = await gql(
      p.url,
      'mutation($id: Int!, $i: EmployeeInput!) { updateEmployee(id: $id, input: $i) { id } }',
      { id, i: { name: '役割 変更', loginId: 'role-change', role: 'GENERAL', status: 'ACTIVE', version } },
      { token: admin },
    );
    expect(demoted.body.errors).toBeUndefined();
    expect((await within(s.closed)).code).toBe(4000);
    // A new socket (what the client does on 4000) has the new role.
    const again = await openSocket(token);
    const created = await again.run(
      'mutation { createDepartment(input: { name: "昇格テスト", memberIds: [] }) { id } }',
    );
    expect(errorsOf(created)).toEqual(['FORBIDDEN']);
    await again.client.dispose();
  });

  it('every operation checks the session again: a session deleted behind the socket’s back answers UNAUTHENTICATED and closes it', async () => {
    const token = await staffToken();
    const s = await openSocket(token);
    await p.db.orm.em
      .fork()
      .getConnection()
      .execute(`delete from session where employee_id = (select id from employee where login_id = 'staff')`);
    const r = await s.run('{ me { id } }').catch((e: unknown) => e);
    expect(errorsOf(r)).toEqual(['UNAUTHENTICATED']);
    expect((await within(s.closed)).code).toBe(4401);
  });

  it('a session ended with no event to say so (the broker down) closes its idle sockets within the check interval', async () => {
    const q = await startTestPlatform({ WS_SESSION_CHECK_MS: '1000' });
    try {
      const s = await openSocket(await loginToken(q.url, 'staff'), q);
      // Deleted behind the platform's back: no event, no operation on the socket; only the periodic check can notice.
      await q.db.orm.em
        .fork()
        .getConnection()
        .execute(`delete from session where employee_id = (select id from employee where login_id = 'staff')`);
      expect((await within(s.closed, 3000)).code).toBe(4401);
    } finally {
      await q.close();
    }
  });
});

describe('one execution path: the socket answers as HTTP does', () => {
  it('a NUL in a variable is BAD_USER_INPUT, never SQL text', async () => {
    const s = await openSocket(await staffToken());
    const r = await s.run('mutation($i: ScheduleInput!) { createSchedule(input: $i) { id } }', {
      i: { title: 'a\u0000b', date: '2026-11-27', startTime: '10:00', endTime: '11:00', type: 'TASK' },
    });
    expect(errorsOf(r)).toEqual(['BAD_USER_INPUT']);
    expect(JSON.stringify(r)).not.toMatch(/insert|select/i);
    await s.client.dispose();
  });

  it('a year-0000 date is BAD_USER_INPUT, never SQL text', async () => {
    const s = await openSocket(await staffToken());
    const r = await s.run('{ scheduleGrid(from: "0000-01-03", to: "0000-01-09") { from } }');
    expect(errorsOf(r)).toEqual(['BAD_USER_INPUT']);
    expect(JSON.stringify(r)).not.toMatch(/select|from "/i);
    await s.client.dispose();
  });

  it('limits and parse errors are the same as over HTTP', async () => {
    const s = await openSocket(await staffToken());
    const tooMany = await s.run(`{ me { ${'id '.repeat(3000)} } }`).catch((e: unknown) => e);
    expect(errorsOf(tooMany)).toEqual(['GRAPHQL_PARSE_FAILED']);
    expect(JSON.stringify(tooMany)).toMatch(/tokens/);
    const syntax = await s.run('{ me { id ').catch((e: unknown) => e);
    expect(errorsOf(syntax)).toEqual(['GRAPHQL_PARSE_FAILED']);
    await s.client.dispose();
  });
});

describe('limits per socket and per user', () => {
  const subscribe = (s: Socket) =>
    new Promise<unknown>((resolve) => {
      s.client.subscribe(
        { query: 'subscription { employeeChanged { type } }' },
        { next: () => undefined, error: resolve, complete: () => resolve('complete') },
      );
      setTimeout(() => resolve('open'), 400);
    });

  it('refuses subscriptions past the per-socket limit with TOO_MANY_REQUESTS', async () => {
    const s = await openSocket(await staffToken());
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await subscribe(s));
    expect(results.slice(0, 5)).toEqual(['open', 'open', 'open', 'open', 'open']);
    expect(errorsOf(results[5])).toEqual(['TOO_MANY_REQUESTS']);
    await s.client.dispose();
  });

  it('refuses subscriptions past the per-user limit across sockets, and sockets past the per-user limit', async () => {
    const token = await loginToken(p.url, 'sysadmin');
    const a = await openSocket(token);
    const b = await openSocket(token);
    for (let i = 0; i < 5; i++) expect(await subscribe(a)).toBe('open');
    for (let i = 0; i < 3; i++) expect(await subscribe(b)).toBe('open');
    expect(errorsOf(await subscribe(b))).toEqual(['TOO_MANY_REQUESTS']);
    const c = await openSocket(token);
    await expect(openSocket(token)).rejects.toThrow(/4429/);
    for (const s of [a, b, c]) await s.client.dispose();
  });

  it('a socket that closes while its connection is being checked does not keep a place: closed sockets never use up the per-user limit', async () => {
    const token = await loginToken(p.url, 'devadmin');
    const url = p.url.replace('http', 'ws') + '/graphql';
    // A page left while its socket was still connecting: connection_init sent, gone before the answer.
    for (let i = 0; i < 6; i++) {
      const ws = new WebSocket(url, 'graphql-transport-ws');
      await new Promise((r) => ws.once('open', r));
      ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } }));
      ws.terminate();
    }
    // The server's checks of those six are over once a later request of the same user is answered.
    await new Promise((r) => setTimeout(r, 300));
    expect(await staffId(token)).toBeGreaterThan(0);
    // All three places are free.
    const open = [await openSocket(token), await openSocket(token), await openSocket(token)];
    for (const s of open) await s.client.dispose();
  });
});
