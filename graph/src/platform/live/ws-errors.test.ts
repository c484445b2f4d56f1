import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { startGraph, type Graph } from '../bootstrap.js';
import { createTestDatabase, testConfig, type TestDatabase } from '../../test/db.js';
import { gql, loginToken } from '../../test/http.js';

/**
 * Every mistake a client can make is typed the same on every channel: a query over HTTP, the same
 * query over the WebSocket, and a subscription (which only the WebSocket runs). Only the server's
 * own faults are INTERNAL_SERVER_ERROR.
 */
let db: TestDatabase;
let graph: Graph;
let url: string;
let token: string;
let client: Client;
const logged: { level: number; msg: string }[] = [];
beforeAll(async () => {
  db = await createTestDatabase();
  const sink = new Writable({ write: (chunk, _enc, done) => void (logged.push(JSON.parse(String(chunk))), done()) });
  graph = await startGraph(testConfig(), pino({ level: 'info' }, sink), db.url);
  url = graph.server.url;
  token = await loginToken(url, 'staff');
  client = createClient({
    url: url.replace('http', 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: false,
    connectionParams: { authorization: `Bearer ${token}` },
  });
});
afterAll(async () => {
  await client?.dispose();
  await graph?.stop();
  await db?.close();
});

interface Answer {
  code: string;
  message: string;
}

/** The first error of one operation over the WebSocket, or 'none' when it answered without one. */
function overSocket(query: string, variables: Record<string, unknown>): Promise<Answer> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (a: Answer) => {
      if (settled) return;
      settled = true;
      unsubscribe();
      resolve(a);
    };
    const unsubscribe = client.subscribe(
      { query, variables },
      {
        next: (r) => {
          const e = (r.errors as { message: string; extensions?: { code?: string } }[] | undefined)?.[0];
          done(e ? { code: e.extensions?.code ?? '?', message: e.message } : { code: 'none', message: '' });
        },
        error: (err) => {
          const e = (Array.isArray(err) ? err[0] : err) as { message: string; extensions?: { code?: string } };
          done({ code: e.extensions?.code ?? '?', message: e.message });
        },
        complete: () => done({ code: 'none', message: '' }),
      },
    );
    // A subscription that was accepted stays open and sends nothing: that is no error.
    setTimeout(() => done({ code: 'none', message: '' }), 1500);
  });
}

async function overHttp(query: string, variables: Record<string, unknown>): Promise<Answer & { status: number }> {
  const r = await gql(url, query, variables, { token });
  const e = r.body.errors?.[0];
  return { status: r.status, code: e?.extensions?.code ?? 'none', message: e?.message ?? '' };
}

/** Each mistake as a query (both channels) and as a subscription (WebSocket). */
const mistakes: {
  name: string;
  query: [string, Record<string, unknown>];
  subscription: [string, Record<string, unknown>];
  code: string;
}[] = [
  {
    name: 'a variable of the wrong type',
    query: ['query($f: String) { schedules(from: $f) { total } }', { f: 5 }],
    subscription: ['subscription($f: String) { scheduleChanged(from: $f) { __typename } }', { f: 5 }],
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'a required variable left out',
    query: ['query($id: ID!) { importJob(id: $id) { id } }', {}],
    subscription: ['subscription($id: ID!) { importJobChanged(id: $id) { id } }', {}],
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'a field of an input object of the wrong type',
    query: ['query($f: BlogFeedFilter) { blogFeed(filter: $f) { nextCursor } }', { f: { categoryId: 'x' } }],
    subscription: [
      'subscription($f: BlogFeedFilter) { blogChanged(feed: $f) { __typename } }',
      { f: { categoryId: 'x' } },
    ],
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'an unknown field of an input object',
    query: ['query($f: BlogFeedFilter) { blogFeed(filter: $f) { nextCursor } }', { f: { nope: 1 } }],
    subscription: ['subscription($f: BlogFeedFilter) { blogChanged(feed: $f) { __typename } }', { f: { nope: 1 } }],
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'a field that does not exist',
    query: ['{ me { nope } }', {}],
    subscription: ['subscription { employeeChanged { nope } }', {}],
    code: 'GRAPHQL_VALIDATION_FAILED',
  },
  {
    name: 'text that is not GraphQL',
    query: ['{ me {', {}],
    subscription: ['subscription { employeeChanged {', {}],
    code: 'GRAPHQL_PARSE_FAILED',
  },
];

describe('one error contract on every channel', () => {
  for (const m of mistakes)
    it(`${m.name}: ${m.code} over HTTP, over the WebSocket, and in a subscription`, async () => {
      const http = await overHttp(...m.query);
      expect(http.code).toBe(m.code);
      expect(http.status).toBe(400);
      expect((await overSocket(...m.query)).code).toBe(m.code);
      const sub = await overSocket(...m.subscription);
      expect(sub.code).toBe(m.code);
      expect(sub.message).not.toMatch(/サーバーでエラー/);
    });

  it('an error thrown while the subscription is set up keeps its code (a 一般 user’s import job is FORBIDDEN, as the query is)', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    expect((await overHttp('query($id: ID!) { importJob(id: $id) { id } }', { id })).code).toBe('FORBIDDEN');
    expect((await overSocket('subscription($id: ID!) { importJobChanged(id: $id) { id } }', { id })).code).toBe(
      'FORBIDDEN',
    );
  });

  it('none of these is logged as the server’s fault', () => {
    expect(logged.filter((l) => l.level >= 50)).toEqual([]);
  });
});
