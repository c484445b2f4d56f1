import type { ReactNode } from 'react';
import { Spinner } from '@primer/react';
import styles from './CenteredStatus.module.css';

/** A full-height centered status (session check, page loading). */
export function CenteredSpinner({ label, fill = 'screen' }: { label: string; fill?: 'screen' | 'area' }) {
  return (
    <div className={fill === 'screen' ? styles.screen : styles.area} role="status" aria-live="polite">
      <Spinner size="medium" srText={null} />
      <span className={styles.label}>{label}</span>
    </div>
  );
}

export function CenteredBox({ children }: { children: ReactNode }) {
  return <div className={styles.screen}>{children}</div>;
}
