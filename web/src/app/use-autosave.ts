import { useCallback, useEffect, useRef, useState } from 'react';
import { useSession } from './auth/session';
import { readDraft, removeDraft, writeDraft, type StoredDraft } from './drafts';

/** A pause in typing this long keeps the draft; typing without a pause keeps it every MAX_WAIT_MS. */
const QUIET_MS = 600;
const MAX_WAIT_MS = 3000;

/**
 * Autosave of a form in this browser (drafts.ts), so a crash, a closed tab or a lost connection
 * loses nothing typed. `changed()` after each edit; the form's `collect()` returns what to keep
 * (null: nothing worth keeping, the entry goes). A draft found on opening is `offered` until the user
 * restores or discards it, and is not written over meanwhile. `saved()` after the form is saved,
 * `discard()` when the user throws the edits away (the leave guard's answer). `form` null: off.
 */
export function useAutosave<T>(form: string | null, collect: () => Promise<T | null> | T | null) {
  const { user } = useSession();
  const userId = user.id;
  const [offered, setOffered] = useState<StoredDraft<T> | null>(() => (form ? readDraft<T>(userId, form) : null));
  const offeredRef = useRef(offered);
  offeredRef.current = offered;
  const collectRef = useRef(collect);
  collectRef.current = collect;
  const timer = useRef<number | undefined>(undefined);
  const firstChange = useRef<number | null>(null);
  /** Bumped by saved() and discard(): a keep already running must not write the entry back. */
  const generation = useRef(0);

  useEffect(() => {
    setOffered(form ? readDraft<T>(userId, form) : null);
  }, [form, userId]);

  const keep = useCallback(async () => {
    window.clearTimeout(timer.current);
    timer.current = undefined;
    firstChange.current = null;
    if (!form || offeredRef.current) return;
    const gen = generation.current;
    const data = await collectRef.current();
    if (gen !== generation.current) return;
    if (data === null) removeDraft(userId, form);
    else writeDraft(userId, form, data);
  }, [form, userId]);

  const changed = useCallback(() => {
    if (!form) return;
    const now = Date.now();
    firstChange.current ??= now;
    window.clearTimeout(timer.current);
    const wait = Math.max(0, Math.min(QUIET_MS, firstChange.current + MAX_WAIT_MS - now));
    timer.current = window.setTimeout(() => void keep(), wait);
  }, [form, keep]);

  // Going to another app or tab keeps what is there now (a phone may end the page without unloading it).
  useEffect(() => {
    const onHide = () => {
      if (document.visibilityState === 'hidden' && timer.current !== undefined) void keep();
    };
    document.addEventListener('visibilitychange', onHide);
    return () => {
      document.removeEventListener('visibilitychange', onHide);
      window.clearTimeout(timer.current);
    };
  }, [keep]);

  const drop = useCallback(() => {
    generation.current++;
    window.clearTimeout(timer.current);
    timer.current = undefined;
    firstChange.current = null;
    if (form) removeDraft(userId, form);
    setOffered(null);
  }, [form, userId]);

  return {
    /** A draft kept earlier, waiting for the user's answer. */
    offered,
    changed,
    /** The user takes the offered draft: it stays kept (as the form now holds it) until saved or discarded. */
    accept: useCallback(() => setOffered(null), []),
    /** The form was saved: nothing to keep. */
    saved: drop,
    /** The user threw the offered draft or the edits away. */
    discard: drop,
  };
}
