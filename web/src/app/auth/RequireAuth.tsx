import { lazy, Suspense, useDeferredValue, useEffect, useMemo } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useQuery } from '@apollo/client/react';
import { CenteredSpinner } from '../../components/CenteredStatus';
import { appApollo } from '../apollo';
import { useT } from '../i18n';
import { lazyScreen } from '../lazy-screen';
import { MeQuery } from './operations';
import { handleSessionExpired, loginPath, SessionProvider, useSessionExpiry, type SessionUser } from './session';
import { clearStoredLogin, readStoredLogin, writeStoredLogin } from './user-cache';

// The shell (menus, overlays, icons) is its own chunk: the first load only has to check the session.
const AppShell = lazyScreen(() => import('../layout/AppShell'));
export const loadAppShell = AppShell.preload;
const SessionError = lazy(() => import('./SessionError'));
const ChangePasswordScreen = lazy(() => import('../../features/auth/ChangePasswordScreen'));

/** Sends the session check ahead of the first render; the guard's own query then shares its answer. */
export const startSessionCheck = () => appApollo().client.query({ query: MeQuery });

/**
 * The access guard (spec section 2) as a layout route around every page except /login. The session
 * cookie decides: `me` answers null → sign-in page, keeping the wanted path. While `me` is on its
 * way, the cached login object lets the shell paint the user's name at once.
 */
export function RequireAuth() {
  const t = useT();
  const location = useLocation();
  const { data, error, refetch } = useQuery(MeQuery);
  const cachedUser = useMemo((): SessionUser | null => {
    const cached = readStoredLogin();
    return cached
      ? { id: cached.employee_id, name: cached.full_name, role: cached.role, mustChangePassword: null }
      : null;
  }, []);
  const me = data?.me ?? null;
  const user = me ?? cachedUser;
  // The shell and the page render in the background, in slices, once the session is known: that
  // render is the largest of a load and would otherwise hold a phone's main thread in one piece.
  const shownUser = useDeferredValue(user);

  useEffect(() => {
    if (me) writeStoredLogin({ employee_id: me.id, full_name: me.name, role: me.role });
  }, [me]);

  useSessionExpiry(handleSessionExpired);

  const spinner = <CenteredSpinner label={t('auth.checking')} />;

  if (data && data.me === null) {
    // With a display cache, someone was signed in here and their session has ended: the same way
    // out as when one of the page's own queries, sent meanwhile, answers UNAUTHENTICATED first.
    if (cachedUser) return <LeaveExpired />;
    return <RedirectToLogin wanted={location.pathname + location.search + location.hash} />;
  }

  // Signed in with a one-time password: nothing else until it is replaced (the server refuses the rest).
  if (me?.mustChangePassword) {
    return (
      <Suspense fallback={spinner}>
        <ChangePasswordScreen name={me.name} />
      </Suspense>
    );
  }

  if (!shownUser) {
    if (user || !error) return spinner;
    return (
      <Suspense fallback={spinner}>
        <SessionError onRetry={() => void refetch()} />
      </Suspense>
    );
  }

  return (
    <SessionProvider value={{ user: shownUser, unconfirmed: shownUser !== me }}>
      <Suspense fallback={spinner}>
        <AppShell serverUnreachable={Boolean(error) && !me} onRetry={() => void refetch()} />
      </Suspense>
    </SessionProvider>
  );
}

function LeaveExpired() {
  useEffect(() => handleSessionExpired(), []);
  return null;
}

function RedirectToLogin({ wanted }: { wanted: string }) {
  useEffect(() => clearStoredLogin(), []);
  return <Navigate to={loginPath(wanted)} replace />;
}
