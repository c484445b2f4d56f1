import { CombinedGraphQLErrors } from '@apollo/client/errors';

export interface ReadError {
  code: string;
  message: string;
  fieldErrors: Record<string, string>;
  /** CONFLICT: the record as it is now, and who saved it. */
  current?: unknown;
  updatedBy?: string;
  /** CONFLICT: it was the same person, in another tab or on another device. */
  updatedBySelf?: boolean;
}

/** The first GraphQL error of a failed operation, with its code, field errors and conflict details. */
export function readError(err: unknown): ReadError {
  if (CombinedGraphQLErrors.is(err) && err.errors.length > 0) {
    const e = err.errors[0];
    const ext = (e.extensions ?? {}) as Record<string, unknown>;
    const fieldErrors: Record<string, string> = {};
    for (const fe of (ext.fieldErrors as { field: string; message: string }[] | undefined) ?? [])
      fieldErrors[fe.field] ??= fe.message;
    return {
      code: typeof ext.code === 'string' ? ext.code : 'INTERNAL_SERVER_ERROR',
      message: e.message,
      fieldErrors,
      current: ext.current,
      updatedBy: typeof ext.updatedBy === 'string' ? ext.updatedBy : undefined,
      updatedBySelf: ext.updatedBySelf === true,
    };
  }
  return { code: 'NETWORK', message: '', fieldErrors: {} };
}
