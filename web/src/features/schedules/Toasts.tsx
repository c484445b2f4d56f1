import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { IconButton } from '@primer/react';
import { AlertFillIcon, CheckCircleFillIcon, InfoIcon, XIcon } from '@primer/octicons-react';
import { useT } from '../../app/i18n';
import styles from './Toasts.module.css';

export type ToastVariant = 'success' | 'danger' | 'info';

interface Toast {
  id: number;
  variant: ToastVariant;
  title: string;
  detail?: string;
}

type Notify = (variant: ToastVariant, title: string, detail?: string) => void;

const ToastContext = createContext<Notify | null>(null);

const DURATION_MS: Record<ToastVariant, number> = { success: 4000, info: 5000, danger: 8000 };

/** Short-lived notices at the bottom of the screen (success, failure with the server's reason). */
export function ToastProvider({ children }: { children: ReactNode }) {
  const t = useT();
  const [toasts, setToasts] = useState<Toast[]>([]);
  const seq = useRef(0);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const dismiss = useCallback((id: number) => {
    setToasts((list) => list.filter((x) => x.id !== id));
    clearTimeout(timers.current.get(id));
    timers.current.delete(id);
  }, []);

  const notify = useCallback<Notify>(
    (variant, title, detail) => {
      const id = ++seq.current;
      setToasts((list) => [...list.slice(-3), { id, variant, title, detail }]);
      timers.current.set(
        id,
        setTimeout(() => dismiss(id), DURATION_MS[variant]),
      );
    },
    [dismiss],
  );

  useEffect(() => {
    const all = timers.current;
    return () => all.forEach((timer) => clearTimeout(timer));
  }, []);

  const value = useMemo(() => notify, [notify]);

  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className={styles.region} role="status" aria-live="polite" data-testid="toasts">
        {toasts.map((toast) => (
          <div key={toast.id} className={styles.toast} data-variant={toast.variant} data-testid="toast">
            <span className={styles.icon} aria-hidden="true">
              {toast.variant === 'success' ? <CheckCircleFillIcon size={16} /> : toast.variant === 'danger' ? <AlertFillIcon size={16} /> : <InfoIcon size={16} />}
            </span>
            <span className={styles.text}>
              <strong className={styles.title}>{toast.title}</strong>
              {toast.detail && <span className={styles.detail}>{toast.detail}</span>}
            </span>
            <IconButton icon={XIcon} size="small" variant="invisible" aria-label={t('schedules.toast.close')} onClick={() => dismiss(toast.id)} className={styles.close} />
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): Notify {
  const notify = useContext(ToastContext);
  if (!notify) throw new Error('useToast outside ToastProvider');
  return notify;
}
