import { GraphQLError } from 'graphql';
import type { ErrorReason } from './error-reasons.js';
import { FileStoreUnavailableError } from '../lib/files/errors.js';

export type ErrorCode =
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'BAD_USER_INPUT'
  | 'METHOD_NOT_ALLOWED'
  | 'CONFLICT'
  | 'GOOGLE_NOT_CONNECTED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'TOO_MANY_REQUESTS'
  | 'INTERNAL_SERVER_ERROR'
  | 'SERVICE_UNAVAILABLE';

export const HTTP_STATUS: Record<ErrorCode, number> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  BAD_USER_INPUT: 400,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  GOOGLE_NOT_CONNECTED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_SERVER_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

export interface FieldError {
  field: string;
  message: string;
}

/**
 * A domain error with a typed code. It is a GraphQLError so resolvers can throw it as is;
 * the REST facade maps `code` to an HTTP status. Messages are safe to show to users.
 */
export class AppError extends GraphQLError {
  constructor(
    readonly code: ErrorCode,
    message: string,
    extra: { reason?: ErrorReason; [extension: string]: unknown } = {},
  ) {
    super(message, { extensions: { code, ...extra } });
  }
}

export const unauthenticated = (message = 'ログインが必要です。') => new AppError('UNAUTHENTICATED', message);
export const forbidden = (message = 'この操作を行う権限がありません。') => new AppError('FORBIDDEN', message);
export const notFound = (what: string) => new AppError('NOT_FOUND', `${what}が見つかりません。`);
export const badInput = (message: string, fieldErrors: FieldError[] = []) =>
  new AppError('BAD_USER_INPUT', message, { fieldErrors });
export const conflict = (message: string, extra: ConstructorParameters<typeof AppError>[2] = {}) =>
  new AppError('CONFLICT', message, extra);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError('TOO_MANY_REQUESTS', message, { retryAfterSeconds });

export const NUL_MESSAGE = '入力に使えない文字（NUL文字）が含まれています。';
export const CONTROL_MESSAGE = '入力に使えない制御文字が含まれています（文字列に使える制御文字はタブと改行だけです）。';
export const DEPTH_MESSAGE = '入力の入れ子が深すぎます。';

/**
 * PostgreSQL refusing a value a caller sent, whatever path it came by: a NUL character in text
 * (22021; PostgreSQL text cannot hold one), a number beyond its column (22003), text longer than
 * its column (22001) or a date it cannot hold (22007, 22008: year 0); the services' own rules come
 * first, this is the net under them. The
 * statement failed, so nothing was written; the caller gets a 400, not a 500.
 */
const INPUT_SQLSTATES: Record<string, string> = {
  '22021': NUL_MESSAGE,
  '22003': '入力された数値が大きすぎます。',
  '22001': '入力が長すぎます。',
  '22007': '日付または時刻の形式が正しくありません。',
  '22008': '日付または時刻が扱える範囲を超えています。',
};

/** The SQLSTATE of a database error (pg's DatabaseError, or MikroORM's wrapper of one). */
function sqlStateOf(err: unknown): string | undefined {
  const e = err as { code?: unknown; sqlState?: unknown } | null;
  const state = typeof e?.sqlState === 'string' ? e.sqlState : e?.code;
  return typeof state === 'string' && /^[0-9A-Z]{5}$/.test(state) ? state : undefined;
}

export const DATABASE_UNAVAILABLE_MESSAGE =
  'データベースとの接続が切れたため処理できませんでした。しばらくしてから再度お試しください。';
export const FILE_STORE_UNAVAILABLE_MESSAGE =
  'ファイルの保存先に接続できないため処理できませんでした。しばらくしてから再度お試しください。';
/** Seconds a client should wait before retrying after a 503 (the pool reconnects on its next use). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

/** SQLSTATEs of a connection PostgreSQL ended or would not accept (class 08, shutdown, too many). */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;
/** What pg, knex and MikroORM say when the connection is gone or none can be had. */
const UNAVAILABLE_TEXT =
  /Connection terminated|not queryable|Connection ended unexpectedly|terminating connection|ECONNREFUSED|ECONNRESET|Timeout acquiring a connection/;

/**
 * The database dropped or refused the connection (a restart, a failover, an operator's
 * pg_terminate_backend): not the caller's fault nor a bug; the request can be retried.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; message?: unknown; cause?: unknown; originalError?: unknown } | null, depth = 0;
    e && depth < 5;
    depth++
  ) {
    if (UNAVAILABLE_SQLSTATE.test(sqlStateOf(e) ?? '')) return true;
    if (typeof e.message === 'string' && UNAVAILABLE_TEXT.test(e.message)) return true;
    e = (e.originalError ?? e.cause) as typeof e;
  }
  return false;
}

/**
 * A row a write refers to was deleted by another request between the write's checks and its insert
 * (23503): what it referred to is gone. Services lock what they check where a race is likely (a
 * post under a comment: BlogPostReads.readableRow); this is the net under every other write.
 */
const GONE_MESSAGE =
  '関連するデータが見つかりません。ほかの操作で削除された可能性があります。画面を読み込み直してください。';

/** Reads the typed code off anything thrown; unknown errors are internal and never leak details. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const state = sqlStateOf(err);
  const refused = INPUT_SQLSTATES[state ?? ''];
  if (refused) return badInput(refused);
  if (state === '23503') return new AppError('NOT_FOUND', GONE_MESSAGE);
  if (err instanceof GraphQLError) {
    const code = err.extensions?.code as ErrorCode | undefined;
    if (code && code in HTTP_STATUS) return new AppError(code, err.message, err.extensions);
    if (err.originalError) return toAppError(err.originalError);
  }
  // Before the database test: an object store's connection error reads like a database's.
  if (err instanceof FileStoreUnavailableError)
    return new AppError('SERVICE_UNAVAILABLE', FILE_STORE_UNAVAILABLE_MESSAGE, {
      retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS,
    });
  if (isDatabaseUnavailable(err))
    return new AppError('SERVICE_UNAVAILABLE', DATABASE_UNAVAILABLE_MESSAGE, {
      retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS,
    });
  return new AppError('INTERNAL_SERVER_ERROR', 'サーバーでエラーが発生しました。');
}
