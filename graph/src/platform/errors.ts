import { GraphQLError } from 'graphql';

export type ErrorCode =
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'BAD_USER_INPUT'
  | 'CONFLICT'
  | 'TOO_MANY_REQUESTS'
  | 'INTERNAL_SERVER_ERROR';

export const HTTP_STATUS: Record<ErrorCode, number> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  BAD_USER_INPUT: 400,
  CONFLICT: 409,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_SERVER_ERROR: 500,
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
    extra: Record<string, unknown> = {},
  ) {
    super(message, { extensions: { code, ...extra } });
  }
}

export const unauthenticated = (message = 'ログインが必要です。') => new AppError('UNAUTHENTICATED', message);
export const forbidden = (message = 'この操作を行う権限がありません。') => new AppError('FORBIDDEN', message);
export const notFound = (what: string) => new AppError('NOT_FOUND', `${what}が見つかりません。`);
export const badInput = (message: string, fieldErrors: FieldError[] = []) =>
  new AppError('BAD_USER_INPUT', message, { fieldErrors });
export const conflict = (message: string, extra: Record<string, unknown> = {}) =>
  new AppError('CONFLICT', message, extra);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError('TOO_MANY_REQUESTS', message, { retryAfterSeconds });

/** Reads the typed code off anything thrown; unknown errors are internal and never leak details. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof GraphQLError) {
    const code = err.extensions?.code as ErrorCode | undefined;
    if (code && code in HTTP_STATUS) return new AppError(code, err.message, err.extensions);
    if (err.originalError) return toAppError(err.originalError);
  }
  return new AppError('INTERNAL_SERVER_ERROR', 'サーバーでエラーが発生しました。');
}
