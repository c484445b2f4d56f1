import { CombinedGraphQLErrors, ServerError } from '@apollo/client/errors';
import type { Locale, Translate } from '../../app/i18n';

export interface LoginProblem {
  message: string;
  fieldErrors: Partial<Record<'loginId' | 'password', string>>;
}

/**
 * Turns a failed sign-in into what the user reads. In Japanese the server's own message is shown
 * as is (it says exactly what happened, e.g. how long a throttle lasts); in English the typed
 * error code picks the catalog text.
 */
export function describeLoginError(
  err: unknown,
  locale: Locale,
  t: Translate,
  via: 'password' | 'google',
): LoginProblem {
  if (CombinedGraphQLErrors.is(err) && err.errors.length > 0) {
    const e = err.errors[0];
    const code = e.extensions?.code;
    const fieldErrors: LoginProblem['fieldErrors'] = {};
    const raw = e.extensions?.fieldErrors;
    if (Array.isArray(raw)) {
      for (const fe of raw as { field?: unknown; message?: unknown }[]) {
        if (fe.field === 'loginId' || fe.field === 'password') {
          fieldErrors[fe.field] =
            locale === 'ja' && typeof fe.message === 'string' ? fe.message : t(`login.required.${fe.field}`);
        }
      }
    }
    if (locale === 'ja' && e.message && code !== 'INTERNAL_SERVER_ERROR') return { message: e.message, fieldErrors };
    switch (code) {
      case 'UNAUTHENTICATED':
        return { message: t(via === 'google' ? 'login.error.googleNoMatch' : 'login.error.invalid'), fieldErrors };
      case 'TOO_MANY_REQUESTS': {
        const seconds = Number(e.extensions?.retryAfterSeconds) || 60;
        return { message: t('login.error.throttled', { minutes: Math.max(1, Math.ceil(seconds / 60)) }), fieldErrors };
      }
      case 'FORBIDDEN':
        return { message: t('login.error.forbidden'), fieldErrors };
      case 'BAD_USER_INPUT':
        return { message: t('login.error.badInput'), fieldErrors };
      default:
        return { message: t('login.error.unknown'), fieldErrors };
    }
  }
  if (ServerError.is(err)) return { message: t('login.error.unknown'), fieldErrors: {} };
  return { message: t('login.error.network'), fieldErrors: {} };
}
