/**
 * Another internal tool's page in Chromium (issue 42): served from the origin the platform lists in
 * ALLOWED_ORIGINS, it calls /graphql over HTTP and subscribes over the WebSocket with a bearer token,
 * and sees its own write arrive live; the signed-in person's cookie never counts from it. The same
 * page from an origin nobody listed can neither read an answer nor open the WebSocket.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_PASSWORD, baseURL, fillLogin, launchBrowser, newPage, toolOrigin } from './support/browser';

const TOOL_PAGE = '<!doctype html><html lang="ja"><head><title>社内ツール</title></head><body>社内ツール</body></html>';

function serveToolPage(port: number): Promise<http.Server> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(TOOL_PAGE);
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

let browser: Browser;
let listed: http.Server;
let unlisted: http.Server;
let token: string;
beforeAll(async () => {
  browser = await launchBrowser();
  listed = await serveToolPage(Number(new URL(toolOrigin()).port));
  unlisted = await serveToolPage(0);
  const r = await fetch(`${baseURL()}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ loginId: 'staff', password: DEMO_PASSWORD }),
  });
  token = ((await r.json()) as { token: string }).token;
});
afterAll(async () => {
  await browser?.close();
  listed?.close();
  unlisted?.close();
});

interface ToolResult {
  http: { ok: boolean; status?: number; me?: string | null; error?: string };
  ws: { acked: boolean; title?: string; closeCode?: number; error?: boolean };
}

/** In the tool's page: the HTTP query, then a subscription that should hear the schedule entry the page creates. */
function runTool(page: Page, opts: { bearer: boolean; title: string }): Promise<ToolResult> {
  return page.evaluate(
    async ({ api, token, bearer, title }) => {
      const auth: Record<string, string> = bearer ? { authorization: `Bearer ${token}` } : {};
      const out: ToolResult = { http: { ok: false }, ws: { acked: false } };
      try {
        const r = await fetch(`${api}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...auth },
          credentials: bearer ? 'omit' : 'include',
          body: JSON.stringify({ query: '{ me { name } }' }),
        });
        const body = (await r.json()) as { data?: { me?: { name: string } | null } };
        out.http = { ok: true, status: r.status, me: body.data?.me?.name ?? null };
      } catch (e) {
        out.http = { ok: false, error: String(e) };
      }
      out.ws = await new Promise<ToolResult['ws']>((resolve) => {
        const ws = new WebSocket(`${api.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
        let acked = false;
        const done = (r: ToolResult['ws']) => {
          resolve(r);
          ws.close();
        };
        setTimeout(() => done({ acked, error: true }), 10_000);
        ws.onopen = () => ws.send(JSON.stringify({ type: 'connection_init', payload: auth }));
        ws.onerror = () => undefined;
        ws.onclose = (e) => resolve({ acked, closeCode: e.code });
        ws.onmessage = async (e) => {
          const m = JSON.parse(String(e.data)) as {
            type: string;
            payload?: { data?: { scheduleChanged?: { schedule?: { title: string } } } };
          };
          if (m.type === 'connection_ack') {
            acked = true;
            ws.send(
              JSON.stringify({
                id: '1',
                type: 'subscribe',
                payload: {
                  query:
                    'subscription($from: String, $to: String) { scheduleChanged(from: $from, to: $to) { kind schedule { title } } }',
                  variables: { from: '2031-05-12', to: '2031-05-18' },
                },
              }),
            );
            await new Promise((r) => setTimeout(r, 500));
            await fetch(`${api}/graphql`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', ...auth },
              body: JSON.stringify({
                query: 'mutation($input: ScheduleInput!) { createSchedule(input: $input) { id } }',
                variables: {
                  input: {
                    title,
                    date: '2031-05-13',
                    endDate: '2031-05-13',
                    isAllDay: false,
                    startTime: '10:00',
                    endTime: '11:00',
                    type: 'APPOINTMENT',
                    description: null,
                    syncGoogle: false,
                    isPrivate: false,
                    guestIds: [],
                    externalGuests: [],
                  },
                },
              }),
            });
          } else if (m.type === 'next') {
            done({ acked, title: m.payload?.data?.scheduleChanged?.schedule?.title });
          }
        };
      });
      return out;
    },
    { api: baseURL(), token, ...opts },
  );
}

describe('a tool on another internal origin', () => {
  test('listed: /graphql answers over HTTP and the WebSocket delivers live with a bearer token', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${toolOrigin()}/`);
    const r = await runTool(page, { bearer: true, title: 'ツールからの予定' });
    expect(r.http).toEqual({ ok: true, status: 200, me: expect.any(String) });
    expect(r.http.me).not.toBe('');
    expect(r.ws).toEqual({ acked: true, title: 'ツールからの予定' });
    await context.close();
  });

  test("listed, without a token: the person's session cookie does not count from there", async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await fillLogin(page, 'staff', DEMO_PASSWORD);
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
    expect((await context.cookies(baseURL())).length).toBeGreaterThan(0); // signed in on the platform itself
    await page.goto(`${toolOrigin()}/`);
    const r = await runTool(page, { bearer: false, title: 'クッキーでは作れない予定' });
    // A credentialed request gets no Access-Control-Allow-Credentials: the browser keeps the answer from the script.
    expect(r.http.ok).toBe(false);
    // The upgrade carries the cookie, but only a bearer token opens a socket from another origin: 4403.
    expect(r.ws).toEqual({ acked: false, closeCode: 4403 });
    await context.close();
  });

  test('unlisted: the page can neither read an answer nor open the WebSocket, even with a token', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`http://127.0.0.1:${(unlisted.address() as AddressInfo).port}/`);
    const r = await runTool(page, { bearer: true, title: '届かない予定' });
    expect(r.http.ok).toBe(false);
    expect(r.ws.acked).toBe(false);
    expect(r.ws.closeCode).toBe(1006); // the upgrade was refused (403) before any WebSocket existed
    await context.close();
  });
});
