import { useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';
import { AlertIcon, CheckCircleIcon, InfoIcon, XIcon } from '@primer/octicons-react';
import styles from './Toast.module.css';

export type ToastTone = 'success' | 'danger' | 'warning' | 'info';
interface ToastItem {
  id: number;
  tone: ToastTone;
  message: string;
  /** A second, smaller line: the server's reason for a failure. */
  detail?: string;
}

// A module-level store: a toast raised just before navigating (save → list) survives the route change.
let items: ToastItem[] = [];
let seq = 0;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

function dismiss(id: number) {
  items = items.filter((t) => t.id !== id);
  emit();
}

/** Shows a toast; the same message again replaces the one still showing (and restarts its time). */
function show(tone: ToastTone, message: string, detail?: string) {
  const id = ++seq;
  items = [
    ...items.filter((t) => t.tone !== tone || t.message !== message || t.detail !== detail).slice(-3),
    { id, tone, message, detail },
  ];
  emit();
  window.setTimeout(() => dismiss(id), tone === 'danger' ? 8000 : 4500);
}

/** Takes down the toasts showing `message` (a failure that a new attempt makes stale). */
function clear(message: string) {
  if (!items.some((t) => t.message === message)) return;
  items = items.filter((t) => t.message !== message);
  emit();
}

export const toast = {
  clear,
  success: (m: string, detail?: string) => show('success', m, detail),
  error: (m: string, detail?: string) => show('danger', m, detail),
  warning: (m: string, detail?: string) => show('warning', m, detail),
  info: (m: string, detail?: string) => show('info', m, detail),
};

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => void listeners.delete(l);
};

const ICONS = { success: CheckCircleIcon, danger: AlertIcon, warning: AlertIcon, info: InfoIcon };

/**
 * Renders the current toasts (top right under the header; at the bottom on phones). They let clicks
 * through to the page (a toast over the schedule grid must not eat a click on it); only their close
 * button takes them. Mount once per screen.
 */
export function ToastHost({ closeLabel }: { closeLabel: string }) {
  const list = useSyncExternalStore(subscribe, () => items);
  if (list.length === 0) return null;
  return createPortal(
    <div className={styles.host} aria-live="polite">
      {list.map((t) => {
        const Icon = ICONS[t.tone];
        return (
          <div
            key={t.id}
            className={styles.toast}
            data-tone={t.tone}
            role={t.tone === 'danger' || t.tone === 'warning' ? 'alert' : 'status'}
            data-testid="toast"
          >
            <Icon size={16} className={styles.icon} />
            <span className={styles.message}>
              {t.message}
              {t.detail && <span className={styles.detail}>{t.detail}</span>}
            </span>
            <button type="button" className={styles.close} aria-label={closeLabel} onClick={() => dismiss(t.id)}>
              <XIcon size={16} />
            </button>
          </div>
        );
      })}
    </div>,
    document.body,
  );
}
