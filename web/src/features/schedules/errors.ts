import { CombinedGraphQLErrors, ServerError } from '@apollo/client/errors';
import type { Locale, MessageKey, Translate } from '../../app/i18n';
import type { ScheduleFieldsFragment } from '../../gql/graphql';

export interface ScheduleProblem {
  code: string;
  /** What to show: the server's Japanese message in Japanese, catalog text otherwise. */
  message: string;
  /** Form field → message (the server's field names: title, date, endDate, startTime, …). */
  fieldErrors: Record<string, string>;
  conflict?: {
    current: ScheduleFieldsFragment | null;
    updatedBy: string | null;
    updatedBySelf?: boolean;
    updatedAt: string | null;
  };
}

const CODE_TEXT: Record<string, MessageKey> = {
  BAD_USER_INPUT: 'schedules.error.badInput',
  FORBIDDEN: 'schedules.error.forbidden',
  NOT_FOUND: 'schedules.error.notFound',
  CONFLICT: 'schedules.error.conflict',
  UNAUTHENTICATED: 'schedules.error.unauthenticated',
};

/** Reads a failed call: code, message, field errors (extensions.fieldErrors) and CONFLICT details. */
export function describeError(err: unknown, locale: Locale, t: Translate): ScheduleProblem {
  if (CombinedGraphQLErrors.is(err) && err.errors.length > 0) {
    const e = err.errors[0];
    const code = String(e.extensions?.code ?? 'INTERNAL_SERVER_ERROR');
    const fieldErrors: Record<string, string> = {};
    const raw = e.extensions?.fieldErrors;
    if (Array.isArray(raw)) {
      for (const fe of raw as { field?: unknown; message?: unknown }[]) {
        if (typeof fe.field !== 'string') continue;
        // Nested paths (externalGuests.2) belong to their field.
        const field = fe.field.split('.')[0];
        if (fieldErrors[field]) continue;
        fieldErrors[field] =
          locale === 'ja' && typeof fe.message === 'string' ? fe.message : t('schedules.error.field');
      }
    }
    const message =
      locale === 'ja' && e.message && code !== 'INTERNAL_SERVER_ERROR'
        ? e.message
        : t(CODE_TEXT[code] ?? 'schedules.error.unknown');
    const problem: ScheduleProblem = { code, message, fieldErrors };
    if (code === 'CONFLICT') {
      const x = e.extensions ?? {};
      problem.conflict = {
        current: (x.current as ScheduleFieldsFragment | undefined) ?? null,
        updatedBy: typeof x.updatedBy === 'string' ? x.updatedBy : null,
        updatedBySelf: x.updatedBySelf === true,
        updatedAt: typeof x.updatedAt === 'string' ? x.updatedAt : null,
      };
    }
    return problem;
  }
  if (ServerError.is(err)) return { code: 'SERVER', message: t('schedules.error.unknown'), fieldErrors: {} };
  return { code: 'NETWORK', message: t('schedules.error.network'), fieldErrors: {} };
}
