import { subscribeRegistered } from '../../test/live.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { startTestPlatform, type TestPlatform } from '../../test/db.js';
import { api, loginToken } from '../../test/http.js';

let p: TestPlatform;
let devadmin: string;
let staff: string;
beforeAll(async () => {
  p = await startTestPlatform();
  [devadmin, staff] = await Promise.all(['devadmin', 'staff'].map((l) => loginToken(p.url, l)));
});
afterAll(async () => p?.close());

const client = (token: string): Client =>
  createClient({
    url: p.url.replace('http', 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: false,
    connectionParams: { authorization: `Bearer ${token}` },
  });

interface Change {
  type: string;
  kind: string;
  id: number;
  changed: string[];
}

describe('deviceChanged', () => {
  it('delivers committed computer, smartphone and Office changes, filtered by kind', async () => {
    const c = client(devadmin);
    const all: Change[] = [];
    const phonesOnly: Change[] = [];
    const sub = (query: string, into: Change[]) =>
      subscribeRegistered<{ deviceChanged: Change }>(
        c,
        { query },
        { next: (m) => into.push(m.data!.deviceChanged), error: () => undefined, complete: () => undefined },
      ).registered;
    await Promise.all([
      sub('subscription { deviceChanged { type kind id changed occurredAt } }', all),
      sub('subscription { deviceChanged(kinds: [SMARTPHONE]) { type kind id changed occurredAt } }', phonesOnly),
    ]);
    const pc = (await api(p.url, 'POST', '/computers', { token: devadmin, body: { maker: 'Live', status: '正常' } }))
      .body;
    await api(p.url, 'PUT', `/computers/${pc.id}`, {
      token: devadmin,
      body: { maker: 'Live', status: '故障', version: pc.version },
    });
    const phone = (
      await api(p.url, 'POST', '/smartphone', {
        token: devadmin,
        body: { phone_number: '070-0000-0001', status: '正常' },
      })
    ).body;
    const acct = (
      await api(p.url, 'POST', '/microsoft_office', {
        token: devadmin,
        body: { account: 'live@example.co.jp', status: '使用中' },
      })
    ).body;
    for (let i = 0; i < 50 && all.length < 4; i++) await new Promise((r) => setTimeout(r, 100));
    expect(all).toEqual(
      [
        { type: 'device.computer.created', kind: 'COMPUTER', id: pc.id, changed: [] },
        { type: 'device.computer.updated', kind: 'COMPUTER', id: pc.id, changed: ['status'] },
        { type: 'device.smartphone.created', kind: 'SMARTPHONE', id: phone.id, changed: [] },
        { type: 'device.office_account.created', kind: 'OFFICE_ACCOUNT', id: acct.id, changed: [] },
      ].map((x) => expect.objectContaining(x)),
    );
    expect(phonesOnly.map((x) => x.id)).toEqual([phone.id]);
    await c.dispose();
  });

  it('refuses 一般', async () => {
    const c = client(staff);
    const err = await new Promise<unknown>((resolve) => {
      c.subscribe(
        { query: 'subscription { deviceChanged { id } }' },
        { next: resolve, error: resolve, complete: () => resolve(null) },
      );
    });
    expect(JSON.stringify(err)).toContain('FORBIDDEN');
    await c.dispose();
  });
});
