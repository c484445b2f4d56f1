import { AlertIcon } from '@primer/octicons-react';
import { useT } from '../app/i18n';
import styles from './CenteredStatus.module.css';

/** What the error boundary shows. Uses only light components so it works when chunks fail. */
export function ErrorNotice({ fill = 'area' }: { fill?: 'screen' | 'area' }) {
  const t = useT();
  return (
    <div className={fill === 'screen' ? styles.screen : styles.area} role="alert">
      <AlertIcon size={32} />
      <strong className={styles.title}>{t('error.title')}</strong>
      <span className={styles.label}>{t('error.body')}</span>
      <button type="button" className={styles.button} onClick={() => window.location.reload()}>
        {t('error.reload')}
      </button>
    </div>
  );
}
