import { useEffect, useRef } from 'react';
import type { UNSAFE_createBrowserHistory } from 'react-router-dom';

/**
 * Unsaved edits are not lost by leaving: a form with changes holds the page, and every route change
 * (a link, navigate(), the browser's back and forward buttons) first asks. The app runs in
 * declarative router mode (the data router's useBlocker would add its code to the first chunk), so
 * the guard sits in the history the router is given. Closing or reloading the tab gets the browser's
 * own `beforeunload` question.
 */

type BrowserHistory = ReturnType<typeof UNSAFE_createBrowserHistory>;

export interface LeaveGate {
  /** Is a form holding the page? */
  held(): boolean;
  /** Ask the user; true: leave (the edits are lost). */
  ask(): Promise<boolean>;
}

/** The forms holding the page, each with what to do when the user agrees to leave (drop its autosave). */
const holds = new Set<{ onLeave?: () => void }>();
let asker: (() => Promise<boolean>) | null = null;
/** Set while a form leaves on its own (after a save, on a confirmed Cancel): no question then. */
let leavingOnPurpose = false;

export const appLeaveGate: LeaveGate = {
  held: () => holds.size > 0 && !leavingOnPurpose && asker !== null,
  ask: async () => {
    const ok = asker ? await asker() : true;
    if (ok) for (const hold of [...holds]) hold.onLeave?.();
    return ok;
  },
};

/** The dialog host registers how to ask (NavigationGuardDialog). */
export function setLeaveAsker(ask: (() => Promise<boolean>) | null) {
  asker = ask;
}

/** Runs a navigation the form itself decided on (a save went through, Cancel was confirmed). */
export function leaveOnPurpose(navigate: () => void) {
  leavingOnPurpose = true;
  try {
    navigate();
  } finally {
    leavingOnPurpose = false;
  }
}

/**
 * Holds the page while `dirty`: route changes ask first, closing or reloading the tab asks the browser's way.
 * `onLeave` runs when the user agrees to leave and lose the edits.
 */
export function useLeaveGuard(dirty: boolean, onLeave?: () => void) {
  const leaveRef = useRef(onLeave);
  leaveRef.current = onLeave;
  useEffect(() => {
    if (!dirty) return;
    const hold = { onLeave: () => leaveRef.current?.() };
    holds.add(hold);
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older Chromium asks only when returnValue is set.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      holds.delete(hold);
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [dirty]);
}

/**
 * The router's history with the gate in front. A change that stays on the same path (a query
 * parameter) passes: the form stays on screen. A push or replace waits for the answer. A back or
 * forward step has already moved the browser when it is heard: it is stepped back at once, and
 * taken again once the user agrees.
 */
export function guardHistory(inner: BrowserHistory, gate: LeaveGate): BrowserHistory {
  let shownPath = inner.location.pathname;
  let undoing = false;
  let replaying = false;
  const leaves = (to: Parameters<BrowserHistory['push']>[0]) => {
    const path = typeof to === 'string' ? inner.createURL(to).pathname : (to.pathname ?? shownPath);
    return path !== shownPath;
  };
  const whenAllowed = (to: Parameters<BrowserHistory['push']>[0], go: () => void) => {
    if (!gate.held() || !leaves(to)) return go();
    void gate.ask().then((ok) => ok && go());
  };
  return {
    get action() {
      return inner.action;
    },
    get location() {
      return inner.location;
    },
    createHref: (to) => inner.createHref(to),
    createURL: (to) => inner.createURL(to),
    encodeLocation: (to) => inner.encodeLocation(to),
    go: (n) => inner.go(n),
    push: (to, state) => whenAllowed(to, () => inner.push(to, state)),
    replace: (to, state) => whenAllowed(to, () => inner.replace(to, state)),
    listen(listener) {
      return inner.listen((update) => {
        if (update.action === 'POP') {
          if (undoing) {
            // The step back to the form: the router never saw the step away.
            undoing = false;
            return;
          }
          const { delta } = update;
          if (!replaying && delta && update.location.pathname !== shownPath && gate.held()) {
            undoing = true;
            inner.go(-delta);
            void gate.ask().then((ok) => {
              if (!ok) return;
              replaying = true;
              inner.go(delta);
            });
            return;
          }
          replaying = false;
        }
        shownPath = update.location.pathname;
        listener(update);
      });
    },
  };
}
