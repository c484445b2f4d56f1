/**
 * Other internal origins (ALLOWED_ORIGINS): their pages call /api and /graphql over HTTP and the
 * WebSocket with bearer tokens; any other origin gets nothing; cookies authenticate the platform's
 * own pages only, so no page of another origin acts with the session of the person who opened it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { startTestPlatform, type TestPlatform } from '../test/db.js';
import { loginToken } from '../test/http.js';

const TOOL = 'https://tool.example.co.jp';
const EVIL = 'https://evil.example.com';
let p: TestPlatform;
let token: string;
beforeAll(async () => {
  p = await startTestPlatform({ ALLOWED_ORIGINS: TOOL });
  token = await loginToken(p.url, 'staff');
});
afterAll(async () => p?.close());

const ME = JSON.stringify({ query: '{ me { loginId } }' });

describe('other internal origins', () => {
  it('a listed origin: preflights answered, answers readable (CORS without credentials), bearer tokens work over HTTP', async () => {
    for (const path of ['/graphql', '/api/employees']) {
      const pre = await fetch(`${p.url}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin: TOOL,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      expect(pre.status, path).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe(TOOL);
      expect(pre.headers.get('access-control-allow-headers')).toMatch(/authorization/);
      expect(pre.headers.get('access-control-allow-credentials')).toBeNull();
    }
    const r = await fetch(`${p.url}/graphql`, {
      method: 'POST',
      headers: { origin: TOOL, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: ME,
    });
    expect(r.headers.get('access-control-allow-origin')).toBe(TOOL);
    expect((await r.json()).data.me.loginId).toBe('staff');
    const list = await fetch(`${p.url}/api/employees?limit=1`, {
      headers: { origin: TOOL, authorization: `Bearer ${token}` },
    });
    expect(list.status).toBe(200);
    expect(list.headers.get('access-control-expose-headers')).toMatch(/etag/);
  });

  it('another origin: no CORS headers, its preflight is not answered for it, and its WebSocket is refused', async () => {
    const pre = await fetch(`${p.url}/graphql`, {
      method: 'OPTIONS',
      headers: { origin: EVIL, 'access-control-request-method': 'POST' },
    });
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    const r = await fetch(`${p.url}/api/employees?limit=1`, {
      headers: { origin: EVIL, authorization: `Bearer ${token}` },
    });
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(p.url.replace('http', 'ws') + '/graphql', 'graphql-transport-ws', {
        headers: { origin: EVIL },
      });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
    });
    expect(refused).toBe(403);
  });

  it("cookies count for the platform's own pages only: the same cookie from a listed or another origin is no session, over HTTP and the WebSocket", async () => {
    const login = await fetch(`${p.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ loginId: 'staff', password: 'intranet-demo' }),
    });
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    expect(cookie).toMatch(/intranet_sid=/);
    const me = (origin?: string) =>
      fetch(`${p.url}/graphql`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', ...(origin ? { origin } : {}) },
        body: ME,
      }).then((r) => r.json());
    expect((await me()).data.me.loginId).toBe('staff');
    expect((await me(p.url)).data.me.loginId).toBe('staff');
    for (const origin of [TOOL, EVIL]) expect((await me(origin)).data?.me ?? null, origin).toBeNull(); // me answers null without a session
    expect((await fetch(`${p.url}/api/employees?limit=1`, { headers: { cookie, origin: TOOL } })).status).toBe(401);

    // The WebSocket of a listed origin opens, but acts only with a bearer token.
    const socket = (connectionParams?: Record<string, string>) =>
      new Promise<string>((resolve) => {
        const c = createClient({
          url: p.url.replace('http', 'ws') + '/graphql',
          webSocketImpl: class extends WebSocket {
            constructor(url: string, protocols?: string | string[]) {
              super(url, protocols, { headers: { origin: TOOL, cookie } });
            }
          },
          retryAttempts: 0,
          lazy: false,
          connectionParams,
          onNonLazyError: () => undefined, // the refused socket: asserted below
          on: { closed: (e) => resolve(`closed ${(e as { code: number }).code}`) },
        });
        c.subscribe(
          { query: '{ me { loginId } }' },
          {
            next: (m) => resolve(String((m.data as { me: { loginId: string } }).me.loginId)),
            error: () => undefined,
            complete: () => c.dispose(),
          },
        );
      });
    expect(await socket()).toMatch(/^closed 44/);
    expect(await socket({ authorization: `Bearer ${token}` })).toBe('staff');
  });
});
