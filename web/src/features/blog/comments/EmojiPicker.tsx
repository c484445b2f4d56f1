import { useRef, useState } from 'react';
import { AnchoredOverlay, IconButton } from '@primer/react';
import { SmileyIcon } from '@primer/octicons-react';
import { EMOJIS } from './emojis';
import type { CommentText } from './comments.i18n';
import styles from './comments.module.css';

const COLUMNS = 8;

/** Where the arrow keys, Home and End move in the grid from `at` (null: not a moving key). */
function moveTo(key: string, at: number): number | null {
  const last = EMOJIS.length - 1;
  const step: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: COLUMNS, ArrowUp: -COLUMNS };
  if (key === 'Home') return 0;
  if (key === 'End') return last;
  if (!(key in step)) return null;
  return Math.min(last, Math.max(0, at + step[key]!));
}

/**
 * The 絵文字 button and its grid (spec §9: about 85–90). One Tab stop: the arrow keys, Home and End
 * move within the grid, Enter or Space picks, Escape closes; focus goes back to the box after either.
 */
export function EmojiPicker({
  text,
  box,
  onPick,
}: {
  text: CommentText;
  box: React.RefObject<HTMLTextAreaElement | null>;
  onPick(emoji: string): void;
}) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const initial = useRef<HTMLButtonElement | null>(null);
  return (
    <AnchoredOverlay
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      focusZoneSettings={{ disabled: true }}
      focusTrapSettings={{ initialFocusRef: initial, returnFocusRef: box }}
      renderAnchor={(props) => (
        <IconButton
          {...props}
          icon={SmileyIcon}
          aria-label={text('emoji')}
          variant="invisible"
          size="small"
          data-testid="blog-comment-emoji"
        />
      )}
    >
      <div
        className={styles.emojiGrid}
        role="group"
        aria-label={text('emojiList')}
        style={{ ['--emoji-columns' as string]: COLUMNS }}
        onKeyDown={(e) => {
          const to = moveTo(e.key, active);
          if (to === null) return;
          e.preventDefault();
          setActive(to);
          buttons.current[to]?.focus();
        }}
      >
        {EMOJIS.map((emoji, i) => (
          <button
            key={emoji}
            ref={(b) => {
              buttons.current[i] = b;
              if (i === active) initial.current = b;
            }}
            type="button"
            className={styles.emoji}
            tabIndex={i === active ? 0 : -1}
            aria-label={emoji}
            onFocus={() => setActive(i)}
            onClick={() => {
              setOpen(false);
              onPick(emoji);
            }}
          >
            {emoji}
          </button>
        ))}
      </div>
    </AnchoredOverlay>
  );
}
