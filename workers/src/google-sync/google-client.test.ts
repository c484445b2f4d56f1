import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { startFakeGoogle, type FakeGoogle, testConfig } from '@intranet/graph/testing';
import { GoogleApiError, GoogleCalendarGateway, TokenBucket, GoogleMetrics, TokenCipher } from '@intranet/graph/areas';
import { googleEnv } from './google-sync.test-support.js';

let fake: FakeGoogle;
let gw: GoogleCalendarGateway;
let registry: Registry;
const sleeps: number[] = [];
const ME = 'alice@example.co.jp';
let refresh: string;

beforeAll(async () => {
  fake = await startFakeGoogle();
  registry = new Registry();
  gw = new GoogleCalendarGateway({
    config: testConfig(
      googleEnv(fake, { GOOGLE_MAX_RETRIES: '4', GOOGLE_RETRY_BASE_MS: '100', GOOGLE_RETRY_MAX_MS: '10000' }),
    ),
    metrics: new GoogleMetrics(registry),
    sleep: async (ms) => void sleeps.push(ms),
  });
  refresh = (await gw.oauth('http://localhost/cb').getToken(fake.issueCode(ME))).tokens.refresh_token!;
});
afterAll(async () => fake?.close());

describe('Google client wrapper against the fake Calendar v3 (real @googleapis/calendar)', () => {
  it('refreshes the access token with the stored refresh token and lists with paging', async () => {
    const cal = gw.forUser(1, refresh);
    for (let i = 0; i < 7; i++)
      fake.insert(ME, {
        summary: `e${i}`,
        start: { dateTime: `2026-11-0${i + 1}T10:00:00+09:00` },
        end: { dateTime: `2026-11-0${i + 1}T11:00:00+09:00` },
      });
    const { items, nextSyncToken } = await cal.listAll({ maxResults: 3, singleEvents: true });
    expect(items.map((e) => e.summary)).toEqual(['e0', 'e1', 'e2', 'e3', 'e4', 'e5', 'e6']);
    expect(nextSyncToken).toBeTruthy();
    const lists = fake.log.filter((l) => l.path.startsWith('/calendar/v3/calendars/primary/events?'));
    expect(lists.length).toBe(3);
    expect(fake.log.some((l) => l.path === '/token')).toBe(true);
  });

  it('retries 429, 5xx and 403 rate limits with exponential backoff; 400 and 403 forbidden never', async () => {
    const cal = gw.forUser(1, refresh);
    sleeps.length = 0;
    fake.fail({ status: 429 }, { status: 503 }, { status: 403, reason: 'userRateLimitExceeded' }, { status: 500 });
    const ev = await cal.insert({
      summary: 'after faults',
      start: { date: '2026-11-10' },
      end: { date: '2026-11-11' },
    });
    expect(ev.id).toBeTruthy();
    expect(sleeps.length).toBe(4);
    // base 100 ms doubling, jitter 50–100 %.
    sleeps.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual(50 * 2 ** i);
      expect(ms).toBeLessThanOrEqual(100 * 2 ** i);
    });
    sleeps.length = 0;
    fake.fail({ status: 400, reason: 'invalid' });
    await expect(cal.get(ev.id!)).rejects.toMatchObject({ status: 400, retryable: false });
    fake.fail({ status: 403, reason: 'forbidden' });
    await expect(cal.get(ev.id!)).rejects.toMatchObject({ status: 403, retryable: false });
    expect(sleeps).toEqual([]);
    fake.fail(...Array.from({ length: 6 }, () => ({ status: 503 })));
    const err = await cal.get(ev.id!).catch((e) => e);
    expect(err).toBeInstanceOf(GoogleApiError);
    expect(err.retryable).toBe(true);
    expect(sleeps.length).toBe(4);
    const text = await registry.metrics();
    expect(text).toMatch(/google_api_retries_total\{op="events.insert",reason="rateLimitExceeded"\} 1/);
    expect(text).toMatch(/google_api_requests_total\{op="events.get",outcome="503"\} 5/);
  });

  it('If-Match: a stale etag is 412; 410 on an expired sync token', async () => {
    const cal = gw.forUser(1, refresh);
    const ev = await cal.insert({ summary: 'v1', start: { date: '2026-11-12' }, end: { date: '2026-11-13' } });
    const v2 = await cal.patch(ev.id!, { summary: 'v2' }, ev.etag);
    expect(v2.etag).not.toBe(ev.etag);
    await expect(cal.patch(ev.id!, { summary: 'v3' }, ev.etag)).rejects.toMatchObject({ status: 412 });
    const { nextSyncToken } = await cal.listAll({ singleEvents: true });
    fake.expireSyncTokens(ME);
    await expect(cal.listAll({ syncToken: nextSyncToken!, singleEvents: true })).rejects.toMatchObject({ status: 410 });
  });

  it('a revoked grant fails without retry and asks for a reconnect', async () => {
    const r2 = (await gw.oauth('http://localhost/cb').getToken(fake.issueCode('bob@example.co.jp'))).tokens
      .refresh_token!;
    await gw.revoke(r2);
    expect(fake.revoked.has(r2)).toBe(true);
    const err = await gw
      .forUser(2, r2)
      .get('whatever')
      .catch((e) => e);
    expect(err).toMatchObject({ needsReconnect: true, retryable: false });
  });

  it('token bucket paces one user to the configured rate', async () => {
    const b = new TokenBucket(50, 2);
    const t0 = Date.now();
    for (let i = 0; i < 7; i++) await b.take();
    // 2 from the burst, 5 more at 50/s ≈ 100 ms.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(80);
  });

  it('refresh tokens are encrypted with AES-256-GCM bound to the employee', () => {
    const c = new TokenCipher({ GOOGLE_TOKEN_KEY: undefined }, Buffer.from('x'.repeat(32)));
    const enc = c.encrypt('1//secret-refresh', 7);
    expect(enc).not.toContain('secret');
    expect(c.decrypt(enc, 7)).toBe('1//secret-refresh');
    expect(() => c.decrypt(enc, 8)).toThrow();
    const keyed = new TokenCipher({ GOOGLE_TOKEN_KEY: 'ab'.repeat(32) }, Buffer.from('x'));
    expect(() => keyed.decrypt(enc, 7)).toThrow();
  });
});
