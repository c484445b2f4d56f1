import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../../test/db.js';
import { api, gql } from '../../test/http.js';

let p: TestPlatform;
beforeAll(async () => {
  // Behind a trusted proxy the client address comes from X-Forwarded-For, so tests can play many IPs.
  p = await startTestPlatform({
    TRUST_PROXY: 'true',
    LOGIN_MAX_FAILURES_PER_ACCOUNT_IP: '3',
    LOGIN_MAX_FAILURES_PER_IP: '8',
    LOGIN_MAX_FAILURES_PER_ACCOUNT: '6',
  });
});
afterAll(async () => p?.close());

const login = (loginId: string, password: string, ip: string, cookie?: string) =>
  api(p.url, 'POST', '/auth/login', {
    body: { loginId, password },
    headers: { 'x-forwarded-for': ip, ...(cookie ? { cookie } : {}) },
  });

describe('failed-login throttling', () => {
  it('stops a guesser at one place after the per account+IP limit, even with the right password', async () => {
    for (let i = 0; i < 3; i++) expect((await login('sysadmin', 'guess', '10.0.0.1')).status).toBe(401);
    const blocked = await login('sysadmin', 'intranet-demo', '10.0.0.1');
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('TOO_MANY_REQUESTS');
    expect(blocked.body.error).toMatch(/分後にもう一度お試しください/);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // The owner elsewhere is not locked out.
    expect((await login('sysadmin', 'intranet-demo', '10.0.0.2')).status).toBe(200);
  });

  it('a success resets the account+IP counter', async () => {
    for (let i = 0; i < 2; i++) await login('devadmin', 'guess', '10.0.1.1');
    expect((await login('devadmin', 'intranet-demo', '10.0.1.1')).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await login('devadmin', 'guess', '10.0.1.1')).status).toBe(401);
    expect((await login('devadmin', 'intranet-demo', '10.0.1.1')).status).toBe(200);
  });

  it('stops one IP spraying many accounts', async () => {
    const [rows] = [
      await p.db.orm.em
        .fork()
        .getConnection()
        .execute(`select login_id from employee where status = 'ACTIVE' order by id offset 10 limit 9`),
    ];
    const statuses = [];
    for (const r of rows) statuses.push((await login(r.login_id, 'spray', '10.0.2.1')).status);
    expect(statuses.slice(0, 8).every((s) => s === 401)).toBe(true);
    expect(statuses[8]).toBe(429);
  });

  it('a distributed attack on one account cannot lock out its owner on a browser that signed in before', async () => {
    const ok = await login('staff', 'intranet-demo', '10.0.3.1');
    const device = ok.headers
      .getSetCookie()
      .find((c) => c.startsWith('intranet_device='))!
      .split(';')[0];
    // Six attackers, one guess each, exhaust the account-wide budget.
    for (let i = 0; i < 6; i++) await login('staff', 'guess', `10.0.4.${i}`);
    const fresh = await login('staff', 'intranet-demo', '10.0.5.1');
    expect(fresh.status).toBe(429);
    const owner = await login('staff', 'intranet-demo', '10.0.5.2', device);
    expect(owner.status).toBe(200);
    // A device cookie for another account does not help.
    const other = await login('staff', 'intranet-demo', '10.0.5.3', device.replace(/=.*\./, '=YWRtaW58MQ.'));
    expect(other.status).toBe(429);
  });

  it('GraphQL alias batching cannot bypass the limit: no more password checks than the limit allows', async () => {
    const aliases = Array.from(
      { length: 6 },
      (_, i) => `a${i}: login(input: { loginId: "admin", password: "guess${i}" }) { token }`,
    ).join('\n');
    const codes: string[] = [];
    for (let round = 0; round < 4; round++) {
      const r = await gql(p.url, `mutation { ${aliases} }`, {}, { headers: { 'x-forwarded-for': '10.0.6.1' } });
      codes.push(...r.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code));
    }
    expect(codes.filter((c) => c === 'UNAUTHENTICATED').length).toBeLessThanOrEqual(3);
    expect(codes).toContain('TOO_MANY_REQUESTS');
    expect((await login('admin', 'intranet-demo', '10.0.6.1')).status).toBe(429);
  });
});
