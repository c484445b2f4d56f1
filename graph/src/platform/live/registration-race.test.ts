import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { startTestPlatform, type TestPlatform } from '../../test/db.js';
import { gql, loginToken } from '../../test/http.js';

/*
 * The registration race (position.ts): a screen reads its query, a change commits and reaches this
 * instance, then the screen registers its subscription. The event went out before the registration,
 * so the subscription never carries it; the client must learn from the positions that its answer
 * is older than the stream it now follows.
 */

let p: TestPlatform;
let admin: string;
let staff: string;
beforeAll(async () => {
  p = await startTestPlatform();
  admin = await loginToken(p.url, 'admin');
  staff = await loginToken(p.url, 'staff');
});
afterAll(async () => p?.close());

const within = <T>(promise: Promise<T>, what: string, ms = 5000) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)),
  ]);

function connect(token: string): Client {
  const url = p.url.replace('http', 'ws') + '/graphql';
  return createClient({
    url,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: false,
    connectionParams: { authorization: `Bearer ${token}` },
  });
}

/** Registers `employeeChanged` asking for its position; resolves with the first frame. */
function register(
  c: Client,
  extensions: Record<string, unknown> | undefined,
): Promise<{ data?: unknown; extensions?: { livePosition?: string } }> {
  return new Promise((resolve, reject) => {
    c.subscribe(
      { query: 'subscription { employeeChanged { type employeeId } }', extensions },
      { next: (m) => resolve(m as never), error: reject, complete: () => undefined },
    );
  });
}

/** Resolves once this instance has published the next `employee` event to its live subscriptions. */
function nextPublished(): Promise<unknown> {
  const it = p.graph.services.pubsub.subscribe('event', 'employee')[Symbol.asyncIterator]();
  return it.next().then(async (r) => {
    await it.return?.();
    return r.value;
  });
}

const employeesQuery = '{ employees(filter: { name: "競合" }) { items { id name } } }';
const readEmployees = (token: string) => gql(p.url, employeesQuery, {}, { token, headers: { 'x-live-position': '1' } });

describe('a live screen learns what it missed between its query and its subscription', () => {
  it('a change committed after the query and delivered before the registration: the subscription starts beyond the query (refetch)', async () => {
    const read = await readEmployees(staff);
    expect(read.body.errors).toBeUndefined();
    const queryPosition: string = read.body.extensions?.livePosition;
    expect(queryPosition).toMatch(/^\d+$/);

    const name = `競合 テスト ${Date.now()}`;
    const published = nextPublished();
    const created = await gql(
      p.url,
      `mutation($name: String!, $loginId: String!) { createEmployee(input: { name: $name, loginId: $loginId, password: "0123456789ab", role: GENERAL, status: ACTIVE }) { id } }`,
      { name, loginId: `race${Date.now()}` },
      { token: admin },
    );
    expect(created.body.errors).toBeUndefined();
    await within(published, 'the change reached this instance');
    expect(JSON.stringify(read.body.data)).not.toContain(name); // the query's answer is older than the change

    const c = connect(staff);
    const first = await within(register(c, { livePosition: true }), 'the registration frame');
    expect(first.data).toBeUndefined();
    const subscriptionPosition = first.extensions?.livePosition;
    expect(subscriptionPosition).toMatch(/^\d+$/);
    expect(BigInt(subscriptionPosition!)).toBeGreaterThanOrEqual(BigInt(queryPosition));

    // A query read now reflects the change and reports a position beyond its event.
    const again = await readEmployees(staff);
    expect(JSON.stringify(again.body.data)).toContain(name);
    await c.dispose();
  });

  it('a query without the header reports no position (tools and benchmarks pay nothing; delivery.test.ts: a subscription that does not ask gets its events only)', async () => {
    const plain = await gql(p.url, employeesQuery, {}, { token: staff });
    expect(plain.body.errors).toBeUndefined();
    expect(plain.body.extensions?.livePosition).toBeUndefined();
  });

  it('a week-grid cache hit reports the position of the read that filled it; an answer kept without one is not served to a request asking for one', async () => {
    const GRID = `query ScheduleGrid($from: String!, $to: String!, $offset: Int!, $limit: Int!) {
      scheduleGrid(from: $from, to: $to, offset: $offset, limit: $limit) { from to people { id entries { id } } }
    }`;
    const read = (from: string, to: string, asks: boolean) =>
      gql(
        p.url,
        GRID,
        { from, to, offset: 0, limit: 50 },
        { token: staff, headers: asks ? { 'x-live-position': '1' } : {} },
      );
    const stats = () => p.graph.services.scheduleGridCache.stats();

    const filled = await read('2032-05-03', '2032-05-09', true);
    expect(filled.body.errors).toBeUndefined();
    const position: string = filled.body.extensions?.livePosition;
    expect(position).toMatch(/^\d+$/);
    const hits = stats().hits;
    const hit = await read('2032-05-03', '2032-05-09', true);
    expect(stats().hits).toBe(hits + 1);
    expect(hit.body).toEqual({ data: filled.body.data, extensions: { livePosition: position } });
    const plainHit = await read('2032-05-03', '2032-05-09', false);
    expect(plainHit.body).toEqual({ data: filled.body.data });

    // Kept by a request that did not ask: one that asks gets it computed again, with its position.
    await read('2032-06-07', '2032-06-13', false);
    const stores = stats().stores;
    const asked = await read('2032-06-07', '2032-06-13', true);
    expect(stats().stores).toBe(stores + 1); // computed and kept again, now with its position
    expect(asked.body.extensions?.livePosition).toMatch(/^\d+$/);
  });
});
