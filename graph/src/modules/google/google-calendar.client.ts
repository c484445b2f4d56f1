import { calendar, type calendar_v3 } from '@googleapis/calendar';
import { OAuth2Client } from 'google-auth-library';
import type { Registry } from 'prom-client';
import type { Config } from '../../config/config.js';
import { GoogleMetrics } from './google.metrics.js';
import type { GoogleQuota } from './google-quota.js';

export type GEvent = calendar_v3.Schema$Event;

/** The scopes of the calendar consent (separate from sign-in): events read/write, and the e-mail. */
export const CALENDAR_SCOPES = ['openid', 'email', 'https://www.googleapis.com/auth/calendar.events'];

/** A failed Google call, classified. `retryable`: rate limits (403 rate reasons, 429) and 5xx. */
export class GoogleApiError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'GoogleApiError';
  }

  /** The refresh token no longer works (revoked, expired): the user must connect again. */
  get needsReconnect(): boolean {
    return this.reason === 'invalid_grant' || this.status === 401;
  }
}

const RATE_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded', 'quotaExceeded']);

export function classify(err: unknown): GoogleApiError {
  if (err instanceof GoogleApiError) return err;
  const e = err as {
    status?: number;
    code?: number | string;
    response?: { status?: number; data?: unknown; headers?: unknown };
    message?: string;
  };
  const status = Number(e.response?.status ?? e.status ?? (typeof e.code === 'number' ? e.code : 0)) || 0;
  const data = e.response?.data as
    { error?: { errors?: { reason?: string }[]; message?: string } | string; error_description?: string } | undefined;
  let reason = '';
  let message = e.message ?? String(err);
  if (data && typeof data.error === 'object') {
    reason = data.error.errors?.[0]?.reason ?? '';
    message = data.error.message ?? message;
  } else if (data && typeof data.error === 'string') {
    reason = data.error; // OAuth errors: invalid_grant, invalid_client, …
    message = data.error_description ?? data.error;
  }
  if (!status) {
    // No HTTP answer (connection refused, reset, timeout): worth retrying.
    return new GoogleApiError(0, 'network', message, true);
  }
  const headers = e.response?.headers as { get?: (k: string) => string | null; [k: string]: unknown } | undefined;
  const ra =
    typeof headers?.get === 'function' ? headers.get('retry-after') : (headers?.['retry-after'] as string | undefined);
  const retryAfterMs = ra && /^\d+$/.test(ra) ? Number(ra) * 1000 : undefined;
  const retryable = status === 429 || status >= 500 || (status === 403 && RATE_REASONS.has(reason));
  return new GoogleApiError(status, reason || String(status), message, retryable, retryAfterMs);
}

/** A token bucket: `rate` tokens per second, at most `burst` saved up. take() waits for a token. */
export class TokenBucket {
  private tokens: number;
  private last = Date.now();
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly rate: number,
    private readonly burst: number,
  ) {
    this.tokens = burst;
  }

  take(): Promise<void> {
    const next = this.chain.then(async () => {
      for (;;) {
        const now = Date.now();
        this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.rate);
        this.last = now;
        if (this.tokens >= 1) {
          this.tokens -= 1;
          return;
        }
        await new Promise((r) => setTimeout(r, Math.ceil(((1 - this.tokens) / this.rate) * 1000)));
      }
    });
    this.chain = next.catch(() => undefined);
    return next;
  }
}

