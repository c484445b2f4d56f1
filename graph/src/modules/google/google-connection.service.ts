import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config/config.js';
import type { AppContext } from '../../platform/context.js';
import { requireUser } from '../../platform/authz.js';
import { AppError, badInput, notFound } from '../../platform/errors.js';
import {
  CALENDAR_SCOPES,
  GoogleApiError,
  classify,
  type GoogleCalendarGateway,
  type UserCalendar,
} from './google-calendar.client.js';
import { TokenCipher } from './google-token-crypto.js';
import { INTRANET_ID, IS_PUSH_EVENT_ID_SQL, toApiGoogleItem } from './google-mapping.js';
import type { GoogleCalendarStatus } from './google.types.js';
import { ScheduleService } from '../schedules/schedule.service.js';
import { record } from '../../platform/events/outbox.js';

export interface ConnectionRow {
  employee_id: number;
  google_email: string;
  refresh_token_enc: string;
  scope: string;
  sync_token: string | null;
  connected_at: Date;
  last_pull_started_at: Date | null;
  last_pull_at: Date | null;
  last_success_at: Date | null;
  last_error: string | null;
  last_error_at: Date | null;
  sync_requested_at: Date | null;
  requested_month: string | null;
}

const STATE_TTL_MS = 10 * 60_000;
/** Years 1900–2999, as every date the platform takes (PostgreSQL has no year 0). */
const MONTH_RE = /^(19|2\d)\d{2}-(0[1-9]|1[0-2])$/;
const ISO_RE = /^(19|2\d)\d{2}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** A user-facing message for a failed sync (Japanese; details stay in the logs and metrics). */
export function syncErrorMessage(err: unknown): string {
  const e = err instanceof GoogleApiError ? err : classify(err);
  if (e.needsReconnect) return 'Googleカレンダーへの接続が無効になりました。もう一度接続してください。';
  if (e.status === 403 && !e.retryable)
    return 'Googleカレンダーへのアクセスが許可されていません。もう一度接続してください。';
  if (e.retryable)
    return `Googleカレンダーが混み合っているため同期が遅れています（自動で再試行します: ${e.status || 'network'} ${e.reason}）。`;
  return `Googleカレンダーとの同期に失敗しました（${e.status} ${e.reason}）。`;
}

/**
 * The per-employee Google Calendar connection: the consent URL with a signed state bound to the
 * session, the OAuth callback (refresh token stored encrypted), disconnect (revoked at Google),
 * the status shown on the schedule screen, sync requests, and the spec's live views of external
 * events. The workers read the same rows (calendarFor) to push and pull.
 */
export class GoogleConnectionService {
  readonly cipher: TokenCipher;

  constructor(
    readonly gateway: GoogleCalendarGateway,
    private readonly secret: Buffer,
  ) {
    this.cipher = new TokenCipher(gateway.config, secret);
  }

  private get config(): Config {
    return this.gateway.config;
  }

  get enabled(): boolean {
    return this.gateway.enabled;
  }

  redirectUrl(): string {
    const c = this.config;
    if (c.GOOGLE_OAUTH_REDIRECT_URL) return c.GOOGLE_OAUTH_REDIRECT_URL;
    const origin = c.PUBLIC_ORIGIN ? new URL(c.PUBLIC_ORIGIN).origin : `http://localhost:${c.PORT}`;
    return `${origin}/api/google/oauth/callback`;
  }

  async find(em: EntityManager, employeeId: number): Promise<ConnectionRow | null> {
    const rows: ConnectionRow[] = await em.execute(`select * from google_connection where employee_id = ?`, [
      employeeId,
    ]);
    return rows[0] ?? null;
  }

  /** The user's calendar client, or null when not connected (or sync is not configured). */
  async calendarFor(em: EntityManager, employeeId: number): Promise<{ row: ConnectionRow; cal: UserCalendar } | null> {
    if (!this.enabled) return null;
    const row = await this.find(em, employeeId);
    if (!row) return null;
    const refresh = this.cipher.decrypt(row.refresh_token_enc, employeeId);
    return { row, cal: this.gateway.forUser(employeeId, refresh) };
  }

  async recordSuccess(em: EntityManager, employeeId: number): Promise<void> {
    await em.execute(
      `update google_connection set last_success_at = clock_timestamp(), last_error = null, last_error_at = null where employee_id = ?`,
      [employeeId],
    );
  }

