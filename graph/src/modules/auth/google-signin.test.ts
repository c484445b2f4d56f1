import { generateKeyPairSync, sign } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../test/db.js';
import { api } from '../../test/http.js';

/**
 * Google sign-in through the real google-auth-library: a local server plays Google's certificate
 * endpoint (GOOGLE_CERTS_URL), and tokens are signed with its key, so signature, aud, iss and exp
 * are checked by the library exactly as in production.
 */
const CLIENT_ID = 'intranet-test.apps.googleusercontent.com';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
const KID = 'test-key-1';

function idToken(claims: Record<string, unknown>, key = privateKey): string {
  const now = Math.floor(Date.now() / 1000);
  const header = Buffer.from(JSON.stringify({ alg: 'RS256', kid: KID, typ: 'JWT' })).toString('base64url');
  const body = Buffer.from(
    JSON.stringify({ iss: 'https://accounts.google.com', aud: CLIENT_ID, iat: now, exp: now + 600, ...claims }),
  ).toString('base64url');
  const sig = sign('RSA-SHA256', Buffer.from(`${header}.${body}`), key).toString('base64url');
  return `${header}.${body}.${sig}`;
}

let certs: http.Server;
let p: TestPlatform;
let hd: TestPlatform;
beforeAll(async () => {
  certs = http.createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.setHeader('cache-control', 'public, max-age=60');
    res.end(JSON.stringify({ [KID]: publicKey.export({ type: 'spki', format: 'pem' }) }));
  });
  await new Promise<void>((r) => certs.listen(0, '127.0.0.1', r));
  const certsUrl = `http://127.0.0.1:${(certs.address() as AddressInfo).port}/certs`;
  p = await startTestPlatform({ GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_CERTS_URL: certsUrl });
  hd = await startTestPlatform({
    GOOGLE_CLIENT_ID: CLIENT_ID,
    GOOGLE_CERTS_URL: certsUrl,
    GOOGLE_HOSTED_DOMAIN: 'example.co.jp',
  });
});
afterAll(async () => {
  await p?.close();
  await hd?.close();
  certs?.close();
});

const google = (t: TestPlatform, token: string) => api(t.url, 'POST', '/auth/google', { body: { token } });

describe('Google sign-in', () => {
  it('links a verified e-mail to the employee on first use, then signs in by sub', async () => {
    const first = await google(
      p,
      idToken({ sub: 'g-100', email: 'misaki.tanaka@example.co.jp', email_verified: true }),
    );
    expect(first.status).toBe(200);
    expect(first.body.user.login_id).toBe('staff');
    expect(first.body.token).toBeTruthy();
    // Same Google account, e-mail changed on Google's side: still the same employee (linked by sub).
    const again = await google(p, idToken({ sub: 'g-100', email: 'someone-else@example.com', email_verified: true }));
    expect(again.body.user.login_id).toBe('staff');
  });

  it('does not link by an unverified e-mail', async () => {
    const r = await google(p, idToken({ sub: 'g-200', email: 'taro.yamada@example.co.jp', email_verified: false }));
    expect(r.status).toBe(401);
    expect(r.body.error).toContain('社員が見つかりません');
  });

  it('rejects a token for another audience, an expired one, a wrong issuer and a forged signature', async () => {
    const base = { sub: 'g-300', email: 'taro.yamada@example.co.jp', email_verified: true };
    const now = Math.floor(Date.now() / 1000);
    for (const bad of [
      idToken({ ...base, aud: 'someone-else.apps.googleusercontent.com' }),
      idToken({ ...base, iat: now - 7200, exp: now - 3600 }),
      idToken({ ...base, iss: 'https://evil.example.com' }),
      idToken(base, other.privateKey),
    ]) {
      const r = await google(p, bad);
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('UNAUTHENTICATED');
    }
    const [row] = await p.db.orm.em
      .fork()
      .getConnection()
      .execute(`select google_sub from employee where login_id = 'admin'`);
    expect(row.google_sub).toBeNull();
  });

  it('enforces the Workspace domain when GOOGLE_HOSTED_DOMAIN is set', async () => {
    const outsider = await google(
      hd,
      idToken({ sub: 'g-400', email: 'taro.yamada@example.co.jp', email_verified: true }),
    );
    expect(outsider.status).toBe(403);
    const member = await google(
      hd,
      idToken({ sub: 'g-400', email: 'taro.yamada@example.co.jp', email_verified: true, hd: 'example.co.jp' }),
    );
    expect(member.status).toBe(200);
    expect(member.body.user.login_id).toBe('admin');
  });

  it('a retired employee cannot sign in with Google either', async () => {
    const conn = p.db.orm.em.fork().getConnection();
    const [r] = await conn.execute(`select email from employee where status = 'RETIRED' limit 1`);
    const res = await google(p, idToken({ sub: 'g-500', email: r.email, email_verified: true }));
    expect(res.status).toBe(403);
  });
});

describe('Google sign-in switched off', () => {
  it('says so clearly when GOOGLE_CLIENT_ID is not set', async () => {
    const off = await startTestPlatform();
    try {
      const r = await google(off, idToken({ sub: 'g-1', email: 'x@example.co.jp', email_verified: true }));
      expect(r.status).toBe(400);
      expect(r.body.error).toContain('設定されていません');
    } finally {
      await off.close();
    }
  });
});
