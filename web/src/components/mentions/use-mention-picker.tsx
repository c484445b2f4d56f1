import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useT } from '../../app/i18n';
import { MentionMenu, type MentionAnchor } from './MentionMenu';

export interface MentionCandidate {
  id: number;
  name: string;
  departmentName: string | null;
}

/** Who may be mentioned here, for what was typed after @ (the server decides: only the post's readers). */
export type MentionSearch = (query: string) => Promise<MentionCandidate[]>;

/** How long typing pauses before the candidates are asked for. */
const QUIET_MS = 120;

/**
 * The state of an @-mention list over a text (a rich-text editor or a textarea): `open` with what was
 * typed after the @ and where, the candidates asked for (the latest answer only), and the keys it
 * takes while open. `onPick` puts the chosen person in the text.
 */
export function useMentionPicker(search: MentionSearch | undefined, onPick: (c: MentionCandidate) => void) {
  const t = useT();
  const id = useId();
  const [at, setAt] = useState<{ query: string; anchor: MentionAnchor } | null>(null);
  const [items, setItems] = useState<MentionCandidate[]>([]);
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
  const pick = (c: MentionCandidate) => {
    state.current.onPick(c);
    close();
  };

  return {
    isOpen: at !== null,
    listId: id,
    activeId: at && items[active] ? `${id}-${items[active].id}` : undefined,
    open: (q: string, anchor: MentionAnchor) => setAt({ query: q, anchor }),
    close,
    /** A key pressed in the text: true when the list took it (the caller stops it there). */
    onKey(e: Pick<KeyboardEvent, 'key' | 'isComposing'>): boolean {
      const s = state.current;
      if (!s.at || e.isComposing) return false;
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        if (s.items.length) setActive((s.active + (e.key === 'ArrowDown' ? 1 : s.items.length - 1)) % s.items.length);
        return true;
      }
      if (e.key === 'Enter' || e.key === 'Tab') {
        const c = s.items[s.active];
        if (!c) return false;
        pick(c);
        return true;
      }
      if (e.key === 'Escape') {
        close();
        return true;
      }
      return false;
    },
    menu: (at ? (
      <MentionMenu
        id={id}
        anchor={at.anchor}
        items={items}
        active={active}
        loading={loading}
        label={t('mention.list')}
        emptyText={t('mention.none')}
        loadingText={t('mention.loading')}
        onPick={pick}
        onHover={setActive}
      />
    ) : null) as ReactNode,
  };
}
