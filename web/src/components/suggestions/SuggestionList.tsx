import { createPortal } from 'react-dom';
import { Spinner } from '@primer/react';
import styles from './suggestions.module.css';

/** One choice: what it is called, and a second line (a person's department). */
export interface Suggestion {
  id: number;
  label: string;
  detail?: string | null;
}

/** Where the list opens: under (or above) this box, in window coordinates. */
export interface SuggestionAnchor {
  left: number;
  top: number;
  bottom: number;
  width?: number;
}

const WIDTH = 288;
const HEIGHT = 264;

/**
 * A list of choices for what is being typed (people to mention, tags to filter by), under the caret
 * or the field (above it near the window's bottom), on top of dialogs (a portal: a dialog's
 * transform would move a fixed box). It never takes the focus: the field keeps it, and its keys
 * (↑ ↓ Enter Tab Escape) are read there (use-suggestions.tsx).
 */
export function SuggestionList({
  id,
  anchor,
  items,
  active,
  loading,
  label,
  emptyText,
  loadingText,
  testId,
  onPick,
  onHover,
}: {
  id: string;
  anchor: SuggestionAnchor;
  items: Suggestion[];
  active: number;
  loading: boolean;
  label: string;
  emptyText: string;
  loadingText: string;
  testId: string;
  onPick(i: number): void;
  onHover(i: number): void;
}) {
  const width = Math.max(WIDTH, anchor.width ?? 0);
  const below = anchor.bottom + 4 + HEIGHT <= window.innerHeight || anchor.top < HEIGHT;
  const left = Math.max(8, Math.min(anchor.left, window.innerWidth - width - 8));
  const place = below ? { top: anchor.bottom + 4 } : { bottom: window.innerHeight - anchor.top + 4 };
  return createPortal(
    <div
      className={styles.menu}
      style={{ left, width: `min(${width}px, calc(100vw - 16px))`, ...place }}
      data-testid={testId}
    >
      <ul id={id} role="listbox" aria-label={label} className={styles.list}>
        {items.map((s, i) => (
          <li
            key={s.id}
            id={`${id}-${s.id}`}
            role="option"
            aria-selected={i === active}
            className={styles.option}
            // Chosen on press, before the field would lose the focus (and its caret) to the list.
            onMouseDown={(e) => {
              e.preventDefault();
              onPick(i);
            }}
            onMouseEnter={() => onHover(i)}
          >
            <span className={styles.label}>{s.label}</span>
            {s.detail && <span className={styles.detail}>{s.detail}</span>}
          </li>
        ))}
      </ul>
      {!items.length && (
        <p className={styles.status} role="status">
          {loading ? <Spinner size="small" srText={loadingText} /> : emptyText}
        </p>
      )}
    </div>,
    document.body,
  );
}