  async recordError(em: EntityManager, employeeId: number, err: unknown): Promise<void> {
    await em.execute(
      `update google_connection set last_error = ?, last_error_at = clock_timestamp() where employee_id = ?`,
      [syncErrorMessage(err), employeeId],
    );
  }

  // ---- status -------------------------------------------------------------------------------

  async status(ctx: AppContext): Promise<GoogleCalendarStatus> {
    const user = requireUser(ctx);
    return this.statusOf(ctx.em, user.id);
  }

  async statusOf(em: EntityManager, employeeId: number): Promise<GoogleCalendarStatus> {
    const row = await this.find(em, employeeId);
    const [p]: { n: number }[] = await em.execute(
      `select count(*)::int as n from schedule
        where owner_id = ? and ((sync_google and (google_synced_at is null or google_synced_at < updated_at))
              or (not sync_google and ${IS_PUSH_EVENT_ID_SQL}))`,
      [employeeId],
    );
    const pendingChanges = row ? p!.n : 0;
    const requested = Boolean(
      row?.sync_requested_at && (!row.last_pull_started_at || row.sync_requested_at > row.last_pull_started_at),
    );
    return {
      enabled: this.enabled,
      connected: Boolean(row),
      email: row?.google_email ?? null,
      connectedAt: row?.connected_at ? new Date(row.connected_at) : null,
      lastSuccessAt: row?.last_success_at ? new Date(row.last_success_at) : null,
      lastError: row?.last_error ?? null,
      lastErrorAt: row?.last_error_at ? new Date(row.last_error_at) : null,
      pending: requested || pendingChanges > 0,
      pendingChanges,
    };
  }

  // ---- connect ------------------------------------------------------------------------------

  private sign(payload: string): string {
    return createHmac('sha256', this.secret).update(`google-connect:${payload}`).digest('base64url');
  }

  /** The consent URL (offline access, consent prompt) with a state signed for this user and session. */
  connectUrl(ctx: AppContext): string {
    const user = requireUser(ctx);
    if (!this.enabled)
      throw new AppError(
        'BAD_USER_INPUT',
        'Googleカレンダー連携は設定されていません（GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET）。',
      );
    const payload = Buffer.from(
      JSON.stringify({
        u: user.id,
        s: user.sessionId,
        n: randomBytes(8).toString('hex'),
        e: Date.now() + STATE_TTL_MS,
      }),
    ).toString('base64url');
    const state = `${payload}.${this.sign(payload)}`;
    return this.gateway.oauth(this.redirectUrl()).generateAuthUrl({
      access_type: 'offline',
      prompt: 'consent',
      scope: CALENDAR_SCOPES,
      include_granted_scopes: false,
      state,
    });
  }

  private verifyState(ctx: AppContext, state: string): void {
    const user = requireUser(ctx);
    const [payload, sig] = state.split('.');
    if (!payload || !sig)
      throw new AppError('BAD_USER_INPUT', '連携の確認情報（state）が正しくありません。', { reason: 'state' });
    const want = Buffer.from(this.sign(payload));
    const got = Buffer.from(sig);
    if (want.length !== got.length || !timingSafeEqual(want, got))
      throw new AppError('BAD_USER_INPUT', '連携の確認情報（state）が正しくありません。', { reason: 'state' });
    const p = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { u: number; s: string; e: number };
    if (p.e < Date.now())
      throw new AppError('BAD_USER_INPUT', '連携の手続きの有効期限が切れました。もう一度お試しください。', {
        reason: 'expired',
      });
    if (p.u !== user.id || p.s !== user.sessionId)
      throw new AppError('FORBIDDEN', '連携を始めたユーザーと現在のログインユーザーが一致しません。', {
        reason: 'user',
      });
  }

