import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { useApolloClient, useMutation } from '@apollo/client/react';
import type { CurrentUserFieldsFragment } from '../../gql/graphql';
import { appApollo } from '../apollo';
import { LogoutMutation } from './operations';
import { removeDraftsOf } from '../drafts';
import { clearStoredLogin } from './user-cache';

export type SessionUser = CurrentUserFieldsFragment;

interface SessionValue {
  user: SessionUser;
  /** True while the user comes from the display cache and the server has not confirmed it yet. */
  unconfirmed: boolean;
}

const SessionContext = createContext<SessionValue | null>(null);

export function SessionProvider({ value, children }: { value: SessionValue; children: ReactNode }) {
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const v = useContext(SessionContext);
  if (!v) throw new Error('useSession outside a signed-in route');
  return v;
}

/** Builds "/login?next=…" so sign-in returns to the page that was asked for. */
export function loginPath(wanted?: string, reason?: 'expired' | 'signedOut'): string {
  const params = new URLSearchParams();
  if (wanted && wanted !== '/' && safeNext(wanted)) params.set('next', wanted);
  if (reason) params.set('reason', reason);
  const q = params.toString();
  return q ? `/login?${q}` : '/login';
}

/** Only same-site paths may be returned to (no "//evil.example", no loops back to /login). */
export function safeNext(next: string | null | undefined): string | null {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return null;
  if (next === '/login' || next.startsWith('/login?') || next.startsWith('/login/')) return null;
  return next;
}

/** Set once the app is leaving for the sign-in page. */
let leaving = false;

/**
 * Leaves the app for the sign-in page with a full page load, so nothing of the previous session
 * (Apollo store, WebSocket, component state) survives in memory. Once: the session's end may be
 * reported by several answers (Me, a page's query, the socket).
 */
function leaveTo(path: string) {
  if (leaving) return;
  leaving = true;
  window.location.replace(path);
}

export function useLogout(): { logout(): Promise<void>; loggingOut: boolean; failed: boolean; dismissFailure(): void } {
  const client = useApolloClient();
  const [run] = useMutation(LogoutMutation);
  const [loggingOut, setLoggingOut] = useState(false);
  const [failed, setFailed] = useState(false);
  const signedIn = useContext(SessionContext)?.user.id;

  const logout = useCallback(async () => {
    setFailed(false);
    setLoggingOut(true);
    appApollo().signingOut(true);
    try {
      await run();
    } catch {
      // The session may still be valid on the server: say so instead of pretending.
      appApollo().signingOut(false);
      setLoggingOut(false);
      setFailed(true);
      return;
    }
    clearStoredLogin();
    // A shared PC keeps nothing of the person behind, autosaved drafts included.
    if (signedIn !== undefined) removeDraftsOf(signedIn);
    appApollo().restartRealtime();
    client.stop();
    await client.clearStore();
    leaveTo(loginPath(undefined, 'signedOut'));
  }, [client, run, signedIn]);

  return { logout, loggingOut, failed, dismissFailure: useCallback(() => setFailed(false), []) };
}

/** When the server answers UNAUTHENTICATED mid-use (expired or revoked session). */
export function handleSessionExpired() {
  clearStoredLogin();
  const here = window.location.pathname + window.location.search + window.location.hash;
  leaveTo(loginPath(here, 'expired'));
}

export function useSessionExpiry(onExpired: () => void) {
  useEffect(() => {
    const { sessionEvents, SESSION_EXPIRED } = appApollo();
    sessionEvents.addEventListener(SESSION_EXPIRED, onExpired);
    return () => sessionEvents.removeEventListener(SESSION_EXPIRED, onExpired);
  }, [onExpired]);
}
