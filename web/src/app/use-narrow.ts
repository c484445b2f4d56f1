import { useSyncExternalStore } from 'react';

/** The narrow (mobile) layout applies when the window is under 440 px wide (spec section 9). */
export const NARROW_MAX_WIDTH = 440;
const QUERY = `(max-width: ${NARROW_MAX_WIDTH - 0.02}px)`;

function subscribe(onChange: () => void): () => void {
  const mql = window.matchMedia(QUERY);
  mql.addEventListener('change', onChange);
  return () => mql.removeEventListener('change', onChange);
}

export function isNarrowNow(): boolean {
  // No window while the build pre-renders the first screens (boot/prerender.tsx).
  return typeof window !== 'undefined' && window.matchMedia(QUERY).matches;
}

export function useNarrow(): boolean {
  return useSyncExternalStore(subscribe, isNarrowNow, () => false);
}

/** A phone or tablet browser, or a narrow window: used for the spec's /blog → /blog/sp redirect. */
export function isMobileBrowser(): boolean {
  const nav = navigator as Navigator & { userAgentData?: { mobile?: boolean } };
  if (nav.userAgentData?.mobile) return true;
  return /Android|iPhone|iPad|iPod|Mobile|Windows Phone/i.test(nav.userAgent) || isNarrowNow();
}

/** Where to land after sign-in when no other page was asked for. */
export function defaultLandingPath(): string {
  return isNarrowNow() ? '/schedules/sp' : '/schedules';
}