  /** The OAuth callback: checks the state, exchanges the code, stores the refresh token, asks for a full sync. */
  async callback(ctx: AppContext, code: string, state: string): Promise<void> {
    const user = requireUser(ctx);
    if (!this.enabled)
      throw new AppError('BAD_USER_INPUT', 'Googleカレンダー連携は設定されていません。', { reason: 'disabled' });
    this.verifyState(ctx, state);
    let tokens;
    try {
      tokens = (await this.gateway.oauth(this.redirectUrl()).getToken(code)).tokens;
    } catch (err) {
      throw new AppError(
        'BAD_USER_INPUT',
        `Googleから認可を受け取れませんでした（${classify(err).reason}）。もう一度お試しください。`,
        { reason: 'exchange' },
      );
    }
    if (!tokens.refresh_token)
      throw new AppError(
        'BAD_USER_INPUT',
        'Googleからオフラインアクセスの許可を受け取れませんでした。もう一度接続してください。',
        { reason: 'offline' },
      );
    const scope = tokens.scope ?? '';
    if (scope && !scope.includes('calendar'))
      throw new AppError('BAD_USER_INPUT', 'カレンダーへのアクセスが許可されませんでした。', { reason: 'scope' });
    const email = emailFromIdToken(tokens.id_token) ?? '';
    const enc = this.cipher.encrypt(tokens.refresh_token, user.id);
    const old = await this.find(ctx.em, user.id);
    await ctx.em.execute(
      `insert into google_connection (employee_id, google_email, refresh_token_enc, scope, sync_token, connected_at, sync_requested_at)
       values (?, ?, ?, ?, null, now(), now())
       on conflict (employee_id) do update set google_email = excluded.google_email, refresh_token_enc = excluded.refresh_token_enc,
         scope = excluded.scope, sync_token = null, connected_at = now(), sync_requested_at = now(), last_error = null, last_error_at = null`,
      [user.id, email, enc, scope],
    );
    this.gateway.forget(user.id);
    // A replaced token is revoked so only one grant stays alive.
    if (old) await this.gateway.revoke(this.cipher.decrypt(old.refresh_token_enc, user.id)).catch(() => undefined);
  }

  /** Revokes the grant at Google, forgets the token, drops imported entries, unlinks pushed ones. */
  async disconnect(ctx: AppContext): Promise<GoogleCalendarStatus> {
    const user = requireUser(ctx);
    const row = await this.find(ctx.em, user.id);
    if (row) {
      try {
        await this.gateway.revoke(this.cipher.decrypt(row.refresh_token_enc, user.id));
      } catch {
        /* Google unreachable: the token is forgotten here anyway; the user can also revoke in their Google account. */
      }
      await ctx.em.transactional(async (tx) => {
        await tx.execute(`delete from google_connection where employee_id = ?`, [user.id]);
        await tx.execute(
          `update schedule set google_event_id = null, google_etag = null, google_synced_at = null where owner_id = ? and sync_google`,
          [user.id],
        );
      });
      await this.dropImported(ctx.em, user.id);
      this.gateway.forget(user.id);
    }
    return this.statusOf(ctx.em, user.id);
  }

  /** Imported (Google-only) entries of a disconnected user are removed, with schedule.deleted events for live views. */
  private async dropImported(em: EntityManager, employeeId: number): Promise<void> {
    const schedules = new ScheduleService();
    await em.transactional(async (tx) => {
      const gone = await schedules.snapshots(
        tx,
        `s.owner_id = ? and not s.sync_google and s.google_event_id is not null`,
        [employeeId],
        'for update of s',
      );
      if (!gone.length) return;
      await tx.execute(`delete from schedule where id = any(?::int[])`, [`{${gone.map((s) => s.id).join(',')}}`]);
      for (const s of gone)
        record(tx, {
          type: 'schedule.deleted',
          aggregateId: s.id,
          actorId: employeeId,
          payload: { schedule: s, origin: 'google' },
        });
      await tx.flush();
    });
  }

  /** "Sync the month shown": the worker pulls this user's calendar (incremental, then that month). */
  async requestSync(ctx: AppContext, month: string): Promise<GoogleCalendarStatus> {
    const user = requireUser(ctx);
    if (!MONTH_RE.test(month))
      throw badInput('月は YYYY-MM の形式で指定してください。', [{ field: 'month', message: 'YYYY-MM' }]);
    await ctx.em.execute(
      `update google_connection set sync_requested_at = clock_timestamp(), requested_month = ? where employee_id = ?`,
      [month, user.id],
    );
    return this.statusOf(ctx.em, user.id);
  }

  // ---- the spec's external-event calls -------------------------------------------------------

  private async requireCalendar(ctx: AppContext): Promise<UserCalendar> {
    const user = requireUser(ctx);
    const c = await this.calendarFor(ctx.em, user.id);
    if (!c)
      throw new AppError(
        'GOOGLE_NOT_CONNECTED',
        'Googleカレンダーが接続されていません。予定画面から接続してください。',
      );
    return c.cal;
  }

