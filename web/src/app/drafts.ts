/**
 * What is being typed, kept in this browser until it is saved: a form's autosave (use-autosave.ts).
 * One entry per user and form ("intranet.draft.<user>.<form>"), so another person signing in on the
 * same browser is never offered someone else's text; a sign-out removes that user's entries (a shared
 * PC keeps nothing behind), and an entry older than KEEP_DAYS is dropped when read.
 */

const PREFIX = 'intranet.draft.';
export const KEEP_DAYS = 30;

export interface StoredDraft<T> {
  /** When it was kept (ms since the epoch). */
  savedAt: number;
  data: T;
}

function storage(): Storage | null {
  try {
    return window.localStorage ?? null;
  } catch {
    return null; // blocked by the browser's privacy settings
  }
}

const keyOf = (user: number, form: string) => `${PREFIX}${user}.${form}`;

export function readDraft<T>(user: number, form: string, now = Date.now()): StoredDraft<T> | null {
  const s = storage();
  if (!s) return null;
  try {
    const raw = s.getItem(keyOf(user, form));
    if (!raw) return null;
    const v = JSON.parse(raw) as Partial<StoredDraft<T>>;
    if (typeof v.savedAt !== 'number' || v.data === undefined) throw new Error('not a draft');
    if (now - v.savedAt > KEEP_DAYS * 86_400_000) throw new Error('expired');
    return { savedAt: v.savedAt, data: v.data };
  } catch {
    removeDraft(user, form);
    return null;
  }
}

/** False when the browser refused it (storage full or blocked): the caller may keep less and try again. */
export function writeDraft<T>(user: number, form: string, data: T, now = Date.now()): boolean {
  const s = storage();
  if (!s) return false;
  try {
    s.setItem(keyOf(user, form), JSON.stringify({ savedAt: now, data } satisfies StoredDraft<T>));
    return true;
  } catch {
    return false;
  }
}

export function removeDraft(user: number, form: string): void {
  try {
    storage()?.removeItem(keyOf(user, form));
  } catch {
    /* nothing kept */
  }
}

/** Every entry of one user (at sign-out). */
export function removeDraftsOf(user: number): void {
  const s = storage();
  if (!s) return;
  try {
    const mine = `${PREFIX}${user}.`;
    const keys = Array.from({ length: s.length }, (_, i) => s.key(i)).filter((k): k is string => !!k?.startsWith(mine));
    for (const k of keys) s.removeItem(k);
  } catch {
    /* nothing kept */
  }
}
