/**
 * API keys for other internal tools, in every channel: made by a 管理者 (the secret once), used as a
 * bearer token over HTTP GraphQL, /api and the WebSocket, read-only keys refused any change, never
 * taken from a cookie, wrong keys throttled, revocation at once, the list as an audit.
 */
import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../test/db.js';
import { api, gql, loginToken } from '../../test/http.js';

let p: TestPlatform;
let admin: string;
beforeAll(async () => {
  p = await startTestPlatform({ LOGIN_MAX_FAILURES_PER_ACCOUNT_IP: '3' });
  admin = await loginToken(p.url, 'admin');
});
afterAll(async () => p?.close());

const CREATE = `mutation($i: ApiKeyInput!) { createApiKey(input: $i) { secret apiKey { id name prefix role readOnly createdBy { name } revokedAt } } }`;
const make = async (input: Record<string, unknown>) => {
  const r = await gql(p.url, CREATE, { i: input }, { token: admin });
  if (r.body.errors) throw new Error(JSON.stringify(r.body.errors));
  return r.body.data.createApiKey as { secret: string; apiKey: { id: number; prefix: string } };
};

describe('API keys', () => {
  it('a 管理者 makes a read-write key; a tool uses it in GraphQL and /api as the administrator with its role', async () => {
    const { secret, apiKey } = await make({ name: '在庫連携ツール', role: 'DEVICE_ADMIN', readOnly: false });
    expect(secret).toMatch(/^ipk_[A-Za-z0-9_-]{43}$/);
    expect(secret.startsWith(apiKey.prefix)).toBe(true);
    const me = await gql(p.url, `{ me { name } computers(limit: 1) { total } }`, {}, { token: secret });
    expect(me.body.errors).toBeUndefined();
    expect(me.body.data.me.name).toBe('山田 太郎');
    // DEVICE_ADMIN: the staff master data is not its to change.
    expect((await api(p.url, 'POST', '/employees', { token: secret, body: { name: 'x' } })).status).toBe(403);
    const list = await api(p.url, 'GET', '/computers?limit=1', { token: secret });
    expect(list.status).toBe(200);
    const keys = await api(p.url, 'GET', '/api_keys', { token: admin });
    expect(keys.body.find((k: { api_key_id: number }) => k.api_key_id === apiKey.id)).toMatchObject({
      name: '在庫連携ツール',
      last_used_at: expect.any(String),
      revoked_at: null,
    });
    expect(JSON.stringify(keys.body)).not.toContain(secret);
  });

  it('a read-only key reads but runs no mutation and no /api write, over HTTP and the WebSocket', async () => {
    const { secret } = await make({ name: '集計ツール', role: 'ADMIN', readOnly: true });
    expect((await gql(p.url, `{ employees(limit: 1) { total } }`, {}, { token: secret })).body.errors).toBeUndefined();
    const m = await gql(p.url, `mutation { markNotificationsRead(ids: []) }`, {}, { token: secret });
    expect(m.status).toBe(403);
    expect(m.body.errors[0]).toMatchObject({ extensions: { code: 'FORBIDDEN', reason: 'API_KEY_READ_ONLY' } });
    const rest = await api(p.url, 'POST', '/schedules', {
      token: secret,
      body: { title: 'x', date: '2025-01-01', start_time: '09:00', end_time: '10:00', type: 'task' },
    });
    expect(rest.status).toBe(403);
    expect(rest.body.reason).toBe('API_KEY_READ_ONLY');
    const client = createClient({
      url: `${p.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${secret}` },
    });
    try {
      const read = await new Promise<unknown>((resolve, reject) => {
        let got: unknown;
        client.subscribe(
          { query: '{ me { name } }' },
          { next: (r) => (got = r), error: reject, complete: () => resolve(got) },
        );
      });
      expect(read).toMatchObject({ data: { me: { name: '山田 太郎' } } });
      const write = await new Promise<{ errors?: { extensions: { code: string } }[] }>((resolve, reject) => {
        let got: { errors?: { extensions: { code: string } }[] } = {};
        client.subscribe(
          { query: 'mutation { markNotificationsRead(ids: []) }' },
          {
            next: (r) => (got = r as typeof got),
            error: (e) => resolve({ errors: e as never }),
            complete: () => resolve(got),
          },
        );
        void reject;
      });
      expect(write.errors?.[0]?.extensions.code).toBe('FORBIDDEN');
    } finally {
      await client.dispose();
    }
  });

  it('revoked and expired keys stop at once; only 管理者 and システム管理者 manage keys; the list keeps who revoked', async () => {
    const { secret, apiKey } = await make({ name: '期限切れ予定', role: 'GENERAL', readOnly: true });
    expect((await api(p.url, 'GET', '/auth/me', { token: secret })).status).toBe(200);
    const revoked = await api(p.url, 'DELETE', `/api_keys/${apiKey.id}`, { token: admin });
    expect(revoked.body).toMatchObject({ revoked_at: expect.any(String), revoked_by: { full_name: '山田 太郎' } });
    expect((await api(p.url, 'GET', '/auth/me', { token: secret })).status).toBe(401);
    const past = await gql(
      p.url,
      CREATE,
      { i: { name: '過去', role: 'GENERAL', readOnly: true, expiresAt: '2020-01-01T00:00:00Z' } },
      { token: admin },
    );
    expect(past.body.errors[0]).toMatchObject({
      extensions: { code: 'BAD_USER_INPUT', fieldErrors: [{ field: 'expiresAt' }] },
    });
    const staff = await loginToken(p.url, 'staff');
    expect((await gql(p.url, `{ apiKeys { id } }`, {}, { token: staff })).body.errors[0].extensions.code).toBe(
      'FORBIDDEN',
    );
    expect(
      (await api(p.url, 'POST', '/api_keys', { token: staff, body: { name: 'x', role: 'GENERAL', read_only: true } }))
        .status,
    ).toBe(403);
    // A key cannot make keys of its own beyond what its role allows: a GENERAL key is refused.
    const general = await make({ name: '一般キー', role: 'GENERAL', readOnly: false });
    expect(
      (
        await api(p.url, 'POST', '/api_keys', {
          token: general.secret,
          body: { name: 'x', role: 'ADMIN', read_only: false },
        })
      ).status,
    ).toBe(403);
  });

  it('a key in a cookie is not a session; wrong keys are throttled like failed sign-ins', async () => {
    const { secret } = await make({ name: 'クッキー', role: 'GENERAL', readOnly: true });
    const viaCookie = await fetch(`${p.url}/api/auth/me`, { headers: { cookie: `intranet_session=${secret}` } });
    expect(viaCookie.status).toBe(401);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await api(p.url, 'GET', '/auth/me', { token: `ipk_${'x'.repeat(43)}${i}` })).status);
    expect(statuses[0]).toBe(401); // the revoked key above counted too
    expect(statuses.at(-1)).toBe(429);
    const g = await gql(p.url, `{ me { id } }`, {}, { token: `ipk_${'y'.repeat(44)}` });
    expect(g.status).toBe(429);
    expect(g.body.errors[0].extensions.code).toBe('TOO_MANY_REQUESTS');
    expect(g.headers.get('retry-after')).toMatch(/^\d+$/);
    // A right key still works from the same address.
    expect((await api(p.url, 'GET', '/auth/me', { token: secret })).status).toBe(200);
  });
});
