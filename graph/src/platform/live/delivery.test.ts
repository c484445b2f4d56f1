import { subscribeRegistered } from '../../test/live.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { startTestPlatform, type TestPlatform } from '../../test/db.js';
import { loginToken } from '../../test/http.js';
import { record } from '../events/outbox.js';

let p: TestPlatform;
let token: string;
beforeAll(async () => {
  p = await startTestPlatform();
  token = await loginToken(p.url, 'staff');
});
afterAll(async () => p?.close());

function wsClient(headers: Record<string, string>): Client {
  const url = p.url.replace('http', 'ws') + '/graphql';
  class WithHeaders extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols, { headers });
    }
  }
  return createClient({ url, webSocketImpl: WithHeaders, retryAttempts: 0, lazy: false });
}

function firstError(c: Client): Promise<unknown> {
  return new Promise((resolve) => {
    c.on('closed', (e) => resolve(e));
    c.on('error', (e) => resolve(e));
  });
}

const snapshot = {
  id: 4,
  name: '田中 美咲',
  role: 'GENERAL' as const,
  status: 'ACTIVE' as const,
  departmentId: 3,
  locationId: 3,
  version: 2,
};

describe('graphql-ws', () => {
  it('refuses a connection without a session', async () => {
    const c = wsClient({});
    const closed = (await firstError(c)) as { code?: number };
    expect(closed.code).toBe(4403);
    await c.dispose();
  });

  it('accepts a Bearer token in connectionParams (tools without cookies)', async () => {
    const url = p.url.replace('http', 'ws') + '/graphql';
    const c = createClient({
      url,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: false,
      connectionParams: { authorization: `Bearer ${token}` },
    });
    const opened = await new Promise((resolve) => {
      c.on('connected', () => resolve(true));
      c.on('closed', () => resolve(false));
    });
    expect(opened).toBe(true);
    await c.dispose();
  });

  it('refuses a foreign Origin at the upgrade', async () => {
    const c = wsClient({ cookie: `intranet_sid=${token}`, origin: 'https://evil.example.com' });
    const err = await firstError(c);
    expect(String((err as Error).message ?? (err as { reason?: string }).reason ?? err)).toMatch(
      /403|Unexpected server response|socket/i,
    );
    await c.dispose();
  });

  it('delivers committed events to subscribers, and never one whose transaction rolled back', async () => {
    const c = wsClient({ cookie: `intranet_sid=${token}`, origin: p.url });
    const received: { type: string; employeeId: number }[] = [];
    let registered!: Promise<void>;
    const done = new Promise<void>((resolve, reject) => {
      ({ registered } = subscribeRegistered<{ employeeChanged: { type: string; employeeId: number } }>(
        c,
        { query: 'subscription { employeeChanged { type employeeId occurredAt } }' },
        {
          next: (m) => {
            received.push(m.data!.employeeChanged);
            if (received.length === 1) resolve();
          },
          error: reject,
          complete: () => undefined,
        },
      ));
    });
    await registered;
    const em = p.db.orm.em.fork();
    await em
      .transactional(async (tx) => {
        record(tx, {
          type: 'employee.updated',
          aggregateId: 4,
          actorId: 1,
          payload: { employee: { ...snapshot, name: 'rolled back' }, changed: ['name'] },
        });
        await tx.flush();
        throw new Error('abort');
      })
      .catch(() => undefined);
    await em.transactional(async (tx) => {
      record(tx, {
        type: 'employee.updated',
        aggregateId: 4,
        actorId: 1,
        payload: { employee: snapshot, changed: ['name'] },
      });
    });
    await done;
    await new Promise((r) => setTimeout(r, 300));
    expect(received).toEqual([{ type: 'employee.updated', employeeId: 4, occurredAt: expect.any(String) }]);
    const rows = await p.db.orm.em
      .fork()
      .getConnection()
      .execute(`select count(*)::int as n, count(sent_at)::int as sent from outbox_all`);
    expect(rows[0]).toEqual({ n: 1, sent: 1 });
    await c.dispose();
  });

  it('applies the same limits as HTTP (aliases)', async () => {
    const c = wsClient({ cookie: `intranet_sid=${token}`, origin: p.url });
    const aliases = Array.from({ length: 20 }, (_, i) => `a${i}: employeeChanged { type }`).join(' ');
    const err = await new Promise<unknown>((resolve) => {
      c.subscribe(
        { query: `subscription { ${aliases} }` },
        { next: () => undefined, error: resolve, complete: () => resolve(null) },
      );
    });
    expect(JSON.stringify(err)).toMatch(/aliases/i);
    await c.dispose();
  });
});

describe('event contracts', () => {
  it('an event that fails its contract is never recorded', () => {
    const em = p.db.orm.em.fork();
    expect(() =>
      record(em, {
        type: 'employee.updated',
        aggregateId: 1,
        actorId: 1,
        payload: { employee: { id: 'x' }, changed: [] } as never,
      }),
    ).toThrow();
    expect(() =>
      record(em, { type: 'no.such.event' as never, aggregateId: 1, actorId: 1, payload: {} as never }),
    ).toThrow(/Unknown event type/);
  });
});
