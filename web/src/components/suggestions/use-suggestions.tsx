import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { SuggestionList, type Suggestion, type SuggestionAnchor } from './SuggestionList';

/** How long typing pauses before the choices are asked for. */
const QUIET_MS = 120;

export interface SuggestionWords {
  label: string;
  emptyText: string;
  loadingText: string;
  testId: string;
}

/**
 * The state of a list of choices over a field: `open` with what was typed and where, the choices
 * `search` gives for it (the latest answer only), and the keys the list takes while open. `onPick`
 * puts the chosen one in the field.
 */
export function useSuggestions<T extends { id: number }>(
  search: ((query: string) => Promise<T[]>) | undefined,
  toItem: (t: T) => Suggestion,
  onPick: (t: T) => void,
  words: SuggestionWords,
) {
  const id = useId();
  const [at, setAt] = useState<{ query: string; anchor: SuggestionAnchor } | null>(null);
  const [items, setItems] = useState<T[]>([]);
  const [active, setActive] = useState(0);
  const [loading, setLoading] = useState(false);
  const query = at?.query ?? null;

  useEffect(() => {
    if (query === null || !search) return;
    let live = true;
    setLoading(true);
    const timer = setTimeout(() => {
      search(query)
        .then((found) => live && (setItems(found), setActive(0)))
        .catch(() => live && setItems([]))
        .finally(() => live && setLoading(false));
    }, QUIET_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [query, search]);

  const state = useRef({ at, items, active, onPick });
  state.current = { at, items, active, onPick };

  const close = () => {
    setAt(null);
    setItems([]);
  };
  const pick = (t: T) => {
    state.current.onPick(t);
    close();
  };

  return {
    isOpen: at !== null,
    listId: id,
    activeId: at && items[active] ? `${id}-${items[active].id}` : undefined,
    open: (q: string, anchor: SuggestionAnchor) => setAt({ query: q, anchor }),
    close,
    /** A key pressed in the field: true when the list took it (the caller stops it there). */
    onKey(e: Pick<KeyboardEvent, 'key' | 'isComposing'>): boolean {
      const s = state.current;
      if (!s.at || e.isComposing) return false;
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        if (s.items.length) setActive((s.active + (e.key === 'ArrowDown' ? 1 : s.items.length - 1)) % s.items.length);
        return true;
      }
      if (e.key === 'Enter' || e.key === 'Tab') {
        const t = s.items[s.active];
        if (!t) return false;
        pick(t);
        return true;
      }
      if (e.key === 'Escape') {
        close();
        return true;
      }
      return false;
    },
    list: (at ? (
      <SuggestionList
        id={id}
        anchor={at.anchor}
        items={items.map(toItem)}
        active={active}
        loading={loading}
        label={words.label}
        emptyText={words.emptyText}
        loadingText={words.loadingText}
        testId={words.testId}
        onPick={(i) => items[i] && pick(items[i])}
        onHover={setActive}
      />
    ) : null) as ReactNode,
  };
}
