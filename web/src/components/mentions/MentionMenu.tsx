import { createPortal } from 'react-dom';
import { Spinner } from '@primer/react';
import type { MentionCandidate } from './use-mention-picker';
import styles from './mentions.module.css';

export interface MentionAnchor {
  left: number;
  top: number;
  bottom: number;
}

const WIDTH = 288;
const HEIGHT = 264;

/**
 * The list of people to mention, under the caret (above it near the window's bottom), on top of
 * dialogs (a portal: a dialog's transform would move a fixed box). It never takes the focus: the
 * text keeps it, and the keys (↑ ↓ Enter Tab Escape) are read there.
 */
export function MentionMenu({
  id,
  anchor,
  items,
  active,
  loading,
  label,
  emptyText,
  loadingText,
  onPick,
  onHover,
}: {
  id: string;
  anchor: MentionAnchor;
  items: MentionCandidate[];
  active: number;
  loading: boolean;
  label: string;
  emptyText: string;
  loadingText: string;
  onPick(c: MentionCandidate): void;
  onHover(i: number): void;
}) {
  const below = anchor.bottom + 4 + HEIGHT <= window.innerHeight || anchor.top < HEIGHT;
  const left = Math.max(8, Math.min(anchor.left, window.innerWidth - WIDTH - 8));
  const place = below ? { top: anchor.bottom + 4 } : { bottom: window.innerHeight - anchor.top + 4 };
  return createPortal(
    <div className={styles.menu} style={{ left, ...place }} data-testid="mention-menu">
      <ul id={id} role="listbox" aria-label={label} className={styles.list}>
        {items.map((c, i) => (
          <li
            key={c.id}
            id={`${id}-${c.id}`}
            role="option"
            aria-selected={i === active}
            className={styles.option}
            // Chosen on press, before the text would lose the focus (and its caret) to the list.
            onMouseDown={(e) => {
              e.preventDefault();
              onPick(c);
            }}
            onMouseEnter={() => onHover(i)}
          >
            <span className={styles.name}>{c.name}</span>
            {c.departmentName && <span className={styles.department}>{c.departmentName}</span>}
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