  /** GET /schedules/google: the user's Google events (not written by the intranet) in [timeMin, timeMax). */
  async externalEvents(ctx: AppContext, timeMin: unknown, timeMax: unknown) {
    const errors = [];
    if (typeof timeMin !== 'string' || !ISO_RE.test(timeMin))
      errors.push({ field: 'timeMin', message: 'ISO 8601 の日時' });
    if (typeof timeMax !== 'string' || !ISO_RE.test(timeMax))
      errors.push({ field: 'timeMax', message: 'ISO 8601 の日時' });
    if (errors.length) throw badInput('timeMin と timeMax を ISO 8601 で指定してください。', errors);
    const min = normalizeInstant(timeMin as string);
    const max = normalizeInstant(timeMax as string);
    if (Date.parse(max) <= Date.parse(min))
      throw badInput('timeMax は timeMin より後にしてください。', [{ field: 'timeMax', message: 'timeMin より後' }]);
    if (Date.parse(max) - Date.parse(min) > 92 * 86_400_000)
      throw badInput('期間は92日以内にしてください。', [{ field: 'timeMax', message: '92日以内' }]);
    const cal = await this.requireCalendar(ctx);
    try {
      const { items } = await cal.listAll({
        timeMin: min,
        timeMax: max,
        singleEvents: true,
        showDeleted: false,
        orderBy: 'startTime',
      });
      return items
        .filter((e) => e.status !== 'cancelled' && !e.extendedProperties?.private?.[INTRANET_ID])
        .map(toApiGoogleItem);
    } catch (err) {
      throw googleFailure(err);
    }
  }

  /** PUT /schedules/google/{id}: the user's answer to an external event (is_joined 1/0) → their attendee responseStatus. */
  async respondExternal(ctx: AppContext, googleEventId: string, body: Record<string, unknown>) {
    const j = body.is_joined;
    if (![0, 1, '0', '1', true, false].includes(j as never)) {
      throw badInput('is_joined は 1（参加）か 0（不参加）で指定してください。', [
        { field: 'is_joined', message: '1 または 0' },
      ]);
    }
    const accept = j === 1 || j === '1' || j === true;
    if (!googleEventId || googleEventId.length > 1024) throw notFound('Googleの予定');
    const cal = await this.requireCalendar(ctx);
    try {
      const ev = await cal.get(googleEventId);
      if (ev.status === 'cancelled') throw notFound('Googleの予定');
      const attendees = ev.attendees ?? [];
      const me = attendees.findIndex((a) => a.self);
      if (me < 0) throw new AppError('FORBIDDEN', 'この予定のゲストではないため、参加・不参加を回答できません。');
      const next = attendees.map((a, i) => (i === me ? { ...a, responseStatus: accept ? 'accepted' : 'declined' } : a));
      const saved = await cal.patch(googleEventId, { attendees: next }, ev.etag);
      return toApiGoogleItem(saved);
    } catch (err) {
      throw googleFailure(err);
    }
  }
}

function normalizeInstant(v: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) return `${v}T00:00:00+09:00`;
  if (!/(Z|[+-]\d{2}:\d{2})$/.test(v)) return `${v}+09:00`;
  return v;
}

/** Google's failure as our typed error (404 → NOT_FOUND, 412 → CONFLICT, quota → TOO_MANY_REQUESTS). */
function googleFailure(err: unknown): Error {
  if (err instanceof AppError) return err;
  const e = classify(err);
  if (e.status === 404 || e.status === 410) return notFound('Googleの予定');
  if (e.status === 412) return new AppError('CONFLICT', 'Google側で予定が変更されました。もう一度お試しください。');
  if (e.status === 429 || (e.status === 403 && e.retryable))
    return new AppError('TOO_MANY_REQUESTS', syncErrorMessage(e), { retryAfterSeconds: 30 });
  return new AppError('BAD_USER_INPUT', syncErrorMessage(e));
}

/** The e-mail claim of the ID token that came straight from Google's token endpoint (TLS, our client secret). */
function emailFromIdToken(idToken: string | null | undefined): string | null {
  if (!idToken) return null;
  try {
    const p = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as { email?: string };
    return typeof p.email === 'string' ? p.email.toLowerCase() : null;
  } catch {
    return null;
  }
}
