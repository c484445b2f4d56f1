import type { ReactNode } from 'react';
import styles from './Page.module.css';

export function Page({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <div className={styles.page} data-testid={testId}>
      {children}
    </div>
  );
}