export interface ClientOptions {
  config: Config;
  metrics?: GoogleMetrics;
  registry?: Registry;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * The one wrapper around Google: the OAuth client (consent URL, code exchange, revoke) and a
 * per-user Calendar v3 client (@googleapis/calendar) with our own retries (exponential backoff with
 * jitter on rate limits, 429 and 5xx; 4xx never retried) under a per-user token bucket (the
 * workers share it through PostgreSQL: google-quota.ts). The library's own retry is off so every
 * attempt is counted and paced here.
 */
export class GoogleCalendarGateway {
  readonly metrics: GoogleMetrics;
  private readonly buckets = new Map<number, TokenBucket>();
  /** Until useQuota: a bucket per user in this process. */
  private quota: GoogleQuota = { take: (employeeId) => this.bucket(employeeId).take() };
  private readonly users = new Map<number, { refreshToken: string; client: OAuth2Client; api: calendar_v3.Calendar }>();
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly opts: ClientOptions) {
    this.metrics = opts.metrics ?? new GoogleMetrics(opts.registry);
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  get config(): Config {
    return this.opts.config;
  }

  get enabled(): boolean {
    return Boolean(this.config.GOOGLE_CLIENT_ID && this.config.GOOGLE_CLIENT_SECRET);
  }

  /** A fresh OAuth client (our endpoints, our redirect URL). */
  oauth(redirectUri?: string): OAuth2Client {
    const c = this.config;
    const endpoints: Record<string, string> = {};
    if (c.GOOGLE_OAUTH_AUTH_URL) endpoints.oauth2AuthBaseUrl = c.GOOGLE_OAUTH_AUTH_URL;
    if (c.GOOGLE_OAUTH_TOKEN_URL) endpoints.oauth2TokenUrl = c.GOOGLE_OAUTH_TOKEN_URL;
    if (c.GOOGLE_OAUTH_REVOKE_URL) endpoints.oauth2RevokeUrl = c.GOOGLE_OAUTH_REVOKE_URL;
    return new OAuth2Client({
      clientId: c.GOOGLE_CLIENT_ID,
      clientSecret: c.GOOGLE_CLIENT_SECRET,
      redirectUri,
      endpoints,
    });
  }

  /** Revokes a refresh token at Google (disconnect). */
  async revoke(refreshToken: string): Promise<void> {
    try {
      await this.oauth().revokeToken(refreshToken);
    } catch (err) {
      const e = classify(err);
      // Already revoked or unknown: the goal is reached.
      if (e.status === 400) return;
      throw e;
    }
  }

  forget(employeeId: number): void {
    this.users.delete(employeeId);
  }

  /** The Calendar API of one user, acting with their refresh token. */
  forUser(employeeId: number, refreshToken: string): UserCalendar {
    let u = this.users.get(employeeId);
    if (!u || u.refreshToken !== refreshToken) {
      const client = this.oauth();
      client.setCredentials({ refresh_token: refreshToken });
      const api = calendar({
        version: 'v3',
        auth: client as never,
        ...(this.config.GOOGLE_CALENDAR_API_URL
          ? { rootUrl: this.config.GOOGLE_CALENDAR_API_URL.replace(/\/?$/, '/') }
          : {}),
      });
      u = { refreshToken, client, api };
      this.users.set(employeeId, u);
    }
    return new UserCalendar(u.api, (op, fn) => this.call(employeeId, op, fn));
  }

  /** Paces every call from now on by `quota` (SharedGoogleQuota: one bucket per user for all processes). */
  useQuota(quota: GoogleQuota): void {
    this.quota = quota;
  }

  private bucket(employeeId: number): TokenBucket {
    let b = this.buckets.get(employeeId);
    if (!b)
      this.buckets.set(
        employeeId,
        (b = new TokenBucket(this.config.GOOGLE_QUOTA_PER_SECOND, this.config.GOOGLE_QUOTA_BURST)),
      );
    return b;
  }

  /** One logical call: quota, attempt, classify, retry retryable errors with backoff. */
  async call<T>(employeeId: number, op: string, fn: () => Promise<T>): Promise<T> {
    const max = this.config.GOOGLE_MAX_RETRIES;
    for (let attempt = 0; ; attempt++) {
      await this.quota.take(employeeId);
      const end = this.metrics.seconds.startTimer({ op });
      try {
        const r = await fn();
        end();
        this.metrics.requests.inc({ op, outcome: 'ok' });
        return r;
      } catch (err) {
        end();
        const e = classify(err);
        this.metrics.requests.inc({ op, outcome: String(e.status || 'network') });
        if (!e.retryable || attempt >= max) throw e;
        this.metrics.retries.inc({ op, reason: e.reason });
        const base = this.config.GOOGLE_RETRY_BASE_MS;
        const backoff = Math.min(this.config.GOOGLE_RETRY_MAX_MS, base * 2 ** attempt);
        const wait = Math.max(e.retryAfterMs ?? 0, Math.round(backoff * (0.5 + Math.random() * 0.5)));
        await this.sleep(wait);
      }
    }
  }
}

const NO_RETRY = { retry: false } as const;

/** Calendar v3 calls on the user's primary calendar. */
export class UserCalendar {
  constructor(
    private readonly api: calendar_v3.Calendar,
    private readonly call: <T>(op: string, fn: () => Promise<T>) => Promise<T>,
  ) {}

  async list(params: calendar_v3.Params$Resource$Events$List): Promise<calendar_v3.Schema$Events> {
    return this.call(
      'events.list',
      async () => (await this.api.events.list({ calendarId: 'primary', ...params }, NO_RETRY)).data,
    );
  }

  /** Every page of a list; returns the items and the nextSyncToken of the last page. */
  async listAll(
    params: calendar_v3.Params$Resource$Events$List,
  ): Promise<{ items: GEvent[]; nextSyncToken: string | null }> {
    const items: GEvent[] = [];
    let pageToken: string | undefined;
    for (;;) {
      const page = await this.list({ maxResults: 250, ...params, ...(pageToken ? { pageToken } : {}) });
      items.push(...(page.items ?? []));
      if (page.nextPageToken) pageToken = page.nextPageToken;
      else return { items, nextSyncToken: page.nextSyncToken ?? null };
    }
  }

  async get(eventId: string): Promise<GEvent> {
    return this.call(
      'events.get',
      async () => (await this.api.events.get({ calendarId: 'primary', eventId }, NO_RETRY)).data,
    );
  }

  async insert(body: GEvent): Promise<GEvent> {
    return this.call(
      'events.insert',
      async () =>
        (await this.api.events.insert({ calendarId: 'primary', requestBody: body, sendUpdates: 'none' }, NO_RETRY))
          .data,
    );
  }

  /** Patch with If-Match when an etag is given (412 when Google's copy changed since). */
  async patch(eventId: string, body: GEvent, etag?: string | null): Promise<GEvent> {
    return this.call(
      'events.patch',
      async () =>
        (
          await this.api.events.patch(
            { calendarId: 'primary', eventId, requestBody: body, sendUpdates: 'none' },
            { ...NO_RETRY, ...(etag ? { headers: { 'If-Match': etag } } : {}) },
          )
        ).data,
    );
  }

  async delete(eventId: string, etag?: string | null): Promise<void> {
    await this.call('events.delete', async () => {
      await this.api.events.delete(
        { calendarId: 'primary', eventId, sendUpdates: 'none' },
        { ...NO_RETRY, ...(etag ? { headers: { 'If-Match': etag } } : {}) },
      );
    });
  }
}
